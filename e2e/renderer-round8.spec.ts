/**
 * Renderer review, round 8 (docs/architecture.md): the event rows' frame fields are named apart, and the project's
 * motions are a listbox of named options, one Tab stop, the open motion selected; the viewport draws at a change of
 * the preferences it shows alone.
 * Mutations that fail: EventList's frame field without its `label` (every field named "Frame"); ProjectPanel's
 * list without its roles (no listbox, no options); its rows without `aria-selected`; every row a Tab stop again
 * (Tab goes to the next row); Home and End not handled; scene.ts drawing at any preference's change again (a frame
 * drawn at the timeline's grouping); a preference left out of VIEWPORT_PREFERENCES (its box draws nothing).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProjectAt1280 } from './sev-ui';
import { animationFrames, waitForCompression, waitForDocument } from './ui';

/** The focused element: its data-testid (or tag) and its data-name. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return `${a?.dataset.testid ?? a?.tagName ?? ''} ${a?.dataset.name ?? ''}`.trim();
  });

test("each event row's frame field is named by its event and SE", async ({
  page,
  pageErrors,
  electronApp,
  saveScreenshot,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  const fields = page.getByTestId('sev-event-frame');
  await expect(fields).toHaveCount(10);
  // walk.sev: event 0 at frame 0 plays SE 2, event 1 at frame 5 SE 0, event 2 at frame 21 SE 1.
  const named = (name: string) => page.getByRole('textbox', { name, exact: true });
  await expect(named('Frame of event 0 (SE 2)')).toHaveValue('0');
  await expect(named('Frame of event 1 (SE 0)')).toHaveValue('5');
  await expect(named('Frame of event 2 (SE 1)')).toHaveValue('21');
  await expect(named('Frame of event 9 (SE 1)')).toHaveValue('120');
  // No two rows alike, and none left named by the column's word alone.
  await expect(page.getByRole('textbox', { name: 'Frame', exact: true })).toHaveCount(0);
  // The tooltip, the name before, stays.
  await expect(fields.first()).toHaveAttribute('title', 'Frame');
  // A frame typed moves the row to its place: its field keeps the event's name, with the new value.
  await named('Frame of event 1 (SE 0)').fill('30');
  await named('Frame of event 1 (SE 0)').press('Enter');
  await expect(named('Frame of event 1 (SE 0)')).toHaveValue('30');
  await expect(page.getByTestId('sev-event-row').nth(2)).toHaveAttribute('data-frame', '30');
  await named('Frame of event 1 (SE 0)').focus();
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    if (!electronApp) await page.setViewportSize({ width, height });
    await expect(named('Frame of event 1 (SE 0)')).toBeVisible();
    await saveScreenshot(`round8-event-frame-${width}x${height}`);
  }
  expect(pageErrors).toEqual([]);
});

test("the project's motions are a listbox: one Tab stop, named options, the open motion selected", async ({
  page,
  workspace,
  pageErrors,
  electronApp,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  const list = page.getByRole('listbox', { name: 'Motions of the project, in archive order', exact: true });
  await expect(list).toBeVisible();
  const options = list.getByRole('option');
  await expect(options).toHaveCount(4);
  const option = (name: string) => list.getByRole('option', { name, exact: true });
  // Named by the motion, described by its .sev and its figures; the open one selected.
  await expect(option('walk')).toHaveAttribute('aria-selected', 'true');
  await expect(option('walk')).toHaveAccessibleDescription(/^walk\.sev /);
  await expect(option('walk_rough')).toHaveAccessibleDescription(/^no \.sev /);
  for (const name of ['cmu_01_01', 'walk_rough', 'walk_60'])
    await expect(option(name)).toHaveAttribute('aria-selected', 'false');
  // One Tab stop: Tab from the selected row leaves the list, Shift+Tab comes back to it.
  await option('walk').focus();
  await page.keyboard.press('Tab');
  expect(await focused(page)).not.toMatch(/^project-motion /);
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toBe('project-motion walk');
  // ↓ and End, Home: row to row; Enter opens the row's motion, which is then the selected one and the Tab stop.
  await page.keyboard.press('ArrowDown');
  expect(await focused(page)).toBe('project-motion cmu_01_01');
  await page.keyboard.press('End');
  expect(await focused(page)).toBe('project-motion walk_60');
  await page.keyboard.press('Home');
  expect(await focused(page)).toBe('project-motion walk');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(option('cmu_01_01')).toHaveAttribute('aria-selected', 'true');
  await expect(option('walk')).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByTestId('sev-file')).toContainText('cmu_01_01.sev');
  await option('cmu_01_01').focus();
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    if (!electronApp) await page.setViewportSize({ width, height });
    await expect(option('cmu_01_01')).toBeVisible();
    await saveScreenshot(`round8-project-list-${width}x${height}`);
  }
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toBe('project-motion cmu_01_01');
  expect(pageErrors).toEqual([]);
});

test("the viewport draws at a change of its own preferences, not at the timeline's or the tuning panel's", async ({
  page,
  pageErrors,
  electronApp,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await waitForCompression(page);
  const canvas = page.getByTestId('viewport-canvas');
  const framesDrawn = async () => Number(await canvas.getAttribute('data-gl-frames'));
  await animationFrames(page, 2);
  const still = await framesDrawn();
  // Preferences the viewport does not show: the timeline's grouping, a fold of the tuning panel.
  await page.getByTestId('timeline-group').click();
  await expect(page.getByTestId('timeline-group')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('tuning-fold-locks').click();
  await page.getByTestId('timeline-group').click();
  await animationFrames(page, 10);
  expect(await framesDrawn()).toBe(still);
  // Each of its own draws a frame.
  for (const name of ['Trajectory', 'Trace path', 'Ghost', 'Onion skin', 'Follow']) {
    const before = await framesDrawn();
    await page.getByRole('checkbox', { name, exact: true }).click();
    await expect.poll(framesDrawn).toBeGreaterThan(before);
  }
  expect(pageErrors).toEqual([]);
});
