/**
 * Window layout at two window sizes, tuner only and with a project open: the curve view keeps a usable height
 * (the project column and SEV editor used to squeeze it so its gutter labels overlapped and the error readout was
 * clipped), its gutter labels never overlap, and the viewport keeps room.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { waitForDocument } from './ui';

async function checkCurveView(page: Page, where: string, components = 3): Promise<void> {
  const canvas = page.getByTestId('curve-canvas');
  await expect(canvas).toHaveAttribute('data-gutter-labels', /frame:/);
  // Ruler, three value rows, key band and a 4-line error readout need about 150 px of canvas. Polled: the
  // panels settle a frame or two after the window or the open panels change.
  await expect.poll(() => canvas.evaluate((el) => el.clientHeight), { message: where }).toBeGreaterThanOrEqual(150);
  const { height, labels } = await canvas.evaluate((el) => ({
    height: el.clientHeight,
    labels: (el as HTMLElement).dataset.gutterLabels!,
  }));
  const placed = labels.split(',').map((l) => {
    const [name, y] = l.split(':');
    return { name, y: Number(y) };
  });
  const ys = placed.map((p) => p.y);
  for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1], `${where}: ${labels}`).toBeGreaterThanOrEqual(12);
  for (const y of ys) expect(y + 6, `${where}: ${labels}`).toBeLessThanOrEqual(height);
  const names = placed.map((p) => p.name);
  const other = new Set(['frame', 'hint', 'keys', 'header', 'value', 'headerValue', 'tol', 'max']);
  expect(
    names.filter((n) => !other.has(n)),
    `${where}: ${labels}`,
  ).toHaveLength(components);
  expect(names, where).toContain('tol');
  expect(
    names.some((n) => n === 'value' || n === 'headerValue'),
    `${where}: ${labels}`,
  ).toBe(true);
  // The viewport is not squeezed away either.
  await expect
    .poll(async () => (await page.getByTestId('viewport').boundingBox())?.height ?? 0, { message: where })
    .toBeGreaterThanOrEqual(150);
  // Nothing below the window's bottom edge: the status bar stays visible.
  const status = (await page.getByTestId('statusbar').boundingBox())!;
  expect(status.y + status.height, where).toBeLessThanOrEqual(page.viewportSize()!.height + 1);
  // ... and no panel runs into it.
  for (const id of ['sev-editor', 'timeline', 'curve-view']) {
    const box = await page.getByTestId(id).boundingBox();
    if (box) expect(box.y + box.height, `${where}: ${id}`).toBeLessThanOrEqual(status.y + 1);
  }
}

for (const size of [
  { width: 1600, height: 1000 },
  { width: 1280, height: 800 },
]) {
  test(`curve view and gutter labels fit at ${size.width}x${size.height}, tuner only and with a project`, async ({
    page,
    workspace,
    electronApp,
    pageErrors,
    saveScreenshot,
  }) => {
    test.skip(!!electronApp, 'window size is set through the page viewport in Chromium');
    await page.setViewportSize(size);
    await waitForDocument(page);
    await checkCurveView(page, 'tuner only');
    await saveScreenshot(`layout-tuner-${size.width}x${size.height}`);
    await openSampleProject(page, workspace, electronApp);
    await checkCurveView(page, 'with project');
    // quaternions have four value rows
    await page.getByTestId('channel-quat').click();
    await checkCurveView(page, 'with project, quaternion', 4);
    await page.getByTestId('channel-euler').click();
    await saveScreenshot(`layout-project-${size.width}x${size.height}`);
    expect(pageErrors).toEqual([]);
  });
}
