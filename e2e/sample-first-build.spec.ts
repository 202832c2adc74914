/**
 * A newcomer's first build: the bundled sample project, exactly as shipped,
 * checks clean and builds from the app (its outputs lie in its own folder, the
 * one rule Build applies), and Check lists whatever Build would refuse.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openProject } from './sev-ui';
import { untilBuildEnds, waitForDocument, waitForProjectFigures } from './ui';

test('the sample project as shipped checks clean and builds from the app', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'window size is set through the page viewport in Chromium');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await openProject(page, electronApp, workspace, 'sample.actguy.json');
  await expect(page.getByTestId('project-motion')).toHaveCount(4);
  // The project's first compressions (the CMU capture's the longest) are a piece with its own time.
  await waitForProjectFigures(page);
  await expect(
    page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').getByTestId('project-motion-stats'),
  ).toContainText(/\d+ keys/);
  await expect(page.getByTestId('project-problems')).toHaveCount(0);
  await expect(page.getByTestId('project-build')).toHaveClass(/\bprimary\b/);
  await expect(page.getByTestId('project-build')).toHaveText('Build archives (.mar, .sar)…');
  await page.getByTestId('project-build').click();
  const dialog = page.getByTestId('build-dialog');
  await untilBuildEnds(dialog, 'done');
  await saveScreenshot('sample-first-build-1280');
  for (const f of ['out/stage.mar', 'out/stage.sar', 'out/stage.report.json'])
    expect(existsSync(workspace.path(f))).toBe(true);
  await dialog.getByTestId('build-close').click();
  expect(pageErrors).toEqual([]);
});

test('Check reports the outputs Build would refuse, by path; Build says it is refused and still lists them', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  const path = workspace.path('sample.actguy.json');
  const json = JSON.parse(readFileSync(path, 'utf8'));
  json.outputs = { mar: '../elsewhere/stage.mar', sar: '../elsewhere/stage.sar' };
  writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
  await waitForDocument(page);
  await openProject(page, electronApp, workspace, 'sample.actguy.json');
  const problems = page.getByTestId('project-problem');
  await expect(problems).toHaveCount(3, { timeout: 30_000 });
  await expect(problems.first()).toContainText(
    /refused to write .*elsewhere.stage\.mar: a build writes only inside the project's folder/,
  );
  // the motions were still compressed: their figures show beside the problems
  await expect(
    page.locator('[data-testid="project-motion"][data-name="walk"]').getByTestId('project-motion-stats'),
  ).toContainText(/\d+ keys/);
  // The build would be refused: the button is no longer the blue call to action, it names the count and where to look.
  const build = page.getByTestId('project-build');
  await expect(build).not.toHaveClass(/\bprimary\b/);
  await expect(build).toHaveAttribute('data-blocked', 'true');
  await expect(build).toHaveText('Build archives (.mar, .sar)… (3 problems to fix)');
  await expect(build).toHaveAttribute(
    'title',
    /refused until these 3 problems are fixed: see Problems in the project panel/,
  );
  if (!electronApp) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(build).toBeInViewport({ ratio: 1 });
    await saveScreenshot('build-refused-1280');
  }
  // ...and it still runs the build, whose dialog lists the problems.
  await build.click();
  const dialog = page.getByTestId('build-dialog');
  await untilBuildEnds(dialog, 'failed');
  await expect(dialog).toContainText(/elsewhere.stage\.mar/);
  expect(pageErrors).toEqual([]);
});
