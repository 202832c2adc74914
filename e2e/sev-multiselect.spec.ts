/**
 * Sound designers' daily edits: select several events (click,
 * Ctrl+click, Shift+click in the list; Ctrl+click and a box on the event row),
 * copy and paste them at the playhead (also into another motion's .sev, joints
 * found by name, all or nothing), nudge them by a frame, delete them, drag
 * them together, each one named undo step; and a per-event preview of what
 * each floor variant plays.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { markerFrames, openSampleProject, trackX } from './sev-ui';
import { selectJoint, waitForDocument } from './ui';

const row = (page: Page, frame: number) => page.locator(`[data-testid="sev-event-row"][data-frame="${frame}"]`);
const marker = (page: Page, frame: number) => page.locator(`[data-testid="sev-marker"][data-frame="${frame}"]`);

/** Clicks an event row away from its fields (the SE name it plays), with modifiers. */
async function clickRow(page: Page, frame: number, modifiers: ('Control' | 'Shift')[] = []): Promise<void> {
  await row(page, frame)
    .getByTestId('sev-event-resolved')
    .click({ position: { x: 4, y: 6 }, modifiers });
}

/** Clicks the event row at a frame where no event is (moves the playhead; the keyboard goes to the row). */
async function clickTrack(page: Page, frame: number): Promise<void> {
  const box = (await page.getByTestId('sev-track').boundingBox())!;
  await page.mouse.click(await trackX(page, frame), box.y + 4);
  await expect(page.getByTestId('sev-playhead')).toHaveText(String(frame));
}

/** Shows a project motion in the tuner, and its .sev in the editor (its compression need not be done). */
async function showMotion(page: Page, name: string): Promise<void> {
  await page.locator(`[data-testid="project-motion"][data-name="${name}"]`).click();
  await expect(page.getByTestId('doc-name')).toHaveText(name, { timeout: 30_000 });
  await expect(page.getByTestId('sev-file')).toContainText(`${name}.sev`);
  await expect(page.getByTestId('sev-mismatch')).toHaveCount(0);
}

async function undoLabel(page: Page): Promise<string> {
  await page.getByTestId('menu-edit').click();
  const label = (await page.getByTestId('menu-undo').textContent()) ?? '';
  await page.getByTestId('menu-edit').click();
  return label.replace(/Ctrl\+Z$/, '').trim();
}

const selectedRows = (page: Page) =>
  page
    .locator('[data-testid="sev-event-row"][aria-selected="true"]')
    .evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.frame)));

