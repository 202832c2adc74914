import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { makeKeyEdit, openThroughPicker, waitForDocument } from './ui';

test('a corrupt file gives a readable message and the open document stays', async ({
  page,
  workspace,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  await makeKeyEdit(page, 'LeftFoot');
  const keysBefore = await page.getByTestId('stat-total-keys').innerText();

  // Right magic and version, a header that promises far more data than the file has.
  const bytes = new Uint8Array(64);
  bytes.set([0x4d, 0x54, 0x4e, 0x00, 1, 0, 0, 0, 10, 0, 0, 0, 3, 0, 0, 0]);
  writeFileSync(workspace.path('broken.mtn'), bytes);

  // The edits are unsaved: the question comes first; go on, the open then fails.
  await openThroughPicker(page, 'broken.mtn', { discardEdits: true });
  const error = page.getByTestId('message-error');
  await expect(error).toContainText('broken.mtn');
  await expect(error).toContainText(/bytes/);
  // It says what it left and what to do next, not only what is wrong with the file.
  await expect(error).toContainText(
    'nothing changed, walk stays open. Choose another file with File › Open… (Ctrl+O).',
  );
  await saveScreenshot('corrupt-file-message');

  // Still the same document, with its edits and stats.
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page.getByTestId('stat-total-keys')).toHaveText(keysBefore);
  await expect(page.getByTestId('timeline-selected')).toHaveText('LeftFoot');
  expect(pageErrors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
});

test('a failed save says why and keeps the edits', async ({ page, workspace }) => {
  await waitForDocument(page);
  await makeKeyEdit(page, 'RightFoot');
  const userKeys = await page.getByTestId('curve-key-count').innerText();

  // A folder where the file was: the atomic rename cannot replace it (even as root).
  rmSync(workspace.path('walk.mtn'));
  mkdirSync(workspace.path('walk.mtn'));
  await page.keyboard.press('Control+s');
  const error = page.getByTestId('message-error');
  await expect(error).toContainText('Save failed');
  await expect(error).toContainText('walk.mtn');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page.getByTestId('curve-key-count')).toHaveText(userKeys);
});
