/**
 * Nothing the user made is lost without a question: unsaved motion, SEV and project edits are named together
 * ("walk.mtn, walk.sev and the project have unsaved changes") when opening another project, and the motion and
 * its SEV when another project motion opens. (Closing the window: main names the same list, see
 * electron/documentState.test.ts and renderer/app/unsaved.test.ts; the loopback transport has no window close.)
 */
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';

test('opening another project or motion names every unsaved part; cancel keeps them, the title shows them', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  const question = page.getByTestId('confirm-dialog');

  // Only the SEV is edited: the motion is clean, yet switching motions asks (it used to ask about the SEV alone,
  // then about the motion in a second question).
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  await expect(page).toHaveTitle(/^● walk/);
  await page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').click();
  await expect(question).toContainText('walk.sev has unsaved changes.');
  await question.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('doc-name')).toHaveText('walk');

  // Motion, SEV and project edited.
  await page.keyboard.press('t'); // trace key at the playhead: the motion changes
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await page.getByTestId('project-move-down').click(); // walk moves to index 1: the project changes
  await expect
    .poll(() =>
      page.getByTestId('project-motion').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name)),
    )
    .toEqual(['cmu_01_01', 'walk', 'walk_rough', 'walk_60']);

  await page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').click();
  await expect(question).toContainText('walk.mtn and walk.sev have unsaved changes.');
  await question.getByTestId('confirm-cancel').click();
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('doc-name')).toHaveText('walk');

  await page.getByTestId('project-open').click();
  await expect(question).toContainText('walk.mtn, walk.sev and the project have unsaved changes.');
  await expect(question.getByTestId('confirm-save')).toHaveText('Save all');
  await saveScreenshot('unsaved-all-question');
  await question.getByTestId('confirm-cancel').click();
  await expect(question).toHaveCount(0);
  // everything is still there
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  await expect(page.getByTestId('project-dirty')).toBeVisible();

  // Discard when switching motions: one question only, then the other motion opens (the project stays edited).
  await page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').click();
  await question.getByTestId('confirm-discard').click();
  await expect(page.getByTestId('doc-name')).toHaveText('cmu_01_01', { timeout: 30_000 });
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('project-dirty')).toBeVisible();
  await expect(page).toHaveTitle(/^● cmu_01_01/);
  expect(pageErrors).toEqual([]);
});