test('select several events, copy, paste at the playhead, nudge, box-select, delete and drag them, one undo step each', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(electronApp !== null, 'window size is set through the page viewport in Chromium');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);

  // Click, Ctrl+click, then Shift+click: the range runs from the last clicked event in the list's frame order.
  await clickRow(page, 5);
  await clickRow(page, 21, ['Control']);
  expect(await selectedRows(page)).toEqual([5, 21]);
  await clickRow(page, 54, ['Shift']);
  expect(await selectedRows(page)).toEqual([21, 38, 54]);
  await expect(page.getByTestId('sev-selection')).toHaveText('3 events selected');
  await expect(page.locator('[data-testid="sev-marker"][aria-pressed="true"]')).toHaveCount(3);

  // Ctrl+C in the list; Ctrl+V on the event row pastes with the earliest at the playhead, spacing kept.
  await page.keyboard.press('Control+c');
  await expect(
    page.getByTestId('message-info').filter({ hasText: 'Copied 3 events of walk (spanning 33 frames)' }),
  ).toHaveCount(1);
  await clickTrack(page, 80);
  await page.keyboard.press('Control+v');
  await expect.poll(() => markerFrames(page)).toEqual([0, 5, 21, 38, 54, 66, 71, 87, 104, 120, 80, 97, 113]);
  expect(await selectedRows(page)).toEqual([80, 97, 113]);
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  expect(await undoLabel(page)).toBe('Undo Paste 3 events at frame 80');

  // Alt+Right nudges the selection one frame.
  await marker(page, 97).click({ modifiers: ['Control'] });
  await marker(page, 97).click({ modifiers: ['Control'] });
  expect(await selectedRows(page)).toEqual([80, 97, 113]);
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(() => markerFrames(page)).toEqual([0, 5, 21, 38, 54, 66, 71, 87, 104, 120, 81, 98, 114]);
  expect(await undoLabel(page)).toBe('Undo Nudge 3 events +1 frame');

  // A box over the event row from frame 110 to 125 selects 114 and 120; nudging past the last frame (132) is refused.
  const box = (await page.getByTestId('sev-track').boundingBox())!;
  await page.mouse.move(await trackX(page, 110), box.y + 4);
  await page.mouse.down();
  await page.mouse.move(await trackX(page, 118), box.y + 20, { steps: 3 });
  await expect(page.getByTestId('sev-box')).toBeVisible();
  await page.mouse.move(await trackX(page, 125), box.y + 30, { steps: 3 });
  await page.mouse.up();
  await expect(page.getByTestId('sev-box')).toHaveCount(0);
  expect(await selectedRows(page)).toEqual([114, 120]);
  for (let k = 0; k < 12; k++) await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(() => markerFrames(page)).toEqual([0, 5, 21, 38, 54, 66, 71, 87, 104, 132, 81, 98, 126]);
  await page.keyboard.press('Alt+ArrowRight');
  await expect(
    page.getByTestId('message-warning').filter({
      hasText: 'Nudge 2 events +1 frame refused: the event at frame 132 would move to frame 133, outside 0..132',
    }),
  ).toHaveCount(1);
  expect(await markerFrames(page)).toEqual([0, 5, 21, 38, 54, 66, 71, 87, 104, 132, 81, 98, 126]);
  // The SEV editor with a multi-selection and the message list, at 1280x800: full layout, and the sound-event mode.
  await saveScreenshot('sev-multiselect-1280x800');
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('curve-view')).toBeHidden();
  await saveScreenshot('sev-multiselect-mode-1280x800');
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('curve-view')).toBeVisible();
  await page.getByTestId('sev-track').focus();

  // Delete removes the selection as one step; Ctrl+Z brings both back.
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  expect(await undoLabel(page)).toBe('Undo Delete 2 events (frames 126–132)');
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('sev-marker')).toHaveCount(13);

  // Dragging one marker of a Ctrl+click selection moves them all by the same frames, as one step.
  await marker(page, 5).click();
  await marker(page, 38).click({ modifiers: ['Control'] });
  const m5 = (await marker(page, 5).boundingBox())!;
  await page.mouse.move(m5.x + m5.width / 2, m5.y + m5.height / 2);
  await page.mouse.down();
  await page.mouse.move(await trackX(page, 7), m5.y + m5.height / 2, { steps: 3 });
  await page.mouse.move(await trackX(page, 10), m5.y + m5.height / 2, { steps: 3 });
  await page.mouse.up();
  await expect.poll(() => markerFrames(page)).toEqual([0, 10, 21, 43, 54, 66, 71, 87, 104, 132, 81, 98, 126]);
  expect(await undoLabel(page)).toBe('Undo Move 2 events +5 frames');
  // The Edit menu names the drag by how far it went (at 1280x800).
  await page.getByTestId('menu-edit').click();
  await saveScreenshot('sev-undo-drag-label-1280x800');
  await page.getByTestId('menu-edit').click();
  await page.keyboard.press('Control+z');
  await expect.poll(() => markerFrames(page)).toEqual([0, 5, 21, 38, 54, 66, 71, 87, 104, 132, 81, 98, 126]);

  // The keyboard stays in the event row between keys (a handled key does not drop it on the page).
  await marker(page, 5).click();
  await page.keyboard.press('Alt+ArrowRight');
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(() => markerFrames(page)).toEqual([0, 7, 21, 38, 54, 66, 71, 87, 104, 132, 81, 98, 126]);
  // The Events menu has the same actions, with the keys from the one shortcut table.
  await page.getByTestId('menu-events').click();
  await expect(page.getByTestId('menu-events-nudgeEarlier')).toContainText('Alt+←');
  await page.getByTestId('menu-events-nudgeEarlier').click();
  await expect.poll(() => markerFrames(page)).toEqual([0, 6, 21, 38, 54, 66, 71, 87, 104, 132, 81, 98, 126]);

  // In a text field Ctrl+C / Delete are the field's own: the note field does not delete events.
  await marker(page, 6).click();
  await page.getByTestId('sev-event-note').focus();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('sev-marker')).toHaveCount(13);
  expect(pageErrors).toEqual([]);
});

