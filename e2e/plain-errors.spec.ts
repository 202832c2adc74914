/**
 * A compression that fails (the compressor's worker stopped) is said in plain words, what the work is now and what to
 * do, with the compressor's own message as Details; the status bar keeps a short note until a compression works
 * again. (The status bar showed "compression failed: the compressor stopped (exit code 134); the next edit restarts
 * it", clipped at 1280 px.) The failure is made by answering the page's compressMotion calls with the reply the
 * loopback server gives for a stopped worker.
 */
import { expect, test } from './fixtures';
import { encodeIpcFrame } from '../shared/ipc/codec';
import { makeKeyEdit, waitForDocument } from './ui';

test('a failed compression reads in plain words with Details, and clears when a compression works again', async ({
  page,
  server,
  saveScreenshot,
}) => {
  test.skip(!server, 'the failure is injected into the loopback transport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const stopped = 'the compressor stopped (exit code 134); the next edit restarts it';
  await page.route('**/rpc/compressMotion', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/octet-stream',
      body: Buffer.from(encodeIpcFrame({ ok: false, error: { message: stopped } })),
    }),
  );
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('k');
  const error = page.getByTestId('message-error');
  await expect(error).toContainText('Compression failed: the compressor stopped unexpectedly');
  await expect(error).toContainText('Your edits are kept');
  await expect(error).toContainText(`Details: ${stopped}`);
  await expect(page.getByTestId('compress-error')).toHaveText('compression failed (see the message)');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await saveScreenshot('compression-failed-1280x800');

  await page.unroute('**/rpc/compressMotion');
  await makeKeyEdit(page, 'Spine');
  await expect(page.getByTestId('compress-error')).toHaveCount(0);
  await expect(page.getByTestId('message-error')).toHaveCount(0);
});
