import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { animationFrames, openThroughPicker, waitForCapture, waitForCompression, waitForDocument } from './ui';

/**
 * The viewport frees on the GPU what a motion made when the motion is closed or replaced, and draws nothing while
 * its panel is hidden (renderer/viewport/scene.ts; docs/architecture.md, "Renderer review, round 1"). The canvas
 * publishes three.js's counts of geometries and textures, the viewport's count of live materials and the frames
 * drawn as data-* attributes, as it publishes its camera.
 */
interface GpuCounts {
  geometries: number;
  textures: number;
  materials: number;
}

async function gpuCounts(canvas: Locator): Promise<GpuCounts> {
  const d = await canvas.evaluate((el) => ({ ...(el as HTMLElement).dataset }));
  return { geometries: Number(d.glGeometries), textures: Number(d.glTextures), materials: Number(d.glMaterials) };
}

async function framesDrawn(canvas: Locator): Promise<number> {
  return Number(await canvas.getAttribute('data-gl-frames'));
}

async function closeMotion(page: Page): Promise<void> {
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-close').click();
  await expect(page.getByTestId('viewport-empty')).toBeVisible();
}

test('20 opens and closes of a motion leave the viewport holding what it held before', async ({ page, pageErrors }) => {
  test.setTimeout(420_000);
  await waitForDocument(page);
  const canvas = page.getByTestId('viewport-canvas');
  await expect.poll(() => gpuCounts(canvas).then((c) => c.geometries)).toBeGreaterThan(0);
  const open = await gpuCounts(canvas);
  await closeMotion(page);
  // With no motion the scene keeps only its markers: every skeleton, path and grid of the motion went.
  await expect.poll(() => gpuCounts(canvas).then((c) => c.materials)).toBeLessThan(open.materials);
  const closed = await gpuCounts(canvas);
  expect(closed.geometries).toBeLessThan(open.geometries);

  for (let i = 0; i < 20; i++) {
    // Every fifth cycle replaces the motion by another and back before closing (a replaced motion frees its own).
    await openThroughPicker(page, 'walk.mtn');
    await waitForDocument(page);
    if (i % 5 === 4) {
      await openThroughPicker(page, 'cmu_01_01.mtn');
      await waitForCapture(page);
      await openThroughPicker(page, 'walk.mtn');
      await waitForDocument(page);
    }
    await waitForCompression(page);
    await expect.poll(() => gpuCounts(canvas)).toEqual(open);
    await closeMotion(page);
    await expect.poll(() => gpuCounts(canvas)).toEqual(closed);
  }
  expect(pageErrors).toEqual([]);
});

test('a collapsed viewport draws no frames while the motion plays, and draws again when it opens', async ({
  page,
  pageErrors,
}) => {
  await waitForDocument(page);
  const canvas = page.getByTestId('viewport-canvas');
  await page.getByTestId('play-toggle').click();
  // Playing, the viewport draws the frames the playhead moves through.
  const playing = await framesDrawn(canvas);
  await expect.poll(() => framesDrawn(canvas)).toBeGreaterThan(playing + 5);

  await page.getByTestId('panel-toggle-viewport').click();
  await expect(page.getByTestId('area-viewport')).toHaveAttribute('data-state', 'collapsed');
  await animationFrames(page, 2);
  const hidden = await framesDrawn(canvas);
  const frame = await page.getByTestId('status-frame').textContent();
  await animationFrames(page, 30);
  // The motion went on playing (the status bar's frame moved) and the hidden viewport drew none of it.
  await expect(page.getByTestId('status-frame')).not.toHaveText(frame!);
  expect(await framesDrawn(canvas)).toBe(hidden);

  await page.getByTestId('panel-toggle-viewport').click();
  await expect.poll(() => framesDrawn(canvas)).toBeGreaterThan(hidden);
  expect(pageErrors).toEqual([]);
});
