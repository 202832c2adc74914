/**
 * File > Open and File > Import can be stopped while main works on the file: the status bar shows "Open…" (or
 * "Import…") with a Cancel; Cancel sends cancelOpenMotion (cancelImport) to main, says that it was cancelled, and the
 * motion already open stays as it was, even when main's answer (here held back until after the Cancel) is a motion
 * it finished opening. That main's read really stops is tested in electron/openCancel.test.ts; here the page's
 * request is held in the loopback transport, so the Cancel is clicked while the open is in progress whatever the
 * machine's speed. Mutations that fail: StatusBar without its cancel-open button; cancelOpen not sending
 * cancelOpenMotion; followOpen ignoring the Cancel (walk_60fps is shown); the same three for the import.
 */
import type { Page, Request, Route } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { spineBvh } from '../shared/testing/bvhFixtures';
import { expect, test } from './fixtures';
import { openThroughPicker, waitForDocument } from './ui';

/** Holds the page's next call of `member` until `release` is called; `held` resolves when it was sent. */
async function holdCall(page: Page, member: string): Promise<{ held: Promise<void>; release: () => Promise<void> }> {
  let route: Route | undefined;
  let sent: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (sent = resolve));
  await page.route(`**/rpc/${member}`, (r) => {
    route = r;
    sent();
  });
  return {
    held,
    release: async () => {
      await route!.continue();
      await page.unroute(`**/rpc/${member}`);
    },
  };
}

const SMALL_BVH = spineBvh(['0 90 0 0 0 0 0 0 0', '0 91 0 5 0 0 3 0 0', '0 92 0 10 0 0 6 0 0']);

test('File > Open in progress: Cancel stops it, says so, and the motion open stays', async ({
  page,
  server,
  pageErrors,
}) => {
  test.skip(!server, 'the open is held in the loopback transport');
  await waitForDocument(page);
  const open = await holdCall(page, 'openMotion');
  await openThroughPicker(page, 'walk_60fps.mtn');
  await open.held;
  await expect(page.getByTestId('busy-note')).toHaveText('Open…');
  const cancelSent: Promise<Request> = page.waitForRequest('**/rpc/cancelOpenMotion');
  await page.getByTestId('cancel-open').click();
  await cancelSent;
  // Main's answer comes after the Cancel (here: the motion, opened in full): it is not shown.
  await open.release();
  // The message by its text, not the bar's last one (the oldest shown, newest first: an earlier one not yet faded).
  const info = page.getByTestId('message-info').filter({ hasText: 'Open cancelled' });
  await expect(info).toHaveText(
    /Open cancelled: walk_60fps\.mtn was not opened\. Nothing was changed; walk stays open\./,
  );
  await expect(page.getByTestId('cancel-open')).toHaveCount(0);
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  // The next open is not cancelled by the old Cancel.
  await openThroughPicker(page, 'walk_60fps.mtn');
  await waitForDocument(page, 'walk_60fps');
  expect(pageErrors).toEqual([]);
});

test('File > Import in progress: Cancel stops it, says so, and the motion open stays', async ({
  page,
  server,
  workspace,
  pageErrors,
}) => {
  test.skip(!server, 'the import is held in the loopback transport');
  await waitForDocument(page);
  writeFileSync(workspace.path('small.bvh'), SMALL_BVH);
  const imp = await holdCall(page, 'importMotion');
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-import').click();
  const dialog = page.getByTestId('import-options');
  await dialog.getByTestId('import-choose-file').click();
  const picker = page.getByTestId('file-picker');
  await picker
    .getByTestId('picker-file')
    .filter({ hasText: /^small\.bvh/ })
    .click();
  await picker.getByTestId('picker-ok').click();
  await imp.held;
  await expect(page.getByTestId('busy-note')).toHaveText('Import…');
  const cancelSent: Promise<Request> = page.waitForRequest('**/rpc/cancelImport');
  await page.getByTestId('cancel-import').click();
  await cancelSent;
  await imp.release();
  await expect(page.getByTestId('message-info').filter({ hasText: 'Import cancelled' })).toHaveText(
    /Import cancelled: nothing was imported; walk stays open\./,
  );
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  expect(pageErrors).toEqual([]);
});
