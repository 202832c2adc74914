/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * sixteenth round).
 * A right-click on the curve view and on the timeline did nothing: a Maya or MotionBuilder user looks there first for
 * "key here", "lock here". It now goes to the frame under the pointer (a timeline row's joint selected, as a click
 * does) and opens the tuning edits there, each with its key and one undo step named as from the Edit menu, then the
 * panel's view commands; a right-drag still pans, the Menu key opens it over the pointer, Escape hands the keyboard
 * back to the panel.
 * Mutations that fail: TuningContextMenu not mounted in App; the curve painter's right-click branch in onPointerUp
 * removed; its movement test dropped (a right-drag opens the menu); the timeline painter's right-click branch removed;
 * its openMenu not selecting the row's joint, or a lock bar's; the "Unlock whole lock" item left out; the Menu key branch removed;
 * ContextMenu's Escape handler removed, or closing without giving the keyboard back; a right-click on a user key not
 * selecting it.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { canvasData, dragLockRow, frameX, freeRun, selectJoint, undoLabel, waitForDocumentAt1280 } from './ui';
import { markerFrames, openSampleProjectAt1280, trackX } from './sev-ui';

const focused = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

/** A right-click on the curve plot at `frame`. */
async function rightClickCurves(page: Page, frame: number): Promise<void> {
  const canvas = page.getByTestId('curve-canvas');
  const d = await canvasData(canvas);
  const y = (Number(d.plotTop) + Number(d.plotBottom)) / 2;
  await canvas.click({ button: 'right', position: { x: await frameX(canvas, frame), y } });
}

/** A right-click on the timeline at `frame`, on the row of `joint` or at content y `y`. */
async function rightClickTimeline(canvas: Locator, frame: number, y: number): Promise<void> {
  await canvas.click({ button: 'right', position: { x: await frameX(canvas, frame), y } });
}

