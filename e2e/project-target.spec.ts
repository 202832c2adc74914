/**
 * Project actions act on the motion the tuner shows: after File › Open of
 * another file the panel no longer highlights the old selection, and
 * "Tolerances → project" is off with the reason; a project motion opened by
 * File › Open, or brought back by the SEV banner, takes the project's tolerances.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { openThroughPicker, selectJoint, waitForCapture, waitForDocument } from './ui';

const row = (name: string) => `[data-testid="project-motion"][data-name="${name}"]`;

test("after File › Open the project panel acts on the tuner's motion or says why it cannot", async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(electronApp !== null, 'opens motions through the in-app picker of the loopback transport');
  await page.setViewportSize({ width: 1280, height: 800 });
  copyFileSync(workspace.path('walk.mtn'), workspace.path('walk_copy.mtn'));
  await openSampleProject(page, workspace);
  await page.locator(row('cmu_01_01')).click();
  await waitForCapture(page);
  await expect(page.getByTestId('tol-rotation')).toHaveValue('0.75');
  const cmuBefore = JSON.stringify(JSON.parse(readFileSync(workspace.path('sample.actguy.json'), 'utf8')).motions[1]);

  // A file the project did not open: nothing is highlighted, and the button is off with the reason.
  await openThroughPicker(page, 'walk_copy.mtn');
  await waitForDocument(page, 'walk_copy');
  await expect(page.locator('.project-motion.selected')).toHaveCount(0);
  await expect(page.getByTestId('project-tuner-elsewhere')).toHaveText(
    'The tuner shows walk_copy, not opened from this project: select a motion in the list to act on it.',
  );
  const store = page.getByTestId('project-store-tolerances');
  await expect(store).toBeDisabled();
  await expect(store).toHaveAttribute('title', /The tuner shows walk_copy/);
  await saveScreenshot('project-tuner-elsewhere-1280');

  // walk.mtn is the project's walk: it is highlighted, with walk's tolerances, and the button writes into walk.
  await openThroughPicker(page, 'walk.mtn');
  await waitForDocument(page);
  await expect(page.locator(row('walk'))).toHaveClass(/selected/);
  await expect(page.locator(row('cmu_01_01'))).not.toHaveClass(/selected/);
  await page.getByTestId('tol-rotation').fill('1.5');
  await page.getByTestId('tol-rotation').press('Enter');
  await store.click();
  await expect(
    page.getByTestId('message-info').filter({ hasText: "walk: the tuner's tolerances are now the project's" }),
  ).toHaveCount(1);
  await page.getByTestId('project-save').click();
  await expect(page.getByTestId('project-dirty')).toHaveCount(0);
  const saved = JSON.parse(readFileSync(workspace.path('sample.actguy.json'), 'utf8'));
  expect(saved.motions[0].tolerances.rotationDeg).toBe(1.5);
  expect(JSON.stringify(saved.motions[1])).toBe(cmuBefore);
  expect(pageErrors).toEqual([]);
});

test('the SEV banner\'s "Open cmu_01_01" brings it back with the project\'s tolerances', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(electronApp !== null, 'opens motions through the in-app picker of the loopback transport');
  copyFileSync(workspace.path('walk.mtn'), workspace.path('walk_copy.mtn'));
  await openSampleProject(page, workspace);
  await page.locator(row('cmu_01_01')).click();
  await waitForCapture(page);
  const projectKeys = await page.getByTestId('stat-total-keys').innerText();
  await selectJoint(page, 'LeftFoot');
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  await openThroughPicker(page, 'walk_copy.mtn');
  await waitForDocument(page, 'walk_copy');
  await page.getByTestId('sev-mismatch').getByTestId('sev-open-motion').click();
  await waitForCapture(page);
  await expect(page.getByTestId('tol-rotation')).toHaveValue('0.75');
  await expect(page.getByTestId('stat-total-keys')).toHaveText(projectKeys);
  await expect(page.locator(row('cmu_01_01'))).toHaveClass(/selected/);
  expect(pageErrors).toEqual([]);
});
