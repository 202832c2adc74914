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

/**
 * In the full layout at 1920x1080 the floor variants stand beside the SE table (about 370 px). For an SE with none
 * (SE 2, SE_CLOTH_SWISH) their heading squeezed its parts onto one line: "SE 2", "floor/wall variants" and the "Give
 * each floor its own SE" button each broke over two lines. The heading now wraps its parts whole. Mutation that
 * fails: the heading's flex-wrap taken out (the button on two lines).
 */
test("the floor variants' heading breaks no part of itself over two lines at 1920x1080", async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(electronApp !== null, 'sizes the browser page');
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.getByTestId('menu-view').click();
  await page.getByTestId('menu-show-all-panels').click();
  await page.locator('[data-testid="sev-se-row"][data-index="2"]').getByTestId('sev-se-on-floor').click();
  const head = page.getByTestId('sev-variants').locator('.sev-variants-head');
  await expect(head.getByTestId('sev-variants-add')).toHaveText('Give each floor its own SE');
  // Each part's text on one line: its text's boxes share one top.
  const lines = () =>
    head.evaluate((h) =>
      Array.from(h.children).map((c) => {
        const range = document.createRange();
        range.selectNodeContents(c);
        const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        return `${c.textContent}: ${tops.size}`;
      }),
    );
  await expect
    .poll(lines)
    .toEqual([
      ': 0',
      'SE 2: 1',
      'floor/wall variants: 1',
      expect.stringMatching(/^— none: every floor plays SE_CLOTH_SWISH\.: [12]$/),
      'Give each floor its own SE: 1',
    ]);
  await saveScreenshot('round27-variants-heading-1920x1080');
  expect(pageErrors).toEqual([]);
});