test('a right-click on the curves opens the edits at that frame: one undo step each, a right-drag still pans', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const f = freeRun(readFileSync(workspace.path('walk.mtn')), 5) + 2;
  await selectJoint(page, 'LeftFoot');
  const canvas = page.getByTestId('curve-canvas');
  const menu = page.getByTestId('tuning-context-menu');
  await rightClickCurves(page, f);
  await expect(menu).toBeVisible();
  // The playhead went to the frame right-clicked: the commands act there, as their keys do at the playhead.
  await expect(page.getByTestId('frame-number')).toHaveValue(String(f));
  await expect(menu.getByRole('menuitem').or(menu.getByRole('menuitemcheckbox'))).toHaveText([
    `Add User Key at Frame ${f}K`,
    'Delete Selected User KeysDelete',
    `Lock LeftFoot at Frame ${f}L`,
    `Add Trace Key at Frame ${f}T`,
    'Frame AllHome',
    'Frame Selected KeysF',
    'Normalize CurvesN',
  ]);
  await expect(page.getByTestId('tuning-context-delete-keys')).toBeDisabled();
  await expect(page.getByTestId('tuning-context-key')).toBeFocused();
  await saveScreenshot('round16-curve-context-menu-1280x800');
  // Enter adds the key: one undo step, named as K names it.
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await expect.poll(async () => (await canvasData(canvas)).userKeyFrames.split(',')).toContain(String(f));
  await expect.poll(() => undoLabel(page)).toMatch(new RegExp(`^Undo Add user key \\(LeftFoot, frame ${f}\\)`));

  // Again on that key: it is there to remove, and selected, so Delete in the menu takes it; ↓ ↓ goes to Lock.
  await rightClickCurves(page, f);
  await expect(page.getByTestId('tuning-context-key')).toHaveText(`Remove User Key at Frame ${f}K`);
  await expect(canvas).toHaveAttribute('data-selected-keys', String(f));
  await expect(page.getByTestId('tuning-context-delete-keys')).toHaveText('Delete 1 Selected User KeyDelete');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('tuning-context-delete-keys')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('tuning-context-lock')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('lock-item').filter({ hasText: `LeftFoot frame ${f}` })).toHaveCount(1);
  await expect.poll(() => undoLabel(page)).toMatch(new RegExp(`^Undo Lock LeftFoot, frame ${f}`));

  // Escape closes the menu and gives the keyboard back to the curves, where the tuning keys act.
  await rightClickCurves(page, f);
  await expect(page.getByTestId('tuning-context-lock')).toHaveText(`Unlock LeftFoot at Frame ${f}L`);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('curve-canvas');

  // A right-drag pans time, as before, and opens no menu.
  const before = (await canvasData(canvas)).viewStart;
  await page.mouse.wheel(0, -400);
  const box = (await canvas.boundingBox())!;
  const d = await canvasData(canvas);
  const y = box.y + (Number(d.plotTop) + Number(d.plotBottom)) / 2;
  const x = box.x + (await frameX(canvas, f));
  await page.mouse.move(x, y);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(x + 60, y, { steps: 4 });
  await page.mouse.up({ button: 'right' });
  await expect(menu).toHaveCount(0);
  await expect.poll(async () => (await canvasData(canvas)).viewStart).not.toBe(before);

  // The Menu key over the curves opens it at the pointer.
  await page.mouse.move(x, y);
  await page.keyboard.press('ContextMenu');
  await expect(menu).toBeVisible();
  // Home and End move in the menu (over the curves, Home would frame them instead).
  await expect(page.getByTestId('tuning-context-key')).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByTestId('tuning-context-normalize')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('tuning-context-key')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('a right-click on a timeline row selects its joint and opens the edits there; on a lock, Unlock the whole lock', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  if (!electronApp) await page.setViewportSize({ width: 1920, height: 1080 });
  const f = freeRun(readFileSync(workspace.path('walk.mtn')), 5) + 1;
  const canvas = page.getByTestId('timeline-canvas');
  const menu = page.getByTestId('tuning-context-menu');
  // The second joint row shown (the first is the root translation).
  const d = await canvasData(canvas);
  await rightClickTimeline(canvas, f, Number(d.jointsTop) + Number(d.rowHeight) * 1.5);
  await expect(menu).toBeVisible();
  const name = (await page.getByTestId('timeline-selected').textContent()) ?? '';
  expect(['', 'Root translation']).not.toContain(name);
  await expect(page.getByTestId('frame-number')).toHaveValue(String(f));
  await expect(menu.getByRole('menuitem').or(menu.getByRole('menuitemcheckbox'))).toHaveText([
    `Add User Key at Frame ${f}K`,
    'Delete Selected User KeysDelete',
    `Lock ${name} at Frame ${f}L`,
    `Add Trace Key at Frame ${f}T`,
    'Show All FramesA',
    'Group Rows by Chain',
  ]);
  await saveScreenshot('round16-timeline-context-menu-1920x1080');
  await page.getByTestId('tuning-context-trace').click();
  await expect(page.getByTestId('trace-item').filter({ hasText: new RegExp(`^${f}`) })).toHaveCount(1);
  await expect.poll(() => undoLabel(page)).toMatch(new RegExp(`^Undo Add trace key \\(frame ${f}\\)`));

  // On the joint's lock in the lock row: Unlock the whole lock, one undo step.
  await dragLockRow(page, f, f + 3);
  await expect(page.getByTestId('lock-item').filter({ hasText: `${name} frames ${f}–${f + 3}` })).toHaveCount(1);
  await rightClickTimeline(canvas, f + 2, Number((await canvasData(canvas)).lockRowY));
  await expect(page.getByTestId('tuning-context-lock')).toHaveText(`Unlock ${name} at Frame ${f + 2}L`);
  await page.getByTestId('tuning-context-unlock-range').click();
  await expect(page.getByTestId('lock-item').filter({ hasText: `${name}` })).toHaveCount(0);
  await expect.poll(() => undoLabel(page)).toMatch(new RegExp(`^Undo Unlock ${name}, frames ${f}–${f + 3}`));

  // On another joint's lock: that joint is selected, and the menu unlocks its lock (not "Lock Hips", refused there).
  const [, other, a, b] = /^(\w+) frames (\d+)–(\d+)/
    .exec((await page.getByTestId('lock-item').first().textContent()) ?? '')!
    .map(String);
  expect(other).not.toBe(name);
  await rightClickTimeline(
    canvas,
    Math.round((Number(a) + Number(b)) / 2),
    Number((await canvasData(canvas)).lockRowY),
  );
  await expect(page.getByTestId('timeline-selected')).toHaveText(other);
  await expect(page.getByTestId('tuning-context-unlock-range')).toHaveText(`Unlock ${other}, frames ${a}–${b}`);
  await page.keyboard.press('Escape');

  // The root translation's row: it cannot be locked, and the greyed item says why.
  await rightClickTimeline(canvas, f, Number(d.jointsTop) + Number(d.rowHeight) * 0.5);
  await expect(page.getByTestId('timeline-selected')).toHaveText('Root translation');
  await expect(page.getByTestId('tuning-context-lock')).toBeDisabled();
  await expect(page.getByTestId('tuning-context-lock')).toHaveAttribute('title', /root translation cannot be locked/);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('timeline-canvas');

  // Near the window's bottom right corner the menu opens inside it.
  const box = (await canvas.boundingBox())!;
  const rowsBox = (await page.locator('.timeline-scroll').boundingBox())!;
  const view = page.viewportSize()!;
  await page.mouse.click(box.x + box.width - 6, rowsBox.y + rowsBox.height - Number(d.rowHeight), { button: 'right' });
  await expect(menu).toBeVisible();
  const m = (await menu.boundingBox())!;
  expect(m.y + m.height).toBeLessThanOrEqual(view.height);
  expect(m.x + m.width).toBeLessThanOrEqual(view.width);
  await page.keyboard.press('Escape');
  expect(pageErrors).toEqual([]);
});

