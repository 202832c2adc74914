/**
 * Opening a stage archive of hundreds of motions at 1280x800: the question lists them in a list that scrolls, with
 * a filter, and the dialog stays inside the window (title, filter and Cancel on screen). Before, every motion was a
 * button in a column taller than the window: the question and Cancel were off screen. Mutations that fail: the
 * archive question without `list` (the dialog is taller than the window), the filter not narrowing the list, Enter
 * in the filter not taking the one motion it leaves.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openThroughPicker, waitForDocument } from './ui';
import { writeMar } from '../shared/mar/write';
import { randomMt3 } from '../shared/mt3/testFixtures';
import { withMt3Name, writeMt3 } from '../shared/mt3/write';
import { readMtn } from '../shared/mtn/read';
import { formatStrCode } from '../shared/strcode';

const ENTRIES = 300;

test('an archive of 300 motions: a filtered list that fits the window, Enter opens the one the filter leaves', async ({
  page,
  workspace,
  appMode,
  pageErrors,
}) => {
  test.skip(appMode === 'electron', 'the in-app picker is the loopback transport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const joints = readMtn(readFileSync(workspace.path('walk.mtn'))).joints.length;
  const one = writeMt3(randomMt3(3, { numJoints: joints, numFrames: 40 }));
  // Names 1..300: entry k is named k + 1.
  writeFileSync(
    workspace.path('stage.mar'),
    writeMar(Array.from({ length: ENTRIES }, (_, k) => withMt3Name(one, k + 1))),
  );
  copyFileSync(workspace.path('walk.mtn'), workspace.path('stage.mtn'));

  await openThroughPicker(page, 'stage.mar');
  const question = page.getByTestId('confirm-dialog');
  await expect(question).toContainText(`holds ${ENTRIES} motions. Which one?`);
  // The whole dialog, and its Cancel, inside the 800 px window.
  const box = (await question.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  await expect(question.getByTestId('confirm-cancel')).toBeInViewport();
  await expect(question.getByTestId('confirm-list-count')).toHaveText(`${ENTRIES} listed`);
  // The last motion is reached by scrolling the list.
  await question.getByTestId(`confirm-${ENTRIES - 1}`).scrollIntoViewIfNeeded();
  await expect(question.getByTestId(`confirm-${ENTRIES - 1}`)).toBeInViewport();
  await expect(question.getByTestId('confirm-cancel')).toBeInViewport();

  // The filter has the focus; typing narrows the list; Enter opens the one left.
  const wanted = 250;
  const name = formatStrCode(wanted + 1);
  await expect(question.getByTestId('confirm-filter')).toBeFocused();
  await page.keyboard.type(`#${wanted} `);
  await expect(question.getByTestId('confirm-list-count')).toHaveText(`1 of ${ENTRIES} listed`);
  await expect(question.getByTestId('confirm-list').getByRole('button')).toHaveText([
    new RegExp(`^#${wanted} ${name}`),
  ]);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('doc-name')).toContainText(`stage:${name}`);
  expect(pageErrors).toEqual([]);
});
