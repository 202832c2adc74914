/**
 * Messages belong to their document and stack into a dismissable list: a lock
 * refused on walk is not shown over cmu_01_01 and is back with walk; several
 * messages stack over the top of the viewport's picture without shrinking it;
 * each has its own ✕ and "Dismiss all" clears them. A refused lock's warning
 * goes once the user moves on (another frame or joint, an edit that works,
 * Escape), never by itself. Its "Move lock to ..." is offered only in the document it was refused in.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import {
  dragLockRow,
  lockAt,
  lockedFrames,
  openThroughPicker,
  selectJoint,
  waitForCapture,
  waitForDocument,
} from './ui';
import { readMtn } from '../shared/mtn/read';
import { lockedJointAt } from '../shared/motion/types';

test('a refused lock stays with its motion; messages stack over the picture without shrinking it and are dismissed one by one or all at once', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(electronApp !== null, 'opens motions through the in-app picker of the loopback transport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  // Two frames another joint holds a lock on: locking Neck there is refused (and changes nothing).
  const walk = readMtn(readFileSync(workspace.path('walk.mtn')));
  const locked = Array.from({ length: walk.frameCount + 1 }, (_, f) => f).filter((f) => lockedJointAt(walk, f) >= 0);
  expect(locked.length).toBeGreaterThan(10);
  const [f1, f2] = [locked[0], locked[locked.length - 1]];
  const owner = walk.joints[lockedJointAt(walk, f1)].name;
  expect(owner).not.toBe('Neck');

  await selectJoint(page, 'Neck');
  const pictureBefore = (await page.getByTestId('viewport-host').boundingBox())!;
  await lockAt(page, f1);
  const warnings = page.getByTestId('message-warning');
  await expect(warnings).toHaveCount(1);
  await expect(warnings).toContainText(`frame ${f1} is already locked by joint`);
  // A second refusal by a drag in the lock row (the playhead stays on frame f1, where the first still applies).
  await dragLockRow(page, f2, f2);
  await expect(warnings).toHaveCount(2);
  // Newest first, with a count and "Dismiss all".
  await expect(warnings.first()).toContainText(`frame ${f2}`);
  await expect(page.getByTestId('message-count')).toHaveText('2');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  await expect(warnings.first().getByTestId('message-action')).toHaveText('Move lock to Neck');

  // The list lies over the top of the picture: the picture keeps its size, and the list leaves most of it free.
  const list = (await page.getByTestId('message-list').boundingBox())!;
  const picture = (await page.getByTestId('viewport-host').boundingBox())!;
  expect(picture.height).toBe(pictureBefore.height);
  expect(picture.width).toBe(pictureBefore.width);
  expect(list.y).toBeGreaterThanOrEqual(picture.y);
  expect(list.y + list.height).toBeLessThanOrEqual(picture.y + picture.height * 0.5);
  await saveScreenshot('messages-stacked-1280x800');

  // Another motion: walk's refusals are not shown over it.
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  await expect(warnings).toHaveCount(0);
  await expect(page.getByTestId('message-list')).toHaveCount(0);

  // Back to walk (reopened from its file): they are back.
  await openThroughPicker(page, 'walk.mtn');
  await waitForDocument(page, 'walk');
  await expect(warnings).toHaveCount(2);
  // Shown again, but without "Move lock to Neck": it was checked against the walk of before, not this one.
  await expect(page.getByTestId('message-action')).toHaveCount(0);

  // One ✕ dismisses that message only; "Dismiss all" the rest.
  await warnings.first().getByTestId('message-dismiss').click();
  await expect(warnings).toHaveCount(1);
  await expect(warnings).toContainText(`frame ${f1}`);
  await expect(page.getByTestId('message-dismiss-all')).toHaveCount(0);
  await selectJoint(page, 'Neck');
  await lockAt(page, f2);
  await expect(warnings).toHaveCount(2);
  await page.getByTestId('message-dismiss-all').click();
  await expect(page.getByTestId('message-list')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

/** The frames of walk another joint than Neck holds a lock on. */

test('a refused lock’s warning stays while it applies and goes once the user moves on: another frame, another joint, an edit that works, Escape', async ({
  page,
  workspace,
  pageErrors,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const [f] = lockedFrames(workspace.path('walk.mtn'));
  const warnings = page.getByTestId('message-warning');
  const refuse = async () => {
    await lockAt(page, f);
    await expect(warnings).toHaveCount(1);
    await expect(warnings).toContainText(`frame ${f} is already locked by joint`);
  };
  await selectJoint(page, 'Neck');
  await refuse();
  // Still there while it applies: the same joint picked again, a hover over the timeline.
  await selectJoint(page, 'Neck');
  await page.getByTestId('timeline-canvas').hover();
  await expect(warnings).toHaveCount(1);
  await saveScreenshot('lock-refused-1280x800');

  // The playhead on another frame: the refusal no longer applies there.
  await page.getByTestId('frame-number').fill(String(f + 1));
  await page.getByTestId('frame-number').press('Enter');
  await expect(warnings).toHaveCount(0);

  // Another joint selected.
  await refuse();
  await selectJoint(page, 'RightToeBase');
  await expect(warnings).toHaveCount(0);

  // The next edit that works (a trace key at the playhead), and its undo leaves no warning behind either.
  await selectJoint(page, 'Neck');
  await refuse();
  await page.keyboard.press('t');
  await expect(warnings).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');

  // Escape dismisses it, as it closes a menu or a dialog.
  await refuse();
  await page.keyboard.press('Escape');
  await expect(warnings).toHaveCount(0);
  await saveScreenshot('lock-refusal-gone-1280x800');

  // A refused SEV edit (a frame past the end) goes the same way; an Escape that cancels a joint pick leaves it.
  const frameField = page.locator('[data-testid="sev-event-row"][data-frame="5"]').getByTestId('sev-event-frame');
  await frameField.fill('500');
  await frameField.press('Enter');
  const sevRefusal = warnings.filter({ hasText: 'Event frame (walk) 500 is outside' });
  await expect(sevRefusal).toHaveCount(1);
  await page.locator('[data-testid="sev-event-row"][data-frame="5"]').getByTestId('sev-pick-joint').click();
  await expect(page.getByTestId('sev-picking')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('sev-picking')).toHaveCount(0);
  await expect(sevRefusal).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(sevRefusal).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
