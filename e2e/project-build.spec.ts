/**
 * The project panel and "Build archives": the sample project opens
 * with every motion's status, the archive order follows the panel, and the
 * built .mar/.sar read back with the right names and events.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { chooseFile, openSampleProject } from './sev-ui';
import { dragProjectRow, untilBuildEnds } from './ui';
import { readMar } from '../shared/mar/read';
import { readSar } from '../shared/sar/read';
import { readMt3 } from '../shared/mt3/read';
import { parseSevStrict } from '../shared/sev/parse';
import { gvStrCode } from '../shared/strcode';

function bytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

test('the sample project opens with every motion in archive order and its status', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  const motions = page.getByTestId('project-motion');
  await expect(motions).toHaveCount(4);
  expect(await motions.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name))).toEqual([
    'walk',
    'cmu_01_01',
    'walk_rough',
    'walk_60',
  ]);
  // the dry-run check fills in keys, bytes, max error and SEV events for each motion
  for (const [name, events] of [
    ['walk', 10],
    ['cmu_01_01', 30],
    ['walk_rough', 0],
  ] as const) {
    const row = page.locator(`[data-testid="project-motion"][data-name="${name}"]`);
    await expect(row.getByTestId('project-motion-stats')).toContainText(/\d+ keys/, { timeout: 30_000 });
    await expect(row.getByTestId('project-motion-events')).toHaveText(`${events} ev`);
    // Its MT3 size as every size in the window reads (renderer/project/byteSize.ts), to the byte in the tooltip.
    const size = row.getByTestId('project-motion-size');
    const exact = Number((await size.getAttribute('title'))!.replace(/^MT3: ([\d,]+) bytes$/, '$1').replace(/,/g, ''));
    expect(exact).toBeGreaterThan(0);
    await expect(size).toHaveText(exact < 1024 ? `${exact} bytes` : `${(exact / 1024).toFixed(1)} KiB`);
  }
  await expect(page.getByTestId('project-problems')).toHaveCount(0);
  // effective durations: frames / fps / speed (walk_60 is resampled from 60 fps; the alias walk_slow plays walk at half speed)
  const duration = (name: string) =>
    page.locator(`[data-testid="project-motion"][data-name="${name}"]`).getByTestId('project-motion-duration');
  await expect(duration('walk')).toHaveText('4.40 s');
  await expect(duration('cmu_01_01')).toHaveText('18.32 s');
  await expect(duration('walk_60')).toHaveText('2.20 s', { timeout: 30_000 });
  await expect(duration('walk_60')).toHaveAttribute(
    'title',
    'effective duration 2200 ms = 132 frames / 30 fps (resampled from 60 fps) / speed 2',
  );
  await expect(
    page.locator('[data-testid="project-alias"][data-name="walk_slow"]').getByTestId('project-alias-duration'),
  ).toHaveText('8.80 s');
  // the tuner compresses the open motion with the project's tolerances and overrides: its keys match the build's
  const walkStats = await page
    .locator('[data-testid="project-motion"][data-name="walk"]')
    .getByTestId('project-motion-stats')
    .textContent();
  await expect(page.getByTestId('stat-total-keys')).toHaveText(
    /^(\d+)$/.exec(/(\d+) keys/.exec(walkStats ?? '')![1])![1],
  );
  // selecting a motion opens it in the tuner with its SEV
  await page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').click();
  await expect(page.getByTestId('doc-name')).toHaveText('cmu_01_01', { timeout: 30_000 });
  await expect(page.getByTestId('sev-file')).toContainText('cmu_01_01.sev');
  await expect(page.getByTestId('sev-marker')).toHaveCount(30);
  await saveScreenshot('project-panel-cmu');

  // Export .mt3 for this one motion
  await chooseFile(page, electronApp, workspace, 'cmu_export.mt3', 'save', () =>
    page.getByTestId('project-export-mt3').click(),
  );
  await expect.poll(() => existsSync(workspace.path('cmu_export.mt3'))).toBe(true);
  const mt3 = readMt3(bytes(workspace.path('cmu_export.mt3')));
  expect(mt3.numFrames).toBe(687);
  expect(mt3.name).toBe(gvStrCode('cmu_01_01'));
  expect(pageErrors).toEqual([]);
});

test('reorder by drag, build the archives with progress, and read the .mar names and .sar events back', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  // drag walk_rough above cmu_01_01: the archive order follows the panel
  await dragProjectRow(page, 'walk_rough', 'cmu_01_01');
  const order = () =>
    page.getByTestId('project-motion').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name));
  await expect.poll(order).toEqual(['walk', 'walk_rough', 'cmu_01_01', 'walk_60']);
  await expect(page.getByTestId('project-dirty')).toBeVisible();

  await page.getByTestId('project-build').click();
  const dialog = page.getByTestId('build-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('build-progress')).toBeVisible();
  await untilBuildEnds(dialog, 'done');
  // Done means full: validate + 4 motions (the alias is not compressed again) + write, and the fill spans the whole bar.
  const bar = dialog.getByTestId('build-progress');
  await expect(bar).toHaveAttribute('data-motions-done', '4');
  await expect(bar).toHaveAttribute('aria-valuenow', '6');
  await expect(bar).toHaveAttribute('aria-valuemax', '6');
  await expect(bar).toHaveAttribute('data-fraction', '1');
  const [fillW, barW] = await bar.evaluate((el) => [
    el.querySelector('[data-testid="build-progress-fill"]')!.getBoundingClientRect().width,
    el.clientWidth,
  ]);
  expect(fillW).toBeCloseTo(barW, 0);
  await expect(dialog.getByTestId('build-written')).toContainText('stage.mar');
  await saveScreenshot('project-build-done');
  await dialog.getByTestId('build-close').click();
  // Nothing changed since: the next Build is up to date (docs/cache.md), compresses and writes nothing, and says so.
  await page.getByTestId('project-build').click();
  await untilBuildEnds(dialog, 'done');
  await expect(dialog.getByTestId('build-state')).toContainText('Up to date');
  await expect(bar).toHaveAttribute('data-fraction', '1');
  await expect(bar).toContainText('up to date');
  await expect(dialog.getByTestId('build-motions')).toHaveCount(0);
  // What it left as it was, each file with its size on disk (it listed nothing, as if there were no archives).
  await expect(dialog.getByTestId('build-output')).toHaveCount(3);
  for (const name of ['stage.mar', 'stage.sar', 'stage.report.json']) {
    const row = dialog.locator(`[data-testid="build-output"][data-name="${name}"]`);
    await expect(row).toHaveAttribute('data-unchanged', 'true');
    await expect(row).toHaveAttribute('data-bytes', String(statSync(workspace.path(`out/${name}`)).size));
    await expect(row).toContainText(`unchanged: ${workspace.path(`out/${name}`)}`);
    await expect(row.getByTestId('build-output-size')).toHaveText(/^\d+\.\d KiB$|^\d+ bytes$/);
  }
  // Its warnings are the last build's (walk_60 resampled), over files it did not write.
  await expect(dialog.getByTestId('build-warnings-head')).toHaveText(
    '1 warning: the archives stand as the last build wrote them. Check that this is what the game expects:',
  );
  await dialog.getByTestId('build-close').click();

  const mar = readMar(bytes(workspace.path('out/stage.mar')));
  const sar = readSar(bytes(workspace.path('out/stage.sar')));
  expect(mar.entries.map((e) => e.name)).toEqual(
    ['walk', 'walk_rough', 'cmu_01_01', 'walk_60', 'walk_slow'].map(gvStrCode),
  ); // the alias walk_slow is the last entry
  expect(sar.entries.map((e) => e.name)).toEqual(mar.entries.map((e) => e.name));
  const sevEvents = (file: string) =>
    parseSevStrict(readFileSync(workspace.path(file), 'utf8'))
      .events.map((e) => ({ frame: e.frame, se: e.se, joint: e.joint ?? 0xff }))
      .sort((a, b) => a.frame - b.frame);
  expect(sar.entries[0].events).toEqual(sevEvents('walk.sev'));
  expect(sar.entries[1].events).toEqual([]);
  expect(sar.entries[2].events).toEqual(sevEvents('cmu_01_01.sev'));
  // floor variants reached the SAR: SE 0 of walk has 8 different codes
  expect(new Set(sar.entries[0].seCodes.subarray(0, 8)).size).toBe(8);
  expect(existsSync(workspace.path('out/stage.report.json'))).toBe(true);

  // Save writes the new order (atomic) and the project is clean again
  await page.getByTestId('project-save').click();
  await expect(page.getByTestId('project-dirty')).toHaveCount(0);
  const saved = JSON.parse(readFileSync(workspace.path('sample.actguy.json'), 'utf8'));
  expect(saved.motions.map((m: { name: string }) => m.name)).toEqual(['walk', 'walk_rough', 'cmu_01_01', 'walk_60']);
  expect(pageErrors).toEqual([]);
});

/**
 * The build cancelled: the app's main process (the loopback server in Chromium, Electron's) holds a build from its
 * first motion's progress while this file exists (e2e/holdWorker.cjs), which the scenario makes once the project's
 * own check (a build too, which must end) is over. One file for each run of the scenarios (the runner's process id),
 * removed after the scenario.
 */
