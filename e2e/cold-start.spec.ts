/**
 * Papercuts a first-time user met trying the app cold at 1280x800 (docs/user-guide.md#tried-cold-2026-12-03): the
 * trace keys every motion has at its first and last frames offered a ✕ that could not take them away; Open Project
 * listed a motion's tuning file (walk.mtn.actguy-tuning.json) among the projects, and opening it listed four
 * "mistakes" to fix in a text editor.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openProject } from './sev-ui';
import { waitForDocument } from './ui';

test.use({ viewport: { width: 1280, height: 800 } });

test('the first and last trace keys read as fixed: no ✕, a tooltip saying why, a click still goes there', async ({
  page,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  const list = page.getByTestId('trace-list');
  await list.scrollIntoViewIfNeeded();
  const fixed = list.getByTestId('trace-fixed');
  // walk.mtn: 133 frames (0..132); the file flags 0 and 132 too, and 44 and 88.
  await expect(fixed).toHaveText(['0first', '132last']);
  await expect(list.getByTestId('trace-item')).toHaveText(['44✕', '88✕']);
  for (const chip of await fixed.all()) {
    await expect(chip.getByRole('button')).toHaveCount(1); // the frame, nothing to remove
    await expect(chip).toHaveAttribute('title', /cannot be removed/);
  }
  await expect(list.getByRole('button', { name: /^Remove trace key at (0|132)$/ })).toHaveCount(0);
  await saveScreenshot('trace-fixed-chips-1280x800');
  // A lock's ✕ says what it removes when hovered, as a trace key's does (it had no tooltip).
  await expect(page.getByRole('button', { name: 'Remove lock of LeftFoot at 5' })).toHaveAttribute(
    'title',
    'Remove the lock of LeftFoot on frames 5–12 (Ctrl+Z brings it back)',
  );

  // The frame button goes there.
  await fixed.filter({ hasText: 'last' }).getByRole('button').click();
  await expect(page.getByTestId('frame-number')).toHaveValue('132');

  // T at the last frame toggles the file's flag there (one undo step, the file changes), but the chip stays fixed.
  await page.locator('body').click({ position: { x: 640, y: 795 } });
  await page.keyboard.press('t');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(fixed).toHaveText(['0first', '132last']);
  await expect(list.getByRole('button', { name: /^Remove trace key at (0|132)$/ })).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test("Open Project does not offer a motion's tuning file among the projects", async ({
  page,
  workspace,
  appMode,
  pageErrors,
}) => {
  test.skip(appMode !== 'loopback', 'the list is the in-app picker (Electron shows its native dialog)');
  // Saving a motion writes its tuning file beside it; a second project (any name) is listed as one.
  writeFileSync(workspace.path('walk.mtn.actguy-tuning.json'), '{"version":1,"tolerances":{}}\n');
  writeFileSync(workspace.path('stage.json'), '{}\n');
  await waitForDocument(page);
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-open-project').click();
  await expect(page.getByTestId('picker-file')).toHaveText([/^sample\.actguy\.json/, /^stage\.json/]);
  await page.getByTestId('picker-cancel').click();
  expect(pageErrors).toEqual([]);
});

test('at 1280x800 and 1920x1080 the project header keeps one row and a refused build names its problems whole', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  // The sample project with a dozen keys it does not know: twelve problems refuse the build.
  const sample = JSON.parse(readFileSync(workspace.path('sample.actguy.json'), 'utf8')) as Record<string, unknown>;
  for (let i = 0; i < 12; i++) sample[`stray${i}`] = i;
  writeFileSync(workspace.path('stage_one.actguy.json'), JSON.stringify(sample, null, 2));
  await waitForDocument(page);
  await openProject(page, electronApp, workspace, 'stage_one.actguy.json');
  const build = page.getByTestId('project-build');
  await expect(build).toHaveText('Build archives (.mar, .sar)… (12 problems to fix)');
  const header = page.locator('.project-panel > .panel-header');
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    for (const mode of ['all', 'project']) {
      if (mode === 'project') await page.keyboard.press('Control+3');
      // The build button's label is not cut: all of it drawn, inside the panel.
      const cut = await build.evaluate((b) => {
        const text = document.createRange();
        text.selectNodeContents(b);
        const panel = b.closest('.panel')!.getBoundingClientRect();
        const box = b.getBoundingClientRect();
        // Past the button's own edge (its text), or past the panel's (the button itself).
        return Math.max(text.getBoundingClientRect().right - box.right, box.right - panel.right);
      });
      expect(cut, `${width}x${height} ${mode}: the build label is cut`).toBeLessThanOrEqual(0);
      // Title, name, Open… and Save on one row (Save wrapped under the title in the project column).
      const tops = await header.evaluate((h) =>
        Array.from(h.children)
          .filter((c) => !c.classList.contains('spacer'))
          .map((c) => Math.round(c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2)),
      );
      expect(Math.max(...tops) - Math.min(...tops), `${width}x${height} ${mode}: header rows`).toBeLessThanOrEqual(4);
      await expect(page.getByTestId('project-name')).toHaveText('stage_one');
      await saveScreenshot(`project-refused-build-${mode}-${width}x${height}`);
      if (mode === 'project') await page.keyboard.press('Control+3'); // back to every panel
    }
  }
  expect(pageErrors).toEqual([]);
});

test('outside a project the disabled sound-folder button says why it is disabled', async ({ page, pageErrors }) => {
  await waitForDocument(page);
  const folder = page.getByTestId('sev-sound-folder');
  await expect(folder).toBeDisabled();
  await expect(folder).toHaveText(/^Sounds: \d+$/);
  await expect(folder).toHaveAttribute('title', /open a project \(File › Open Project…\) to choose another$/);
  expect(pageErrors).toEqual([]);
});
