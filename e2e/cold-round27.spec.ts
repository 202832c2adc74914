/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * twenty-seventh round).
 */
import { expect, test } from './fixtures';
import { canvasData, frameX, makeKeyEdit, untilBuildEnds } from './ui';
import { openSampleProjectAt1280 } from './sev-ui';

/**
 * Round 25 let a lock bar's name run on over the free lock row after the bar: in the Tuning mode at 1280x800
 * "LeftFoot" read across the bar's end, as if the lock went on. A name is now cut to its bar with "…" (or left out
 * where not three letters and "…" fit), and the tooltip over a bar names the lock whole. Mutation that fails: the
 * name's room running on to the next lock again (labels "LeftFoot" whole at 1280x800).
 */
test('a lock bar shows its name cut to the bar, and its tooltip names the lock whole', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  const canvas = page.getByTestId('timeline-canvas');
  for (const mode of ['Control+1', 'Control+3']) {
    await page.keyboard.press(mode);
    // The sample's locks are 8 frames long: about 50 px at 1280x800, too narrow for "LeftFoot" whole.
    await expect(canvas).toHaveAttribute('data-lock-labels', /^Left\w*…\|Right?\w*…\|Left\w*…\|/);
  }
  await saveScreenshot('round27-project-lock-names-1280x800');
  const box = (await canvas.boundingBox())!;
  const y = box.y + Number((await canvasData(canvas)).lockRowY);
  await page.mouse.move(box.x + (await frameX(canvas, 22)), y);
  await expect(canvas).toHaveAttribute('title', /^RightFoot locked at frames 21–28 · /);
  if (!electronApp) {
    // Where a bar has the room (the Project mode at 1920x1080), the name is whole.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect(canvas).toHaveAttribute('data-lock-labels', /^LeftFoot\|RightFoot\|LeftFoot\|/);
  }
  expect(pageErrors).toEqual([]);
});

/**
 * Build archives with a project motion's edits unsaved asks first (Save and build, Build the saved file, Cancel).
 * Answered "Build the saved file", the build dialog said "Built." and nothing of the edits it left out, while the
 * tuner still marked the motion modified. It now says the archives hold the motion as saved, without the tuner's
 * unsaved changes; answered "Save and build", it says nothing of the kind. Mutation that fails: settleUnsavedMotion
 * answering true for "Build the saved file" (no name: no line in the dialog).
 */
test('a build from the saved file says the unsaved changes are not in the archives', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await makeKeyEdit(page, 'LeftFoot');
  await page.keyboard.press('Control+3');
  await page.getByTestId('project-build').click();
  await page.getByRole('button', { name: 'Build the saved file' }).click();
  const dialog = page.getByTestId('build-dialog');
  await untilBuildEnds(dialog);
  await expect(dialog.getByTestId('build-saved-motion')).toHaveText(
    'These archives hold walk.mtn as saved: the unsaved changes in the tuner are not in them. Save it and build ' +
      'again to take them in.',
  );
  await saveScreenshot('round27-build-saved-file-1280x800');
  await dialog.getByTestId('build-close').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  // Saved first, the build takes the edits: nothing is left out.
  await page.getByTestId('project-build').click();
  await page.getByRole('button', { name: 'Save and build' }).click();
  await untilBuildEnds(dialog);
  await expect(dialog.getByTestId('build-state')).toBeVisible();
  await expect(dialog.getByTestId('build-saved-motion')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