const holdBuild = join(tmpdir(), `actguy-e2e-hold-build-${process.pid}`);
test.describe("a build held in the app's main process", () => {
  test.use({ workHold: { ACTGUY_E2E_HOLD_BUILD: holdBuild } });
  test.afterEach(() => rmSync(holdBuild, { force: true }));

  test('a build can be cancelled and then leaves nothing behind', async ({
    page,
    workspace,
    electronApp,
    pageErrors,
  }) => {
    await openSampleProject(page, workspace, electronApp);
    // Opening the project checks it (a dry-run build), which leaves every motion's compression in the build cache: a
    // build after it compresses nothing and was done before Cancel reached it (CI red on dafb661d). The app's main
    // process holds the build from then on (holdBuild), so Cancel always comes first however fast it is: no motion is
    // lengthened, and the build finds every one in the cache.
    const cmu = page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]');
    await expect(cmu.getByTestId('project-motion-stats')).toContainText(/\d+ keys/, { timeout: 60_000 });
    await expect(page.getByTestId('project-check')).toHaveText('Check');
    writeFileSync(holdBuild, '');
    await page.getByTestId('project-build').click();
    const dialog = page.getByTestId('build-dialog');
    await dialog.getByTestId('build-cancel').click();
    await expect(dialog.getByTestId('build-state')).toHaveAttribute('data-state', 'cancelled');
    await expect(dialog.getByTestId('build-state')).toContainText('nothing was written');
    // Nothing may appear later either: judged once the build's worker has ended (a fixed wait passed on a machine slow
    // enough that a build left running had not written yet).
    await expect(dialog.getByTestId('build-state')).toHaveAttribute('data-stopped', 'true');
    expect(existsSync(workspace.path('out'))).toBe(false);
    await dialog.getByTestId('build-close').click();
    await expect(dialog).toHaveCount(0);
    expect(pageErrors).toEqual([]);
  });
});

