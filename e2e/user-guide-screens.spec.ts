/**
 * The screenshots of docs/user-guide.md, taken by the app itself at 1280x800 and 1920x1080: every panel, then
 * each work mode (the tuner, the sound-events editor, the project mode) on the sample project, each checked for
 * the sizes a person needs (120+ px of curve values, whole timeline rows, event rows in the list).
 * Written to docs/images/*.png so the guide always shows the app as it behaves.
 */
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { repoRoot } from './electron-binary';
import { openSampleProject } from './sev-ui';
import type { Page } from '@playwright/test';
import { animationFrames, canvasData, waitForCompression } from './ui';

const DOCS_IMAGES = join(repoRoot, 'docs', 'images');

/**
 * Sizes the panels must keep in a shot: `curveValues` px of curve values (120 in the tuner; with every panel
 * on screen the curves share the height with the event editor), whole timeline rows, event rows in the list.
 */
async function expectReadable(page: Page, shot: string, curveValues: number): Promise<void> {
  const curves = page.getByTestId('curve-canvas');
  if (await curves.isVisible()) {
    const d = await canvasData(curves);
    expect(Number(d.plotBottom) - Number(d.plotTop), `${shot}: curve values`).toBeGreaterThanOrEqual(curveValues);
  }
  const timeline = page.getByTestId('timeline-canvas');
  if (await timeline.isVisible()) expect(Number((await canvasData(timeline)).visibleRows), `${shot}: timeline rows`).toBeGreaterThanOrEqual(4);
  const list = page.locator('.sev-list-wrap').filter({ has: page.getByTestId('sev-event-row') }).first();
  if (await list.isVisible()) {
    const box = (await list.boundingBox())!;
    const shown = await page.getByTestId('sev-event-row').evaluateAll((rows, b) => rows.filter((r) => {
      const rb = r.getBoundingClientRect();
      return rb.top >= b.y && rb.bottom <= b.y + b.height + 1;
    }).length, box);
    expect(shown, `${shot}: event rows in view`).toBeGreaterThanOrEqual(3);
  }
}

for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test(`user guide screenshots at ${size.width}x${size.height}`, async ({ page, workspace, electronApp, saveScreenshot }) => {
    test.skip(!!electronApp, 'the guide is shot once, in Chromium');
    await page.setViewportSize(size);
    await openSampleProject(page, workspace, electronApp);
    const shoot = async (name: string, curveValues = 120) => {
      await page.mouse.move(1, 1);
      await animationFrames(page, 4);
      const path = await saveScreenshot(`${name}-${size.width}x${size.height}`);
      await expectReadable(page, `${name} at ${size.width}x${size.height}`, curveValues);
      // docs/images/<name>.png at 1280x800 (the guide's size), <name>-1920x1080.png for the large window.
      await page.screenshot({ path: join(DOCS_IMAGES, size.width === 1280 ? `${name}.png` : `${name}-${size.width}x${size.height}.png`) });
      return path;
    };
    // Every panel (no work mode): the curves, the timeline and the event list together.
    for (const mode of ['tuning', 'sev', 'project']) {
      const button = page.getByTestId(`mode-${mode}`);
      if ((await button.getAttribute('aria-pressed')) === 'true') await button.click();
    }
    await waitForCompression(page);
    await page.locator('[data-testid="sev-marker"][data-index="1"]').click();
    await shoot('all-panels', 70);
    await page.keyboard.press('Control+1');
    await waitForCompression(page);
    await shoot('tuner');
    await page.keyboard.press('Control+2');
    await expect(page.getByTestId('sev-track')).toBeVisible();
    await page.locator('[data-testid="sev-marker"][data-index="1"]').click();
    await shoot('sound-events');
    await page.getByTestId('mode-project').click();
    await shoot('project');
  });
}