/**
 * A right-click on the event row away from the events did nothing (round 15's menu opens on an event only): a sound
 * designer watching the motion right-clicks where a footstep should go. It now stops playback, goes to that frame and
 * offers Add Event, Paste Events (at that frame) and Select All, each one undo step; Escape hands the keyboard back to
 * the event row. Mutations that fail: EventTrack's onContextMenu removed (the playhead stays, the event lands
 * elsewhere); EventContextMenu ignoring the row (no menu); the spot items not naming the frame.
 */
test('a right-click on the event row away from the events adds one there, as one undo step', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  const frames = await markerFrames(page);
  const sorted = [...frames].sort((a, b) => a - b);
  // The middle of the widest gap between two events.
  let f = 0;
  for (let i = 1, gap = 0; i < sorted.length; i++)
    if (sorted[i] - sorted[i - 1] > gap)
      [gap, f] = [sorted[i] - sorted[i - 1], Math.round((sorted[i] + sorted[i - 1]) / 2)];
  const track = page.getByTestId('sev-track');
  const box = (await track.boundingBox())!;
  const menu = page.getByTestId('sev-context-menu');
  await page.mouse.click(await trackX(page, f), box.y + box.height - 6, { button: 'right' });
  await expect(menu).toBeVisible();
  await expect(page.getByTestId('frame-number')).toHaveValue(String(f));
  await expect(menu.getByRole('menuitem')).toHaveText([
    new RegExp(`^Add SE_\\w+ at Frame ${f}M$`),
    `Paste Events at Frame ${f}Ctrl+V`,
    /^Select All EventsCtrl\+A$/,
  ]);
  await expect(page.getByTestId('sev-context-paste')).toBeDisabled();
  await saveScreenshot('round16-event-row-context-menu-1280x800');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(track).toBeFocused();

  await page.mouse.click(await trackX(page, f), box.y + box.height - 6, { button: 'right' });
  await page.getByTestId('sev-context-addAtPlayhead').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(frames.length + 1);
  expect(await markerFrames(page)).toContain(f);
  await expect.poll(() => undoLabel(page)).toMatch(new RegExp(`^Undo Add SE_\\w+ at frame ${f}`));
  expect(pageErrors).toEqual([]);
});