test('add a motion to the project, check it, and remove it again', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProject(page, workspace, electronApp);
  await chooseFile(page, electronApp, workspace, 'cmu_01_01.mtn', 'open', () =>
    page.getByTestId('project-add-motion').click(),
  );
  const added = page.locator('[data-testid="project-motion"][data-name="cmu_01_01_2"]');
  await expect(added).toBeVisible();
  await expect(page.getByTestId('project-motion')).toHaveCount(5);
  await page.getByTestId('project-check').click();
  await expect(added.getByTestId('project-motion-stats')).toContainText(/\d+ keys/, { timeout: 30_000 });
  await expect(added.getByTestId('project-motion-events')).toHaveText('0 ev');
  // select it (opens in the tuner), then remove it from the project
  await added.click();
  await expect(page.getByTestId('doc-name')).toHaveText('cmu_01_01', { timeout: 30_000 });
  await page.getByTestId('project-remove-motion').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Remove cmu_01_01_2 from the project?');
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('project-motion')).toHaveCount(4);
  await expect(page.getByTestId('project-dirty')).toHaveCount(0); // back to the text on disk
  expect(pageErrors).toEqual([]);
});

test('a motion without a .sev gets its first one: events added in the app, saved beside the project and listed in it', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProject(page, workspace, electronApp);
  await page.locator('[data-testid="project-motion"][data-name="walk_rough"]').click();
  await expect(page.getByTestId('sev-file')).toContainText('walk_rough.sev (new)');
  await expect(page.getByTestId('sev-add-event')).toBeDisabled(); // no SE defined yet
  await page.getByTestId('sev-add-se-def').click();
  const name = page.locator('[data-testid="sev-se-row"][data-index="0"]').getByTestId('sev-se-name');
  await name.fill('SE_GEAR_RATTLE');
  await name.press('Enter');
  await expect(page.locator('[data-testid="sev-se-row"][data-index="0"]').getByTestId('sev-se-name-code')).toHaveText(
    '0x0111',
  );
  await page.getByTestId('frame-number').fill('12');
  await page.getByTestId('frame-number').press('Enter');
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(1);
  await page.getByTestId('project-save').click();
  await expect(page.getByTestId('project-dirty')).toHaveCount(0);
  const sev = parseSevStrict(readFileSync(workspace.path('walk_rough.sev'), 'utf8'));
  expect(sev.motion?.name).toBe('walk_rough');
  expect(sev.ses.map((d) => d.name)).toEqual(['SE_GEAR_RATTLE']);
  expect(sev.events.map((e) => e.frame)).toEqual([12]);
  const project = JSON.parse(readFileSync(workspace.path('sample.actguy.json'), 'utf8'));
  expect(project.motions[2]).toMatchObject({ name: 'walk_rough', sev: 'walk_rough.sev' });
  // the check now counts its event
  await expect(
    page.locator('[data-testid="project-motion"][data-name="walk_rough"]').getByTestId('project-motion-events'),
  ).toHaveText('1 ev', { timeout: 30_000 });
  expect(pageErrors).toEqual([]);
});
