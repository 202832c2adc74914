import { expect, test } from './fixtures';
import { selectJoint, undoLabel, waitForCompression, waitForDocument } from './ui';
import { DEFAULT_TOLERANCES } from '../shared/compress/types';

test('changing a tolerance changes the MT3 bytes and the error, and undo restores them', async ({ page }) => {
  await waitForDocument(page);
  const bytes = page.getByTestId('stat-mt3-bytes');
  const maxRot = page.getByTestId('stat-max-error-rotation');
  const bytesBefore = Number(await bytes.innerText());
  const errBefore = await maxRot.innerText();

  const field = page.getByTestId('tol-rotation');
  await field.fill('3');
  await field.press('Enter');
  await waitForCompression(page);
  // A looser rotation tolerance needs fewer keys: fewer bytes, larger error.
  await expect.poll(async () => Number(await bytes.innerText())).toBeLessThan(bytesBefore);
  await expect(maxRot).not.toHaveText(errBefore);
  const errLoose = Number(/: ([\d.]+)°/.exec(await maxRot.innerText())![1]);
  expect(errLoose).toBeGreaterThan(Number(/: ([\d.]+)°/.exec(errBefore)![1]));
  expect(errLoose).toBeLessThanOrEqual(3);
  // The tuning is saved with the motion (its tuning file or project entry): changing it is an unsaved change.
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  // The Edit menu names the step by what it set.
  await expect.poll(() => undoLabel(page)).toBe('Undo Set rotation tolerance to 3°');

  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+z');
  await expect(field).toHaveValue('0.5');
  await waitForCompression(page);
  await expect.poll(async () => Number(await bytes.innerText())).toBe(bytesBefore);
  await expect(maxRot).toHaveText(errBefore);
  // Undone back to the settings it opened with: nothing to save.
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  await page.keyboard.press('Control+y');
  await expect(field).toHaveValue('3');

  // A slider drag is one step named, as a typed value is, by the value it ended at (it read "Drag rotation").
  const slider = page.getByTestId('tol-rotation-slider');
  const box = (await slider.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 10, y);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) await page.mouse.move(box.x + 10 + i * 10, y);
  await page.mouse.up();
  const dragged = await field.inputValue();
  expect(dragged).not.toBe('3');
  await expect.poll(() => undoLabel(page)).toBe(`Undo Set rotation tolerance to ${dragged}°`);
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+z');
  await expect(field).toHaveValue('3');
});

test('a held arrow key on a tolerance slider is one undo step, as a drag is; single presses stay one step each', async ({
  page,
}) => {
  await waitForDocument(page);
  const field = page.getByTestId('tol-rotation');
  const slider = page.getByTestId('tol-rotation-slider');
  await expect(field).toHaveValue('0.5');
  await slider.focus();
  // Held: the key repeats (each repeat moves the slider by its step); one step, named by where it ended.
  for (let i = 0; i < 5; i++) await page.keyboard.down('ArrowRight');
  await page.keyboard.up('ArrowRight');
  await expect(field).toHaveValue('0.55');
  await expect.poll(() => undoLabel(page)).toBe('Undo Set rotation tolerance to 0.55°');
  // Two presses: two steps.
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(field).toHaveValue('0.57');
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+z');
  await expect(field).toHaveValue('0.56');
  await page.keyboard.press('Control+z');
  await expect(field).toHaveValue('0.55');
  // Mutation that fails: no begin on the slider's keydown (each repeat was its own step: 0.54 after this Undo).
  await page.keyboard.press('Control+z');
  await expect(field).toHaveValue('0.5');
});

test('"Use as defaults for new motions" is one named undo step; Undo stores the old defaults again', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  /** The defaults as the next start reads them. */
  const stored = () =>
    page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('actguy.preferences') ?? '{}') as { state?: { defaultTolerances?: unknown } })
          .state?.defaultTolerances,
    );
  const field = page.getByTestId('tol-rotation');
  await field.fill('3');
  await field.press('Enter');
  await page.getByTestId('tol-use-as-defaults').click();
  await expect.poll(stored).toMatchObject({ rotationToleranceDeg: 3 });
  const label = 'Undo Use tolerances 0.5, 3°, 0.5 as defaults for new motions';
  await expect.poll(() => undoLabel(page)).toBe(label);
  await page.getByTestId('menu-edit').click();
  await saveScreenshot('undo-use-as-defaults-1280x800');
  await page.getByTestId('menu-undo').click();
  // Undo takes the defaults back (stored too) and leaves the motion's own tolerance as set.
  await expect.poll(stored).toEqual(DEFAULT_TOLERANCES);
  await expect(field).toHaveValue('3');
  await expect.poll(() => undoLabel(page)).toBe('Undo Set rotation tolerance to 3°');
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+y');
  await expect.poll(stored).toMatchObject({ rotationToleranceDeg: 3 });
});

