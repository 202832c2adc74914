import { encodeIpcFrame } from '../shared/ipc/codec';
import { expect, test } from './fixtures';
import { waitForDocument } from './ui';

/**
 * The menu bar, status bar and dialogs have boundaries too (renderer/components/PanelBoundary.tsx): a throw there no
 * longer blanks the window. The throws here come from replies of the main process the renderer does not expect (a
 * recent file whose path is no text, a workspace file of no name), answered in place of the real ones.
 */
const reply = (value: unknown) => ({
  status: 200,
  contentType: 'application/octet-stream',
  body: Buffer.from(encodeIpcFrame({ ok: true, value })),
});

test('a menu bar that throws leaves its place saying so, the window working, and comes back', async ({
  page,
  pageErrors,
  appMode,
}) => {
  test.skip(appMode === 'electron', 'the replies are the loopback server’s');
  await waitForDocument(page);
  await page.route('**/rpc/getRecentFiles', (route) => route.fulfill(reply([{ path: 7, name: 'walk', kind: 'mtn' }])));
  await page.getByTestId('menu-file').click();
  const failed = page.getByTestId('bar-failed-menu');
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('The menu bar stopped: ');
  await expect(failed).toContainText('Your motion, events and project are kept');
  // The rest of the window is there and answers.
  await expect(page.getByTestId('statusbar')).toBeVisible();
  await expect(page.getByTestId('viewport-canvas')).toBeVisible();
  await page.getByTestId('viewport-host').focus();
  await page.keyboard.press('k');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');

  await page.unroute('**/rpc/getRecentFiles');
  await page.getByTestId('bar-retry-menu').click();
  await expect(failed).toHaveCount(0);
  await page.getByTestId('menu-file').click();
  await expect(page.getByTestId('menu-open')).toBeVisible();
  expect(pageErrors.filter((e) => !/replace|menu bar/i.test(e))).toEqual([]);
});

test('a file picker that throws is replaced by a dialog that says so; its Close opens nothing', async ({
  page,
  pageErrors,
  appMode,
}) => {
  test.skip(appMode === 'electron', 'the in-page picker is the loopback build’s');
  await waitForDocument(page);
  await page.route('**/rpc/listWorkspace', (route) =>
    route.fulfill(
      reply({ root: '/ws', files: [{ path: '/ws/x.mtn', relativePath: 7, extension: 'mtn', byteLength: 1 }] }),
    ),
  );
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-open').click();
  const failed = page.getByTestId('dialog-failed');
  await expect(failed).toBeVisible();
  // The heading says it stopped; the text under it says why without saying so again.
  await expect(failed.getByRole('heading')).toHaveText('The file picker stopped');
  await expect(failed.getByRole('alert')).toContainText('What went wrong: ');
  await expect(failed.getByRole('alert')).not.toContainText('stopped');
  await expect(failed).toContainText('Close chooses no file');
  await expect(page.getByTestId('dialog-failed-close')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(failed).toHaveCount(0);
  await expect(page.getByTestId('doc-name')).toHaveText('walk');

  // The next Open draws the picker afresh.
  await page.unroute('**/rpc/listWorkspace');
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-open').click();
  await expect(page.getByTestId('file-picker')).toBeVisible();
  await page.getByTestId('picker-cancel').click();
  await expect(page.getByTestId('file-picker')).toHaveCount(0);
  expect(pageErrors.filter((e) => !/toLowerCase|file picker/i.test(e))).toEqual([]);
});
