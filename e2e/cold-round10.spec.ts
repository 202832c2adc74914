/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold", tenth
 * round): an event's "Added …" message covered the figure in the 360 px viewport of the side-by-side layout; the
 * project panel's "Build archives…" did not say what it builds, where File says "Build Archives (.mar, .sar)…"; the
 * playback bar, side by side, wrapped its frame count and "30 fps" away from the frame field; at 1920x1080 the 3D view
 * was a 230 px strip over the curves.
 * Mutations that fail: the add's message with its old why-of-the-joint tail; BUILD_LABEL back to "Build archives…";
 * the playback bar's two groups (playback-transport, playback-status) flattened into one wrapping row; arrangementOf
 * never answering 'beside'. The event row keeping the timeline's span beside the viewport fails
 * e2e/cold-walk.spec.ts ("the event row names its events whole" at 1920x1080: all ten names cut).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProjectAt1280 } from './sev-ui';
import { goToFrame, waitForDocument } from './ui';

const box = async (l: Locator) => (await l.boundingBox())!;

/** The rows (distinct tops, rounded) the playback bar's items lie on, and the row of each named item. */
async function playbackRows(page: Page) {
  const bar = page.getByRole('toolbar', { name: 'Playback' });
  const tops = await bar.evaluate((el) =>
    Array.from(el.querySelectorAll('button, input, select, span, label')).map((e) => {
      const r = e.getBoundingClientRect();
      return Math.round(r.top + r.height / 2);
    }),
  );
  // Items whose centres lie within 8 px share a row.
  const rows: number[] = [];
  for (const t of tops.sort((a, b) => a - b)) if (!rows.some((r) => Math.abs(r - t) <= 8)) rows.push(t);
  const rowOf = async (l: Locator) => {
    const b = await box(l);
    const c = b.y + b.height / 2;
    return rows.findIndex((r) => Math.abs(r - c) <= 8);
  };
  return { count: rows.length, rowOf };
}

test('an added event says so in one line over the side-by-side viewport at 1280x800, not four over the figure', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.locator('.app')).toHaveAttribute('data-arrangement', 'side-by-side');
  await goToFrame(page, 33);
  await page.getByTestId('sev-add-event').click();
  const added = page
    .getByTestId('message-list')
    .locator('.message')
    .filter({ hasText: /^Added / });
  await expect(added.locator('.message-text')).toHaveText('Added SE_FOOT_L at frame 33 on joint 17 LeftFoot.');
  // One line of text (the message is 22 px at least): the four-line one took 70 px of the 3D view's top.
  const host = await box(page.getByTestId('viewport-host'));
  const message = await box(added);
  expect(message.height).toBeLessThan(30);
  expect(message.y + message.height - host.y).toBeLessThan(0.12 * host.height);
  // The new row, selected, shows the joint the message names.
  const row = page.locator('[data-testid="sev-event-row"][data-frame="33"]');
  await expect(row).toHaveClass(/selected/);
  await expect(row.getByTestId('sev-event-joint')).toContainText('17 LeftFoot');
  await saveScreenshot('round10-added-1280x800');
  expect(pageErrors).toEqual([]);
});

test("the project panel's build button names the .mar and .sar it builds, as the File menu does", async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  const build = page.getByTestId('project-build');
  await expect(build).toHaveText(/^Build archives \(\.mar, \.sar\)…/);
  // Whole in the panel, not cut.
  expect(await build.evaluate((b) => b.scrollWidth <= b.clientWidth + 1)).toBe(true);
  await page.getByTestId('menu-file').click();
  await expect(page.getByTestId('menu-build')).toContainText('Build Archives (.mar, .sar)…');
  await page.getByTestId('menu-file').click();
  expect(pageErrors).toEqual([]);
});

