import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { screenshotOf, selectJoint, waitForDocument } from './ui';

test('the sample opens, the viewport draws the decoded skeleton over the source ghost and a joint can be selected', async ({
  page,
  pageErrors,
  saveScreenshot,
}, testInfo) => {
  await waitForDocument(page);
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');

  // The WebGL canvas holds a drawn scene: many pixels differ from the clear colour, the decoded skeleton's
  // orange bones and its joints in green (within half the tolerance at frame 0, a key of every channel).
  const canvas = page.getByTestId('viewport-canvas');
  await expect(canvas).toBeVisible();
  await expect.poll(() => viewportPixels(canvas), { timeout: 15_000 }).toMatchObject({ green: true, orange: true });
  const { drawn, image } = await viewportPixels(canvas);
  expect(drawn).toBeGreaterThan(1000);
  // The source ghost is drawn too: hiding it changes the picture, showing it again restores it.
  await page.getByTestId('show-ghost').uncheck();
  await expect(canvas).toHaveAttribute('data-ghost', '0');
  await expect.poll(async () => (await viewportPixels(canvas)).image).not.toBe(image);
  await page.getByTestId('show-ghost').check();
  await expect.poll(async () => (await viewportPixels(canvas)).image).toBe(image);

  // Selecting a joint drives the curve view, the timeline and the tuning panel.
  await selectJoint(page, 'LeftUpLeg');
  await expect(page.getByTestId('curve-key-count')).toHaveText(/^\d+ keys · \d+ user$/);
  await expect(page.locator('#override-input')).toBeEnabled();
  await saveScreenshot('main-window');
  await screenshotOf(page.getByTestId('curve-view'), testInfo.project.name, 'curves-sample');
  await screenshotOf(page.getByTestId('timeline'), testInfo.project.name, 'timeline-sample');
  expect(pageErrors).toEqual([]);
});

/**
 * What the WebGL viewport shows, read back through a 2D canvas: how many pixels
 * differ from the clear colour (#1b1d21), whether the decoded skeleton's orange
 * and the green of joints within tolerance appear anywhere, and the picture itself.
 */
function viewportPixels(canvas: Locator): Promise<{ drawn: number; green: boolean; orange: boolean; image: string }> {
  return canvas.evaluate((el) => {
    const gl = el as HTMLCanvasElement;
    const probe = document.createElement('canvas');
    probe.width = gl.width;
    probe.height = gl.height;
    const ctx = probe.getContext('2d')!;
    ctx.drawImage(gl, 0, 0);
    const px = ctx.getImageData(0, 0, probe.width, probe.height).data;
    let drawn = 0;
    let green = 0;
    let orange = 0;
    for (let i = 0; i < px.length; i += 4) {
      const [r, g, b] = [px[i], px[i + 1], px[i + 2]];
      if (Math.abs(r - 0x1b) + Math.abs(g - 0x1d) + Math.abs(b - 0x21) > 24) drawn++;
      if (g > 170 && r < 120 && b < 140) green++;
      if (r > 220 && g > 120 && g < 190 && b < 110) orange++;
    }
    return { drawn, green: green > 0, orange: orange > 0, image: probe.toDataURL() };
  });
}
