/**
 * Papercuts found by trying the app cold at 1280x800 and 1920x1080: where the keyboard goes after a
 * destructive button, SE names cut short in the event track and the SE table, and names from inside
 * imported files shown with their invisible characters escaped.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { markerFrames } from './sev-ui';
import { waitForDocument } from './ui';

const WALK_FRAMES = [0, 5, 21, 38, 54, 66, 71, 87, 104, 120];

async function undoLabel(page: Page): Promise<string> {
  await page.getByTestId('menu-edit').click();
  const label = (await page.getByTestId('menu-undo').textContent()) ?? '';
  await page.getByTestId('menu-edit').click();
  return label.replace(/Ctrl\+Z$/, '').trim();
}

/** data-testid (or tag) of the focused element, and whether it is a button. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { testid: a?.dataset.testid ?? a?.tagName ?? '', button: a?.tagName === 'BUTTON', cls: a?.className ?? '' };
  });

test("an event row's ✕ deletes one event, and the keyboard does not land on the next row's ✕", async ({
  page,
  pageErrors,
  electronApp,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await expect.poll(() => markerFrames(page)).toEqual(WALK_FRAMES);

  // A keyboard user tabs to the first row's ✕ and presses Enter.
  const first = page.getByTestId('sev-event-delete').first();
  await first.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => markerFrames(page)).toEqual(WALK_FRAMES.slice(1));
  const after = await focused(page);
  expect(after.button, `focus went to ${after.testid}`).toBe(false);
  expect(after.cls).toContain('sev-events-scope');

  // Pressing Enter or Space again deletes nothing more.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  await expect.poll(() => markerFrames(page)).toEqual(WALK_FRAMES.slice(1));

  // The deletion is one named undo step that brings the event back.
  expect(await undoLabel(page)).toMatch(/^Undo Delete .* at frame 0$/);
  await page.keyboard.press('Control+z');
  await expect.poll(() => markerFrames(page)).toEqual(WALK_FRAMES);
  expect(pageErrors).toEqual([]);
});
