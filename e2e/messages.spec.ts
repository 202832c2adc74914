/**
 * Messages belong to their document and stack into a dismissable list: a lock
 * refused on walk is not shown over cmu_01_01 and is back with walk; several
 * messages stack over the top of the viewport's picture without shrinking it;
 * each has its own ✕ and "Dismiss all" clears them.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openThroughPicker, selectJoint, waitForDocument } from './ui';
import { readMtn } from '../shared/mtn/read';
import { lockedJointAt } from '../shared/motion/types';

/** Moves the playhead to `frame` and presses L over the curve view (locks the selected joint there). */
async function lockAt(page: Page, frame: number): Promise<void> {
  await page.getByTestId('frame-number').fill(String(frame));
  await page.getByTestId('frame-number').press('Enter');
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('l');
}

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
  await lockAt(page, f2);
  await expect(warnings).toHaveCount(2);
  // Newest first, with a count and "Dismiss all".
  await expect(warnings.first()).toContainText(`frame ${f2}`);
  await expect(page.getByTestId('message-count')).toHaveText('2');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');

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
  await waitForDocument(page, 'cmu_01_01');
  await expect(warnings).toHaveCount(0);
  await expect(page.getByTestId('message-list')).toHaveCount(0);

  // Back to walk (reopened from its file): they are back.
  await openThroughPicker(page, 'walk.mtn');
  await waitForDocument(page, 'walk');
  await expect(warnings).toHaveCount(2);

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