test('copy events of walk and paste them into cmu_01_01: joints by name, all or nothing, with every refused event named', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProject(page, workspace, electronApp);
  // An event on Chest, a joint the CMU skeleton does not have (added on SE_FOOT_L's last joint, then picked).
  await page.getByTestId('frame-number').fill('30');
  await page.getByTestId('frame-number').press('Enter');
  await page.getByTestId('sev-add-event').click();
  await page.locator('[data-testid="sev-event-row"][data-frame="30"]').getByTestId('sev-pick-joint').click();
  await selectJoint(page, 'Chest');
  await page.getByTestId('sev-save').click();
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');

  await clickRow(page, 21);
  await clickRow(page, 38, ['Shift']);
  expect(await selectedRows(page)).toEqual([21, 30, 38]);
  await page.keyboard.press('Control+c');

  await showMotion(page, 'cmu_01_01');
  const before = await markerFrames(page);
  // The whole paste is refused, naming the event and why.
  await clickTrack(page, 100);
  await page.getByTestId('sev-paste').click();
  const refusal = page
    .getByTestId('message-warning')
    .filter({ hasText: 'Paste refused, nothing pasted: 3 events copied from walk at frame 100' });
  await expect(refusal).toContainText('event at frame 109 (SE_FOOT_L on Chest): cmu_01_01 has no joint named Chest');
  expect(await markerFrames(page)).toEqual(before);
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');

  // Feet only: the right foot is joint 21 in walk and 9 here, the left 17 and 4.
  await showMotion(page, 'walk');
  await clickRow(page, 5);
  await clickRow(page, 21, ['Control']);
  await page.keyboard.press('Control+c');
  await showMotion(page, 'cmu_01_01');
  await clickTrack(page, 680);
  await page.keyboard.press('Control+v');
  await expect(
    page.getByTestId('message-warning').filter({
      hasText: 'event at frame 696 (SE_FOOT_R on RightFoot): frame 696 is past the end of cmu_01_01 (0..687)',
    }),
  ).toContainText('with the playhead at frame 671 or earlier they all fit');
  expect(await markerFrames(page)).toEqual(before);
  await clickTrack(page, 300);
  await page.keyboard.press('Control+v');
  await expect(page.getByTestId('sev-marker')).toHaveCount(before.length + 2);
  await expect(row(page, 300).getByTestId('sev-event-joint')).toHaveAttribute('data-value', '4');
  await expect(row(page, 316).getByTestId('sev-event-joint')).toHaveAttribute('data-value', '9');
  await expect(row(page, 300).getByTestId('sev-event-resolved')).toContainText('SE_FOOT_L_CONC');
  expect(pageErrors).toEqual([]);
});

test('an event with floor variants previews and plays what each of the 8 floors plays', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  // SE_CLOTH_SWISH plays the same on every floor: no preview.
  await expect(row(page, 0).getByTestId('sev-event-floors-toggle')).toHaveCount(0);
  await row(page, 5).getByTestId('sev-event-floors-toggle').click();
  const floors = page.locator('[data-testid="sev-event-floors"][data-index="1"] [data-testid="sev-event-floor"]');
  await expect(floors).toHaveCount(8);
  const names = await floors.getByTestId('sev-event-floor-name').allTextContents();
  expect(names).toEqual([
    'SE_FOOT_L_CONC',
    'SE_FOOT_L_GRASS',
    'SE_FOOT_L_WATER',
    'SE_FOOT_L_METAL',
    'SE_FOOT_L_SAND',
    'SE_FOOT_L_SNOW',
    'SE_FOOT_L_WOOD',
    'SE_FOOT_L_GRATE',
  ]);
  // Each resolved to its code through the project's SE tables.
  for (const text of await floors.allTextContents()) expect(text).toMatch(/0x[0-9A-F]{4}/i);
  await expect(floors.nth(0)).toHaveClass(/current/);
  await saveScreenshot('sev-floor-preview');
  await floors.nth(2).getByTestId('sev-event-floor-play').click();
  await expect(page.getByTestId('sev-last-played')).toContainText('SE_FOOT_L_WATER');
  await floors.nth(6).getByTestId('sev-event-floor-play').click();
  await expect(page.getByTestId('sev-last-played')).toContainText('SE_FOOT_L_WOOD');
  // Its floor label shows that floor everywhere.
  await floors.nth(6).getByRole('button', { name: 'Floor 6 (wood)', exact: true }).click();
  await expect(page.getByTestId('sev-floor-name')).toHaveText('wood');
  await expect(floors.nth(6)).toHaveClass(/current/);
  await row(page, 5).getByTestId('sev-event-floors-toggle').click();
  await expect(floors).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
