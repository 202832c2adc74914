/**
 * What a technical animator and a sound designer who had never seen ActGuy met in the browser build at 1280x800
 * (checked at 1920x1080; docs/user-guide.md "Tried cold", eighth round): events attached while the motion played
 * took a pointer trip to "+ Add event at playhead" each (no key did it); every add put a two-line message over the
 * viewport being watched, five adds hiding the figure; an SE chosen with the pointer in the toolbar's picker kept the
 * keyboard, so Space played nothing (the same after the playback speed was chosen).
 * Mutations that fail: the M binding removed from SHORTCUTS; addAtPlayhead not dismissing its last message;
 * installSelectHandback not installed (or its blur removed); CompressorSettings, PlaybackBar's frame field or
 * FootstepPanel back on number fields (the object bound also unnamed); addAtPlayhead without its hidden-panel check.
 */
import { expect, test } from './fixtures';
import { markerFrames } from './sev-ui';
import { waitForDocumentAt1280 } from './ui';
import type { Locator, Page } from '@playwright/test';

/** The Undo item's label in the Edit menu, without its shortcut. */
async function undoLabel(page: Page): Promise<string> {
  await page.getByTestId('menu-edit').click();
  const label = (await page.getByTestId('menu-undo').textContent()) ?? '';
  await page.getByTestId('menu-edit').click();
  return label.replace(/Ctrl\+Z$/, '').trim();
}

/** Selects the field's text, types over it and presses Enter, as a user would. */
async function typeInto(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.page().keyboard.press('Control+a');
  await field.page().keyboard.type(text);
  await field.page().keyboard.press('Enter');
}

test('an SE chosen with the pointer hands the keyboard back: Space plays, and M adds the event at the playhead', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  expect(await markerFrames(page)).toHaveLength(10);
  const picker = page.getByTestId('sev-add-se');
  await picker.click();
  await page.getByTestId('sev-add-se-list').locator('[data-se="2"]').click();
  await expect(picker).toHaveAttribute('data-value', '2');
  // The picker kept the keyboard: Space went to it and nothing played.
  await expect(picker).not.toBeFocused();
  const play = page.getByTestId('play-toggle');
  await page.keyboard.press('Space');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Space');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  // The playback speed chosen with the pointer hands it back too.
  await page.getByTestId('speed').click();
  await page.getByTestId('speed').selectOption({ index: 0 });
  await expect(page.getByTestId('speed')).not.toBeFocused();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('sev-playhead')).toHaveText('30');
  // M adds the chosen SE at the playhead, as the button does (it had no key: a pointer trip per event heard).
  await page.keyboard.press('m');
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  expect((await markerFrames(page))[10]).toBe(30);
  // On no joint: walk.sev's cloth swishes are on none (since round 20 M takes the SE's last joint).
  expect(await undoLabel(page)).toBe('Undo Add SE_CLOTH_SWISH at frame 30 with no joint');
  // The Events menu says so.
  await page.getByTestId('menu-events').click();
  await expect(page.getByRole('menuitem', { name: /Add Event at Playhead/ })).toContainText('M');
  await page.keyboard.press('Escape');
  // Typed into a field, M is a letter.
  await page.getByTestId('sev-event-note').fill('Mm');
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  expect(pageErrors).toEqual([]);
});

test('events added one after another leave one message over the viewport, naming the latest', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const add = page.getByTestId('sev-add-event');
  for (const frame of [10, 20, 30, 40]) {
    await page.getByTestId('frame-number').fill(String(frame));
    await page.getByTestId('frame-number').press('Enter');
    await add.click();
    await expect(page.locator(`[data-testid="sev-marker"][data-frame="${frame}"]`)).toHaveCount(1);
  }
  const added = page
    .getByTestId('message-list')
    .locator('.message')
    .filter({ hasText: /^Added / });
  // Four two-line messages stacked over the figure being watched.
  await expect(added).toHaveCount(1);
  await expect(added).toContainText('Added SE_FOOT_L at frame 40 on joint 17 LeftFoot');
  await saveScreenshot('four-adds-one-message-1280x800');
  // Each add is still its own undo step.
  expect(await undoLabel(page)).toBe('Undo Add SE_FOOT_L at frame 40 on joint 17 LeftFoot');
  await page.keyboard.press('Control+z');
  expect(await undoLabel(page)).toBe('Undo Add SE_FOOT_L at frame 30 on joint 17 LeftFoot');
  expect(pageErrors).toEqual([]);
});

