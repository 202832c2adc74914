/**
 * Renderer review, round 7 (docs/architecture.md): Space on a control the keyboard is on presses that control, a
 * deleted SE hands the keyboard to the ✕ now at its place in the SE table, and controls named by a symbol, a number
 * or a column's word alone (or not reaching the accessibility tree at all) say what they act on.
 * Mutations that fail: shortcuts.ts without its `takesSpaceItself` check (Space plays, the trace key stays);
 * `takesSpaceItself` without `:focus-visible` (the clicked button's Space does not play); SeTable's ✕ without
 * `willRemove` (the focus on the page); its `forget` on Cancel removed (an undo moves the focus); each name taken
 * back (the viewport's role, the event row's pickers, its floor toggle and pick button, the trace keys' buttons).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { waitForDocument } from './ui';

/** The focused element: its data-testid (or tag) and accessible label. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return `${a?.dataset.testid ?? a?.tagName ?? ''} ${a?.getAttribute('aria-label') ?? ''}`.trim();
  });

test('Space on a button or box the keyboard is on presses it; on a clicked button it plays', async ({
  page,
  pageErrors,
  electronApp,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const play = page.getByTestId('play-toggle');
  const traces = page.getByTestId('trace-item');
  await expect(traces).toHaveCount(2);
  // A keyboard user on the first trace key's ✕ presses Space: the key goes, nothing plays, the keyboard stays in
  // the list (round 6) and Space again takes the next one.
  await traces.first().getByRole('button', { name: 'Remove trace key at 44' }).focus();
  await page.keyboard.press('Space');
  await expect(traces).toHaveCount(1);
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  expect(await focused(page)).toBe('BUTTON Remove trace key at 88');
  await page.keyboard.press('Space');
  await expect(traces).toHaveCount(0);
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  // A box: Space ticks Loop and plays nothing.
  const loop = page.getByRole('checkbox', { name: 'Loop' });
  await expect(loop).toBeChecked();
  await loop.focus();
  await page.keyboard.press('Space');
  await expect(loop).not.toBeChecked();
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  // A button clicked with the pointer keeps no ring: Space plays (and lets go of the button), as before.
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await page.keyboard.press('Space');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Space');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  await expect(traces).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test("an SE's ✕ hands the keyboard to the ✕ now at its place in the SE table", async ({
  page,
  pageErrors,
  electronApp,
  saveScreenshot,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  const rows = page.getByTestId('sev-se-row');
  await expect(rows).toHaveCount(3);
  // Two SEs no event uses (3 and 4): deleted without a question.
  await page.getByTestId('sev-add-se-def').click();
  await page.getByTestId('sev-add-se-def').click();
  await expect(rows).toHaveCount(5);
  const indices = () => rows.evaluateAll((rs) => rs.map((r) => Number((r as HTMLElement).dataset.index)));
  await page.getByRole('button', { name: 'Delete SE 3', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(indices).toEqual([0, 1, 2, 4]);
  expect(await focused(page)).toBe('sev-se-delete Delete SE 4');
  // The last row's ✕: the keyboard goes to the one before it.
  await page.keyboard.press('Enter');
  await expect.poll(indices).toEqual([0, 1, 2]);
  expect(await focused(page)).toBe('sev-se-delete Delete SE 2');
  // An SE with events asks first. Cancel keeps the SE; a later change of the table (an undo brings SE 4 back)
  // moves no focus, not even one left on the page.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await page.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  await expect.poll(indices).toEqual([0, 1, 2]);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Control+z');
  await expect.poll(indices).toEqual([0, 1, 2, 4]);
  expect(await focused(page)).toBe('BODY');
  await page.keyboard.press('Control+y');
  await expect.poll(indices).toEqual([0, 1, 2]);
  expect(await focused(page)).toBe('BODY');
  await page.getByRole('button', { name: 'Delete SE 1', exact: true }).focus();
  // Answered Delete: SE 1 and its events go, and the keyboard is on SE 2's ✕, now at that place.
  await page.keyboard.press('Enter');
  await page.getByTestId('confirm-delete').click();
  await expect.poll(indices).toEqual([0, 2]);
  expect(await focused(page)).toBe('sev-se-delete Delete SE 2');
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    await expect(page.getByTestId('sev-se-table')).toBeVisible();
    await saveScreenshot(`round7-se-focus-${width}x${height}`);
  }
  expect(pageErrors).toEqual([]);
});

test('the viewport, the event rows and the trace keys name what they act on', async ({
  page,
  pageErrors,
  electronApp,
  saveScreenshot,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1920, height: 1080 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  const named = (role: 'img' | 'button', name: string) => page.getByRole(role, { name, exact: true });
  await expect(named('img', '3D viewport: source and decoded skeletons')).toBeVisible();
  await expect(named('button', 'SE of event 1 (SE 0)')).toBeVisible();
  await expect(named('button', 'Joint of event 1 (SE 0)')).toBeVisible();
  await expect(named('button', 'Pick the joint of event 1 (SE 0)')).toBeVisible();
  const floors = named('button', '8 floor variants of event 1 (SE 0)');
  await expect(floors).toHaveAttribute('aria-expanded', 'false');
  await floors.click();
  await expect(floors).toHaveAttribute('aria-expanded', 'true');
  await expect(named('button', 'Go to the trace key at frame 44')).toBeVisible();
  await expect(named('button', 'Go to the trace key at frame 0 (the first frame)')).toBeVisible();
  await expect(named('button', 'Go to the trace key at frame 132 (the last frame)')).toBeVisible();
  await saveScreenshot('round7-names-1920x1080');
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await expect(named('button', 'Pick the joint of event 1 (SE 0)')).toBeAttached();
  await saveScreenshot('round7-names-1280x800');
  expect(pageErrors).toEqual([]);
});