test('an unreachable tolerance gives warnings that jump to the channel and frame', async ({ page }) => {
  await waitForDocument(page);
  const field = page.getByTestId('tol-rotation');
  // Far below what 12-bit quaternion components can hold, even with a key on every frame.
  await field.fill('0.001');
  await field.press('Enter');
  await waitForCompression(page);
  const warnings = page.getByTestId('warning-item');
  await expect(warnings.first()).toBeVisible({ timeout: 30_000 });
  const text = await warnings.first().innerText();
  const m = /^⚠ (.+): tolerance 0\.001 not reachable at frame (\d+)/.exec(text);
  expect(m, text).not.toBeNull();
  // One note says what the list means and the tolerances this motion can be held to (its precision floor).
  const note = page.getByTestId('warnings-summary');
  await expect(note).toContainText(/^\d+ keys? in \d+ channels? cannot meet the tolerance/);
  const floorDeg = Number(/, ([\d.e-]+)° \(rotations\)/.exec(await note.innerText())![1]);
  // s12 stores a rotation within a few hundredths of a degree: above the asked 0.001, far below the default 0.5.
  expect(floorDeg).toBeGreaterThan(0.001);
  expect(floorDeg).toBeLessThan(0.1);
  const keysOver = Number(/^(\d+) key/.exec(await note.innerText())![1]);
  expect(keysOver).toBeGreaterThanOrEqual(await warnings.count());
  await warnings.first().getByRole('button').click();
  await expect(page.getByTestId('timeline-selected')).toHaveText(m![1]);
  await expect(page.getByTestId('status-frame')).toHaveText(m![2]);
});

test('a per-joint rotation override and the offsets flag recompress that joint', async ({ page }) => {
  await waitForDocument(page);
  await selectJoint(page, 'LeftUpLeg');
  const keyCount = page.getByTestId('curve-key-count');
  const keysOf = async () => Number(/^(\d+) keys/.exec(await keyCount.innerText())![1]);
  await expect(keyCount).toHaveText(/^\d+ keys/);
  const before = await keysOf();

  // A looser tolerance on this joint only: fewer keys on its channel, the override is listed.
  const override = page.getByTestId('override-input');
  await override.fill('4');
  await override.press('Enter');
  await expect(page.getByTestId('override-list')).toContainText('LeftUpLeg');
  await expect.poll(() => undoLabel(page)).toBe('Undo Set rotation override (LeftUpLeg) to 4°');
  await waitForCompression(page);
  await expect.poll(keysOf).toBeLessThan(before);

  // Animated offsets: the offset channel gets its own compressed track.
  await page.getByTestId('channel-offset').click();
  await expect(keyCount).toHaveText(/^— keys/);
  await page.getByTestId('flag-offsets').check();
  await waitForCompression(page);
  await expect(keyCount).toHaveText(/^\d+ keys/);
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect.poll(() => undoLabel(page)).toBe('Undo Turn on Animated offsets');
  await page.getByTestId('channel-euler').click();
  await expect(keyCount).toHaveText(/^\d+ keys/);
});

test('a rotation override that cannot be one says why and puts the field back; Escape reverts', async ({ page }) => {
  await waitForDocument(page);
  await selectJoint(page, 'LeftUpLeg');
  const override = page.getByTestId('override-input');
  const error = page.getByTestId('override-input-error');
  const before = await undoLabel(page);

  // 0 is no tolerance: not applied, the field empty again (the joint keeps the global tolerance), no undo step.
  await override.fill('0');
  await override.press('Enter');
  await expect(error).toHaveText(
    'The rotation override of LeftUpLeg must be a number greater than 0 (empty removes it); "0" was not applied, it keeps the global 0.5°.',
  );
  await expect(override).toHaveValue('');
  await expect(override).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('override-list')).toHaveCount(0);
  expect(await undoLabel(page)).toBe(before);

  // A valid one clears the message and is applied.
  await override.fill('2');
  await expect(error).toHaveCount(0);
  await override.press('Enter');
  await expect(page.getByTestId('override-list')).toContainText('LeftUpLeg');
  await expect.poll(() => undoLabel(page)).toBe('Undo Set rotation override (LeftUpLeg) to 2°');

  // A negative one leaves the override as it was, and says so.
  await override.fill('-3');
  await override.press('Enter');
  await expect(error).toContainText('"-3" was not applied, its override stays 2°.');
  await expect(override).toHaveValue('2');
  await expect(page.getByTestId('override-list')).toContainText('2°');

  // Its ✕ in the list is a 24 × 24 px target, as the lock list's (it was 18 px tall).
  const remove = page.getByRole('button', { name: 'Remove override of LeftUpLeg' });
  const box = (await remove.boundingBox())!;
  expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);

  // Escape puts back what the field showed, applying nothing.
  await override.fill('7');
  await override.press('Escape');
  await expect(override).toHaveValue('2');
  await expect(page.getByTestId('override-list')).toContainText('2°');
  await expect.poll(() => undoLabel(page)).toBe('Undo Set rotation override (LeftUpLeg) to 2°');
});