test('the playback bar keeps the frame, its count, loop, speed and fps on one line: under the scrub bar side by side, beside it at 1920', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.locator('.app')).toHaveAttribute('data-arrangement', 'side-by-side');
  const bar = page.getByRole('toolbar', { name: 'Playback' });
  const narrow = await playbackRows(page);
  expect(narrow.count).toBe(2);
  const frameRow = await narrow.rowOf(page.getByTestId('frame-number'));
  expect(await narrow.rowOf(page.getByTestId('playback-fps'))).toBe(frameRow);
  expect(await narrow.rowOf(page.getByTestId('speed'))).toBe(frameRow);
  expect(await narrow.rowOf(page.getByTestId('loop'))).toBe(frameRow);
  expect(await narrow.rowOf(page.getByTestId('play-toggle'))).toBe(0);
  expect(await narrow.rowOf(page.getByTestId('scrub'))).toBe(0);
  // The scrub bar keeps a usable length beside the buttons.
  expect((await box(page.getByTestId('scrub'))).width).toBeGreaterThan(150);
  await bar.screenshot({ path: test.info().outputPath('bar-1280.png') });
  await saveScreenshot('round10-playback-1280x800');

  await page.setViewportSize({ width: 1920, height: 1080 });
  await expect.poll(async () => (await playbackRows(page)).count).toBe(1);
  expect(pageErrors).toEqual([]);
});

test('at 1920x1080 the viewport stands in its own column beside the curves and timeline, the SEV editor whole under them', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await waitForDocument(page);
  await expect(page.locator('.app')).toHaveAttribute('data-arrangement', 'beside');
  // Stacked it was a 1470x230 strip over the curves.
  const view = await box(page.getByTestId('viewport-host'));
  expect(view.height).toBeGreaterThan(600);
  expect(view.width).toBeGreaterThan(500);
  // Beside the curves and the timeline, over the SEV editor, which keeps the width it has stacked (the window less
  // the project column) and every floor variant of the selected SE whole.
  const viewport = await box(page.getByTestId('area-viewport'));
  const curves = await box(page.getByTestId('area-curves'));
  const timeline = await box(page.getByTestId('area-timeline'));
  const sev = await box(page.getByTestId('area-sev'));
  const project = await box(page.getByTestId('area-project'));
  expect(curves.x).toBeGreaterThan(viewport.x + viewport.width);
  expect(Math.abs(viewport.y - curves.y)).toBeLessThanOrEqual(1);
  expect(Math.abs(viewport.y + viewport.height - (timeline.y + timeline.height))).toBeLessThanOrEqual(1);
  expect(sev.y).toBeGreaterThanOrEqual(viewport.y + viewport.height);
  expect(Math.abs(sev.x - viewport.x)).toBeLessThanOrEqual(1);
  expect(sev.width).toBeGreaterThan(1920 - project.width - 10);
  await expect(page.getByTestId('sev-variant')).toHaveCount(8);
  for (const v of await page.getByTestId('sev-variant').all()) await expect(v).toBeInViewport({ ratio: 1 });
  await saveScreenshot('round10-beside-1920x1080');

  // Its splitter widens it, the curves give way; the width is kept over a reload.
  const splitter = page.getByRole('separator', { name: 'Resize viewport' });
  const grip = (await splitter.boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2 + 40, grip.y + grip.height / 2, { steps: 3 });
  await page.mouse.move(grip.x + grip.width / 2 + 80, grip.y + grip.height / 2, { steps: 3 });
  await page.mouse.up();
  await expect
    .poll(async () => (await box(page.getByTestId('area-viewport'))).width - viewport.width)
    .toBeGreaterThan(70);
  const widened = (await box(page.getByTestId('area-viewport'))).width;
  await page.reload();
  await waitForDocument(page);
  await expect.poll(async () => (await box(page.getByTestId('area-viewport'))).width).toBeCloseTo(widened, 0);

  // A window tall enough for the viewport's share over the other rows stays stacked.
  await page.setViewportSize({ width: 1920, height: 1320 });
  await expect(page.locator('.app')).toHaveAttribute('data-arrangement', 'stacked');
  expect(pageErrors).toEqual([]);
});
