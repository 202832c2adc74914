/**
 * Maintainer's read, round 14 (docs/architecture.md). A page whose script bundle never runs (missing from the
 * installation, damaged) was a blank window: index.html now carries "ActGuy did not start" and what to do, which the
 * app's script takes away before the first paint (its tag blocks rendering until it has run). Under Electron, main
 * also says a missing bundle in a box (electron/mainMac.test.ts); a damaged one only the page can see.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The bundle's URL as index.html names it (Vite's `assets/index-<hash>.js`). */
const BUNDLE = /\/assets\/index-[\w-]+\.js$/;

/** Notes, from before the page is parsed, every frame painted while "did not start" is in the page. */
async function countFramesShowingNotStarted(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { framesShowingNotStarted: number };
    w.framesShowingNotStarted = 0;
    const frame = () => {
      if (document.getElementById('did-not-start')) w.framesShowingNotStarted++;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

test('a page whose script bundle is missing or damaged says ActGuy did not start, and what to do; a page that starts never paints it', async ({
  appMode,
  loopbackBrowser,
  server,
}) => {
  test.skip(appMode !== 'loopback', "routes the loopback server's bundle (Electron's main: electron/mainMac.test.ts)");
  const context = await loopbackBrowser!.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    for (const answer of [
      { status: 404, contentType: 'text/plain', body: 'not found' },
      { status: 200, contentType: 'text/javascript', body: 'export const = ;' },
    ]) {
      const page = await context.newPage();
      await page.route(BUNDLE, (route) => route.fulfill(answer));
      await page.goto(server!.url);
      const said = page.getByRole('alert');
      await expect(said).toBeVisible();
      await expect(said).toContainText('ActGuy did not start');
      await expect(said).toContainText('Installing ActGuy again should fix it.');
      await page.close();
    }
    // A page that starts: the message is gone before its first frame, and never painted.
    const page = await context.newPage();
    await countFramesShowingNotStarted(page);
    await page.goto(server!.url);
    await expect(page.getByTestId('statusbar')).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('#did-not-start')).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as unknown as { framesShowingNotStarted: number }).framesShowingNotStarted),
    ).toBe(0);
    expect(await page.locator('script[type="module"]').first().getAttribute('blocking')).toBe('render');
  } finally {
    await context.close();
  }
});