test('a tolerance typed with a decimal comma is that number, and text that is none is named as typed', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const rotation = page.getByTestId('tol-rotation');
  // The number field read "0,3" as 03: the rotation tolerance became 3°, ten times what was typed, without a word.
  await typeInto(rotation, '0,3');
  await expect(rotation).toHaveValue('0.3');
  expect(await undoLabel(page)).toBe('Undo Set rotation tolerance to 0.3°');
  // "1e" reached the app as an empty field ("an empty field was not applied").
  await typeInto(rotation, '1e');
  await expect(page.getByTestId('tol-rotation-error')).toHaveText(
    'Rotation tolerance must be a number greater than 0; "1e" was not applied, it stays 0.3°.',
  );
  await expect(rotation).toHaveValue('0.3');
  // ↑ steps as the number field did; the override takes a decimal comma too.
  await rotation.click();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(rotation).toHaveValue('0.35');
  const override = page.getByTestId('override-input');
  await typeInto(override, '0,2');
  await expect(override).toHaveValue('0.2');
  await expect(page.getByTestId('override-list')).toContainText('0.2°');
  expect(pageErrors).toEqual([]);
});

/** Types `text` into `field` as a keyboard does (a number field takes keys, not fill) and presses Enter. */
test('the object bound and the frame field read a decimal comma, and name what they refuse', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const object = page.getByTestId('tol-object');
  // The number field read "0,5" as 5: a bound ten times what was typed.
  await typeInto(page.getByTestId('tol-object'), '0,5');
  await expect(object).toHaveValue('0.5');
  expect(await undoLabel(page)).toMatch(/0\.5/);
  // Text that is no bound was put back without a word.
  await typeInto(page.getByTestId('tol-object'), 'abc');
  await expect(page.getByTestId('tol-object-error')).toHaveText(
    'Object bound must be a number greater than 0 (empty turns it off); "abc" was not applied, it stays 0.5 u.',
  );
  await expect(object).toHaveValue('0.5');
  await object.click();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(object).toHaveValue('0.6');
  await expect(page.getByTestId('tol-object-error')).toHaveCount(0);
  // The frame field read "1,5" as frame 15.
  const frame = page.getByTestId('frame-number');
  await typeInto(page.getByTestId('frame-number'), '12');
  await expect(page.getByTestId('sev-playhead')).toHaveText('12');
  await typeInto(page.getByTestId('frame-number'), '1,5');
  await expect(page.getByTestId('message-list')).toContainText('Frame must be a whole number from 0 to');
  await expect(page.getByTestId('message-list')).toContainText('"1,5" was not applied, the playhead stays at 1.');
  await expect(page.getByTestId('sev-playhead')).toHaveText('1');
  await expect(frame).toHaveValue('1');
  await frame.click();
  await page.keyboard.press('ArrowUp');
  await expect(frame).toHaveValue('2');
  expect(pageErrors).toEqual([]);
});

test('the footstep thresholds read a decimal comma, and name what they refuse', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  await page.getByTestId('sev-suggest-footsteps').click();
  const speed = page.getByTestId('sev-footsteps-maxSpeed');
  await typeInto(page.getByTestId('sev-footsteps-maxSpeed'), '0,5');
  await expect(speed).toHaveValue('0.5');
  const frames = page.getByTestId('sev-footsteps-minContactFrames');
  await typeInto(page.getByTestId('sev-footsteps-minContactFrames'), '1,5');
  await expect(page.getByTestId('sev-footsteps-error')).toHaveText(
    'Footsteps "frames ≥" must be a whole number, 1 or more; "1,5" was not applied, it stays 1.',
  );
  await expect(frames).toHaveValue('1');
  await frames.click();
  await page.keyboard.press('ArrowUp');
  await expect(frames).toHaveValue('2');
  await expect(page.getByTestId('sev-footsteps-error')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('M in Tuning mode says the Sound events panel is hidden, and adds no event there unseen', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  expect(await markerFrames(page)).toHaveLength(10);
  await page.keyboard.press('Control+1');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('m');
  await expect(page.getByTestId('message-list')).toContainText(
    'M adds an event at the playhead in the Sound events panel, which this work mode hides',
  );
  // Back in the full layout: the events are the ten there were (M had added an eleventh, unseen).
  await page.keyboard.press('Control+1');
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);
  expect(pageErrors).toEqual([]);
});
