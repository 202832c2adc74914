/**
 * The tuner's settings are kept with the motion (docs/formats-tuning.md):
 * outside a project, Save writes them beside the .mtn, reopening restores
 * them, and `actguy compress` on the saved files writes the very .mt3 the app
 * exported. A bad tuning file is reported at its place and the motion still opens. In a project, Ctrl+S of a
 * motion whose tuning did not change (with an edited .sev) leaves the project file as it was, says nothing about
 * its tolerances and adds no undo step (it rewrote the file with its overrides reordered, said "save the project to
 * keep them", and wrote the project twice at once).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { openThroughPicker, selectJoint, waitForCapture, waitForCompression, waitForDocument } from './ui';
import { compressCommand } from '../electron/cli/commands/compress';

test('override and tolerance survive Save and reopen, and the export equals actguy compress of the saved files', async ({
  page,
  workspace,
  appMode,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(appMode === 'electron', 'reopening uses the in-app picker of the loopback transport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const defaultKeys = await page.getByTestId('stat-total-keys').innerText();
  await selectJoint(page, 'LeftFoot');
  await page.getByTestId('override-input').fill('0.25');
  await page.getByTestId('override-input').press('Enter');
  await page.getByTestId('tol-rotation').fill('2');
  await page.getByTestId('tol-rotation').press('Enter');
  await waitForCompression(page);
  const tunedKeys = await page.getByTestId('stat-total-keys').innerText();
  expect(tunedKeys).not.toBe(defaultKeys);

  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-export').click();
  const picker = page.getByTestId('file-picker');
  await picker.getByTestId('picker-name').fill('walk_app');
  await picker.getByTestId('picker-ok').click();
  await expect(page.getByTestId('message-info').filter({ hasText: 'Exported' })).toHaveCount(1);

  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('message-info').filter({ hasText: 'with its tuning' })).toHaveCount(1);
  const tuning = JSON.parse(readFileSync(workspace.path('walk.mtn.actguy-tuning.json'), 'utf8'));
  expect(tuning).toEqual({
    version: 1,
    tolerances: { position: 0.5, rotationDeg: 2, offset: 0.5, method: 'refined' },
    rotationOverridesDeg: { LeftFoot: 0.25 },
  });

  // The CLI reads the tuning file by default: its .mt3 is the app's, byte for byte.
  expect(await compressCommand.run([workspace.path('walk.mtn'), '-o', workspace.path('walk_cli.mt3'), '--quiet'])).toBe(
    0,
  );
  expect(
    Buffer.compare(readFileSync(workspace.path('walk_cli.mt3')), readFileSync(workspace.path('walk_app.mt3'))),
  ).toBe(0);
  await compressCommand.run([
    workspace.path('walk.mtn'),
    '-o',
    workspace.path('walk_plain.mt3'),
    '--quiet',
    '--no-tuning',
  ]);
  expect(
    Buffer.compare(readFileSync(workspace.path('walk_plain.mt3')), readFileSync(workspace.path('walk_app.mt3'))),
  ).not.toBe(0);

  // Reopen: the override and the tolerance are back, and so are the keys.
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  await openThroughPicker(page, 'walk.mtn');
  await waitForDocument(page);
  await expect(page.getByTestId('tol-rotation')).toHaveValue('2');
  await expect(page.getByTestId('stat-total-keys')).toHaveText(tunedKeys);
  await selectJoint(page, 'LeftFoot');
  await expect(page.getByTestId('override-input')).toHaveValue('0.25');
  await saveScreenshot('tuning-restored-1280');
  expect(pageErrors).toEqual([]);
});

test('a bad tuning file is reported at its place and the motion opens with the defaults', async ({
  page,
  workspace,
  appMode,
  pageErrors,
}) => {
  test.skip(appMode === 'electron', 'reopening uses the in-app picker of the loopback transport');
  await waitForDocument(page);
  writeFileSync(
    workspace.path('cmu_01_01.mtn.actguy-tuning.json'),
    '{"version": 1, "rotationOverridesDeg": {"LeftFut": 0.25}}\n',
  );
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  await expect(
    page.getByTestId('message-warning').filter({ hasText: '(rotationOverridesDeg.LeftFut): no joint named "LeftFut"' }),
  ).toHaveCount(1);
  await expect(page.getByTestId('tol-rotation')).toHaveValue('0.5');
  expect(pageErrors).toEqual([]);
});

test('Ctrl+S of a project motion whose tuning did not change leaves the project file as it was', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  const before = readFileSync(workspace.path('sample.actguy.json'), 'utf8');
  // An edited .sev: Ctrl+S reaches the tuner's Save and the SEV editor's.
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  await expect(page.getByTestId('message-info').filter({ hasText: /walk\.mtn/ })).toHaveCount(1);
  await expect(page.getByTestId('message-info').filter({ hasText: /walk\.sev/ })).toHaveCount(1);
  await expect(page.getByTestId('message-info').filter({ hasText: /sample\.actguy\.json|tolerances/ })).toHaveCount(0);
  expect(readFileSync(workspace.path('sample.actguy.json'), 'utf8')).toBe(before);
  await expect(page.getByTestId('project-dirty')).toHaveCount(0);
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText('Undo Add');
  await page.keyboard.press('Escape');
  expect(pageErrors).toEqual([]);
});
