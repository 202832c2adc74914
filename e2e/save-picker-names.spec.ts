/**
 * The browser build's save picker and a folder typed before the name (docs/security.md, round 42): a name spelled
 * another way ("./walk.mt3") lands on the file it names and the picker asks before replacing it; a name that could
 * only leave the workspace folder or land nowhere ("out/../walk.mt3", a full path) is refused in words, and nothing
 * is written. Mutation that fails: the picker resolving the name as typed (no savePickerName in accept).
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { waitForDocument } from './ui';

test('the save picker asks before replacing a file named another way, and refuses a name that leaves the workspace', async ({
  page,
  workspace,
  appMode,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(appMode === 'electron', 'in-app picker is the loopback transport');
  await waitForDocument(page);
  const exportThrough = async () => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-export').click();
    return page.getByTestId('file-picker');
  };
  let picker = await exportThrough();
  await picker.getByTestId('picker-ok').click();
  await expect(page.getByTestId('message-info').filter({ hasText: 'Exported' })).toHaveCount(1);
  const first = readFileSync(workspace.path('walk.mt3'));

  picker = await exportThrough();
  await picker.getByTestId('picker-name').fill('./walk.mt3');
  await picker.getByTestId('picker-ok').click();
  // Asked, not replaced: the button now says Replace.
  await expect(picker.getByTestId('picker-ok')).toHaveText('Replace');

  await picker.getByTestId('picker-name').fill('out/../walk.mt3');
  await expect(picker.getByTestId('picker-ok')).toHaveText('Save');
  await picker.getByTestId('picker-ok').click();
  await expect(picker.getByTestId('picker-problem')).toHaveText(
    '".." would leave the workspace folder: type a folder of the workspace before the name.',
  );
  await saveScreenshot('save-picker-dotdot-1280x800');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await saveScreenshot('save-picker-dotdot-1920x1080');
  await picker.getByTestId('picker-name').fill('/tmp/walk.mt3');
  await expect(picker.getByTestId('picker-problem')).toHaveCount(0);
  await picker.getByTestId('picker-name').press('Enter');
  await expect(picker.getByTestId('picker-problem')).toHaveText(
    'Type a name in the workspace folder (a folder of it before the name), not a full path.',
  );
  await picker.getByTestId('picker-cancel').click();
  expect(readFileSync(workspace.path('walk.mt3'))).toEqual(first);
  expect(existsSync(workspace.path('out'))).toBe(false);
  expect(pageErrors).toEqual([]);
});
