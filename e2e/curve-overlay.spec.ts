/**
 * The curve view shows several joints at once and solos an axis: Ctrl/Shift+click on timeline row labels
 * overlays those joints' curves (dashed, listed in a legend with a remove button), and a click on an axis label
 * in the curve gutter shows that component alone, a second click all again. The canvas publishes what it drew
 * (data-overlay-joints, data-drawn-components); the picture is compared too, so a published list without the
 * drawing fails.
 */
import { expect, test } from './fixtures';
import { canvasData, waitForDocument } from './ui';
import type { Page } from '@playwright/test';

const curves = (page: Page) => page.getByTestId('curve-canvas');
const picture = (page: Page) => curves(page).evaluate((c) => (c as HTMLCanvasElement).toDataURL());

async function clickTimelineLabel(page: Page, joint: number, modifiers: ('Control' | 'Shift')[] = []): Promise<void> {
  const canvas = page.getByTestId('timeline-canvas');
  const d = await canvasData(canvas);
  const y = Number(d.jointsTop) + (joint + 1) * Number(d.rowHeight) + Number(d.rowHeight) / 2;
  await canvas.click({ position: { x: 30, y }, modifiers });
}

async function clickAxisLabel(page: Page, label: string): Promise<void> {
  const d = await canvasData(curves(page));
  const entry = d.gutterLabels.split(',').find((e) => e.startsWith(`${label}:`));
  expect(entry, d.gutterLabels).toBeDefined();
  await curves(page).click({ position: { x: 24, y: Number(entry!.split(':')[1]) } });
}

test("Ctrl/Shift+click on timeline labels overlays other joints' curves, with a legend to remove them", async ({
  page,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  await expect(page.getByTestId('timeline-selected')).toHaveText('Hips');
  await expect(curves(page)).toHaveAttribute('data-overlay-joints', '');
  const alone = await picture(page);

  await clickTimelineLabel(page, 1, ['Control']);
  await expect(curves(page)).toHaveAttribute('data-overlay-joints', '1');
  await clickTimelineLabel(page, 2, ['Shift']);
  await expect(curves(page)).toHaveAttribute('data-overlay-joints', '1,2');
  // The selection stays: these are extra curves, not a new joint.
  await expect(page.getByTestId('timeline-selected')).toHaveText('Hips');
  const legend = page.getByTestId('curve-overlay-legend');
  await expect(legend.getByTestId('curve-overlay-item')).toHaveText([/Spine×?$/, /Spine1×?$/]);
  expect(await picture(page)).not.toBe(alone);
  await saveScreenshot('curve-overlay');

  // Ctrl+click again takes a joint out; the legend's × too.
  await clickTimelineLabel(page, 1, ['Control']);
  await expect(curves(page)).toHaveAttribute('data-overlay-joints', '2');
  await legend.getByRole('button', { name: 'Remove Spine1 from the overlay' }).click();
  await expect(curves(page)).toHaveAttribute('data-overlay-joints', '');
  await expect(legend).toHaveCount(0);
  await expect.poll(() => picture(page)).toBe(alone);

  // A plain click on a label still selects that joint.
  await clickTimelineLabel(page, 2);
  await expect(page.getByTestId('timeline-selected')).toHaveText('Spine1');
  expect(pageErrors).toEqual([]);
});

test('clicking an axis label solos it; clicking it again shows every axis', async ({
  page,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  await expect(curves(page)).toHaveAttribute('data-drawn-components', 'rX,rY,rZ');
  const all = await picture(page);
  await clickAxisLabel(page, 'rY');
  await expect(curves(page)).toHaveAttribute('data-drawn-components', 'rY');
  expect(await picture(page)).not.toBe(all);
  await saveScreenshot('curve-solo');
  // Another label moves the solo; the soloed one restores all.
  await clickAxisLabel(page, 'rZ');
  await expect(curves(page)).toHaveAttribute('data-drawn-components', 'rZ');
  await clickAxisLabel(page, 'rZ');
  await expect(curves(page)).toHaveAttribute('data-drawn-components', 'rX,rY,rZ');
  await expect.poll(() => picture(page)).toBe(all);
  // The solo belongs to a channel: quaternions show all four.
  await clickAxisLabel(page, 'rX');
  await page.getByTestId('channel-quat').click();
  await expect(curves(page)).toHaveAttribute('data-drawn-components', 'qX,qY,qZ,qW');
  expect(pageErrors).toEqual([]);
});
