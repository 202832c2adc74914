/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * twenty-third round).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { canvasData, clickTraceRow, frameX, selectJoint, undoLabel, waitForDocumentAt1280 } from './ui';
import { openSampleProjectAt1280, trackX } from './sev-ui';

/** Clicks the timeline's row of `joint` (its frames, at `frame`): the joint is selected. */
async function clickJointRow(page: Page, joint: number, frame: number): Promise<void> {
  const canvas = page.getByTestId('timeline-canvas');
  const d = await canvasData(canvas);
  const row = d.rows.split(',').indexOf(String(joint));
  expect(row, `joint ${joint} has a row`).toBeGreaterThanOrEqual(0);
  const y = Number(d.jointsTop) + Number(d.rowHeight) * (row + 0.5);
  const left = Number(d.plotLeft);
  const right = Number(d.plotRight);
  const x = left + ((frame - Number(d.viewStart)) / (Number(d.viewEnd) - Number(d.viewStart))) * (right - left);
  await canvas.click({ position: { x, y } });
}

/**
 * Every panel shown, an event's frame typed in the event list and then a trace key clicked on the timeline: the
 * trace key's step was made on pointerdown and the frame's on the blur after it, so Ctrl+Z took back the frame
 * first. The press applies the field first now, in the timeline, the curves and the event row. Enter in the frame
 * field applies too (asked in round 22; it did). Mutations that fail: applyFocusedField not called in the
 * timeline's pointerdown (the first undo reads "Undo Move ..."); NumberField's Enter without its commit.
 */
test('an event frame typed then a trace key clicked undo in the reverse order; Enter applies a frame', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.getByTestId('menu-view').click();
  await page.getByTestId('menu-show-all-panels').click();
  const index = await page.getByTestId('sev-event-row').first().getAttribute('data-index');
  const frame = page.locator(`[data-testid="sev-event-row"][data-index="${index}"]`).getByTestId('sev-event-frame');
  const first = Number(await frame.inputValue());

  // Enter applies, one named step, and the keyboard goes to the event list (Alt+→ nudges there).
  await frame.fill(String(first + 2));
  await frame.press('Enter');
  await expect(frame).not.toBeFocused();
  await expect.poll(() => undoLabel(page)).toMatch(new RegExp(`^Undo Move .* from frame ${first} to ${first + 2}$`));

  await frame.fill(String(first + 4));
  await clickTraceRow(page, 40);
  expect(await undoLabel(page)).toBe('Undo Add trace key (frame 40)');
  await page.keyboard.press('Control+z');
  expect(await undoLabel(page)).toMatch(new RegExp(`^Undo Move .* from frame ${first + 2} to ${first + 4}$`));
  await expect(frame).toHaveValue(String(first + 4));
  expect(pageErrors).toEqual([]);
});

/**
 * Sound events mode: a note typed for the selected event, then a click on the event row away from the markers (to
 * move the playhead) deselected the event on pointerdown, the note field went with it, and the note was lost without
 * a word. Mutation that fails: applyFocusedField not called in the event row's pointerdown (no "Edit note" step, the
 * note empty when the event is selected again).
 */
test('a note typed then a click on the event row keeps the note', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+2');
  await page
    .getByTestId('sev-event-row')
    .first()
    .click({ position: { x: 4, y: 6 } });
  const note = page.getByTestId('sev-event-note');
  await note.fill('heel strike');
  const track = page.getByTestId('sev-track');
  const box = (await track.boundingBox())!;
  const markers = await page
    .getByTestId('sev-marker')
    .evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.frame)));
  // A frame clear of every marker.
  let f = 3;
  while (markers.some((m) => Math.abs(m - f) < 4)) f += 1;
  await page.mouse.click(await trackX(page, f), box.y + box.height - 6);
  await expect(note).toHaveCount(0);
  await expect.poll(() => undoLabel(page)).toMatch(/^Undo Edit note of /);
  await page
    .getByTestId('sev-event-row')
    .first()
    .click({ position: { x: 4, y: 6 } });
  await expect(page.getByTestId('sev-event-note')).toHaveValue('heel strike');
  expect(pageErrors).toEqual([]);
});

/**
 * A rotation override typed that is none ("abc"), then a click on another joint's timeline row: the override was
 * refused on the way out, and the field, now the other joint's, let the refusal go with its joint, so nothing said
 * "abc" was not applied. The refusal is in the message list too now; the click still selects the joint (as leaving
 * the field any other way does). Mutation that fails: TypedDecimalField without its notify (no warning message).
 */
test('an override refused on a click on another joint row is still said, and the click selects the joint', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  await selectJoint(page, 'LeftUpLeg');
  const override = page.getByTestId('override-input');
  await override.fill('abc');
  const before = await page.getByTestId('timeline-canvas').evaluate((c) => (c as HTMLElement).dataset.rows ?? '');
  const rows = before.split(',').filter((r) => /^\d+$/.test(r));
  await clickJointRow(page, Number(rows[1]), 30);
  await expect(page.getByTestId('timeline-selected')).not.toHaveText('LeftUpLeg');
  await expect(
    page.getByTestId('message-warning').filter({ hasText: 'The rotation override of LeftUpLeg must be' }),
  ).toContainText('"abc" was not applied');
  await expect(page.getByTestId('override-list')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

/**
 * A frame typed in the playback bar's frame field (no Enter), then a click on the curves' ruler: the ruler moved the
 * playhead on pointerdown, and the field, applied on the blur after it, moved it back to the frame typed, so the click
 * seemed to do nothing. The field applies first now, then the click goes to its frame. Mutation that fails:
 * applyFocusedField not called in the curves' pointerdown (the playhead stays at 12).
 */
test('a frame typed then a click on the curves ruler goes to the frame clicked', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const field = page.getByTestId('frame-number');
  await field.fill('12');
  const canvas = page.getByTestId('curve-canvas');
  await canvas.click({ position: { x: await frameX(canvas, 60), y: 8 } });
  await expect(field).toHaveValue('60');
  expect(pageErrors).toEqual([]);
});
