import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ElectronApplication, Page } from '@playwright/test';
import { expect, stubNativeDialogs, test, type Workspace } from './fixtures';
import { jointLabels, pieceWithItsOwnTime, screenshotOf, waitForCompression, waitForDocument } from './ui';
import { expectInfoShown, recordInfo } from './infoRecord';
import { motionToGlb } from '../shared/interchange/gltf/export';
import { readGltfContainer, writeGlb } from '../shared/interchange/gltf/glb';
import { importMotionBytes } from '../shared/interchange/importMotion';
import { readMtn } from '../shared/mtn/read';
import { HEAD_CHAIN_BVH, hipsAtHeightBvh } from '../shared/testing/bvhFixtures';

/** The CMU take Debian's assimp-testmodels ships (31 joints, 120 fps); used when installed. */
const REAL_BVH = '/usr/share/assimp/models/BVH/01_03.bvh';

/**
 * Answers the file dialog that `click` opens with a workspace file: the in-app picker over loopback (for
 * 'save' it checks the proposed name and keeps it; `listing` is text the picker must show), a stubbed
 * native dialog under Electron (which cannot show what it would propose).
 */
async function answerFileDialog(
  page: Page,
  electronApp: ElectronApplication | null,
  workspace: Workspace,
  mode: 'open' | 'save',
  relativePath: string,
  click: () => Promise<void>,
  expectPicker: { proposed?: string; listing?: string } = {},
): Promise<void> {
  if (electronApp) {
    await stubNativeDialogs(
      electronApp,
      mode === 'open' ? { openPath: workspace.path(relativePath) } : { savePath: workspace.path(relativePath) },
    );
    await click();
    return;
  }
  await click();
  const picker = page.getByTestId('file-picker');
  await expect(picker).toBeVisible();
  if (expectPicker.listing) await expect(picker).toContainText(expectPicker.listing);
  if (mode === 'open')
    await picker
      .getByTestId('picker-file')
      .filter({ hasText: new RegExp(`^${relativePath.replace(/[.]/g, '\\.')}`) })
      .click();
  else {
    if (expectPicker.proposed) await expect(picker.getByTestId('picker-name')).toHaveValue(expectPicker.proposed);
    await picker.getByTestId('picker-name').fill(relativePath);
  }
  await picker.getByTestId('picker-ok').click();
  await expect(picker).toHaveCount(0);
}

/** File > Import Motion…, options (fps, scale), then the workspace file in the file dialog. */
async function importFile(
  page: Page,
  electronApp: ElectronApplication | null,
  workspace: Workspace,
  relativePath: string,
  options: { fps?: string; scale?: string; bvhPositions?: 'auto' | 'added' | 'local'; discardEdits?: boolean } = {},
): Promise<void> {
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-import').click();
  if (options.discardEdits) {
    await expect(page.getByTestId('confirm-dialog')).toContainText('unsaved changes');
    await page.getByTestId('confirm-discard').click();
  }
  const dialog = page.getByTestId('import-options');
  await expect(dialog).toBeVisible();
  if (options.fps) await dialog.getByTestId('import-fps').fill(options.fps);
  if (options.scale) await dialog.getByTestId('import-scale').fill(options.scale);
  if (options.bvhPositions) await dialog.getByTestId('import-bvh-positions').selectOption(options.bvhPositions);
  await answerFileDialog(
    page,
    electronApp,
    workspace,
    'open',
    relativePath,
    () => dialog.getByTestId('import-choose-file').click(),
    { listing: '.bvh .glb .gltf' },
  );
  await expect(dialog).toHaveCount(0);
}

/** The new document's joints as the joint list shows them (without the root translation entry). */
async function jointNames(page: Page): Promise<string[]> {
  const labels = await jointLabels(page);
  return labels.slice(1).map((l) => l.replace(/^\d+ /, ''));
}

test('File > Import opens a BVH as a new unsaved motion; Save As writes it; Export glTF (compressed) writes a GLB that imports back', async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
  pageErrors,
}, testInfo) => {
  await waitForDocument(page);
  writeFileSync(workspace.path('small.bvh'), HEAD_CHAIN_BVH);

  // The small BVH: three joints, frames 0..8.
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-import').click();
  await expect(page.getByTestId('import-options')).toBeVisible();
  await screenshotOf(page.getByTestId('import-options'), testInfo.project.name, 'import-options');
  await page.getByTestId('import-cancel').click();
  await expect(page.getByTestId('doc-name')).toHaveText('walk');

  // The import's summary is recorded as it shows: it fades 6 s later, and is checked after four other checks.
  await recordInfo(page);
  await importFile(page, electronApp, workspace, 'small.bvh');
  await expect(page.getByTestId('doc-name')).toHaveText('small');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page.getByTestId('statusbar')).toContainText('/ 8');
  expect(await jointNames(page)).toEqual(['Hips', 'Spine', 'Head']);
  await expectInfoShown(page, 'Imported small.bvh: 3 joints, frames 0..8 at 30 fps', 1);
  await waitForCompression(page);
  await expect(page.getByTestId('stat-total-keys')).toHaveText(/^\d+$/);

  // The real CMU take when installed, else the small one again at 15 fps and scale 2.
  const real = existsSync(REAL_BVH);
  if (real) copyFileSync(REAL_BVH, workspace.path('01_03.bvh'));
  else
    testInfo.annotations.push({
      type: 'note',
      description: `${REAL_BVH} is missing (apt package assimp-testmodels): the small BVH stands in`,
    });
  const file = real ? '01_03.bvh' : 'small.bvh';
  const name = real ? '01_03' : 'small';
  const options = real ? { scale: '5.644444' } : { fps: '15', scale: '2' };
  const expected = (
    await importMotionBytes(new Uint8Array(readFileSync(workspace.path(file))), file, {
      fps: Number(options.fps ?? 30),
      scale: Number(options.scale),
    })
  ).motion;
  // Replacing the unsaved import asks first. The real take (31 joints, 1127 frames) imported and its first compression
  // shown is a piece that brings its own time, as the CMU capture's open (`waitForCapture`): its waits were 30 s each
  // inside the scenario's 60 s, which at load 20 to 27 it ran in 102 s of 150 (docs/testing.md, "Tests under load, round 6").
  await pieceWithItsOwnTime(`${file} imported and its first compression shown`, async () => {
    await importFile(page, electronApp, workspace, file, { ...options, discardEdits: true });
    await expect(page.getByTestId('doc-name')).toHaveText(name, { timeout: 0 });
    await waitForCompression(page, { timeout: 0 });
    await expect(page.getByTestId('stat-total-keys')).toHaveText(/^\d+$/, { timeout: 0 });
  });
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page.getByTestId('statusbar')).toContainText(`/ ${expected.frameCount}`);
  expect(await jointNames(page)).toEqual(expected.joints.map((j) => j.name));
  if (real) expect([expected.joints.length, expected.frameCount]).toEqual([31, 1127]);
  // A pose away from the rest frame, for the screenshot.
  await page.getByTestId('frame-number').fill(String(Math.round(expected.frameCount / 3)));
  await page.getByTestId('frame-number').press('Enter');
  await saveScreenshot(`import-${name}`);

  // File > Save (no file yet) goes through Save As, proposing <name>.mtn beside the source.
  const saveFromMenu = async (): Promise<void> => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-save').click();
  };
  await answerFileDialog(page, electronApp, workspace, 'save', `${name}.mtn`, saveFromMenu, {
    proposed: `${name}.mtn`,
    listing: 'Save motion as',
  });
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  await expect(page.getByTestId('doc-name')).toHaveText(name);
  const saved = readMtn(readFileSync(workspace.path(`${name}.mtn`)));
  expect(saved.joints.map((j) => j.name)).toEqual(expected.joints.map((j) => j.name));
  expect(saved.frameCount).toBe(expected.frameCount);
  expect(saved.fps).toBe(expected.fps);
  expect(Buffer.from(saved.rotation.buffer).equals(Buffer.from(expected.rotation.buffer))).toBe(true);

  // Export glTF (compressed): the decoded MT3 as a .glb beside it.
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-export-gltf-compressed').click();
  // Units first: Blender reads metres (the import below undoes the scale).
  const units = page.getByTestId('confirm-dialog');
  await expect(units).toContainText('read metres');
  await screenshotOf(units, testInfo.project.name, 'export-gltf-units');
  await answerFileDialog(
    page,
    electronApp,
    workspace,
    'save',
    `${name}_compressed.glb`,
    () => units.getByTestId('confirm-metres').click(),
    {
      proposed: `${name}_compressed.glb`,
      listing: 'Export glTF of the compressed motion',
    },
  );
  const keys = await page.getByTestId('stat-total-keys').innerText();
  await expect(
    page
      .getByTestId('message-info')
      .filter({ hasText: `Exported ${workspace.path(`${name}_compressed.glb`)}: glTF of the compressed motion` }),
  ).toHaveCount(1);
  await expect(page.getByTestId('message-info').filter({ hasText: `, ${keys} keys,` })).toHaveCount(1);
  const glb = await importMotionBytes(
    new Uint8Array(readFileSync(workspace.path(`${name}_compressed.glb`))),
    `${name}_compressed.glb`,
  );
  expect(glb.motion.joints.map((j) => j.name)).toEqual(expected.joints.map((j) => j.name));
  expect(glb.motion.frameCount).toBe(expected.frameCount);
  expect(glb.warnings).toEqual([]);

  // Export glTF (source) too: the same skeleton and frames.
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-export-gltf-source').click();
  await answerFileDialog(
    page,
    electronApp,
    workspace,
    'save',
    `${name}.glb`,
    () => units.getByTestId('confirm-metres').click(),
    {
      proposed: `${name}.glb`,
      listing: 'Export glTF of the source motion',
    },
  );
  await expect(page.getByTestId('message-info').filter({ hasText: 'glTF of the source motion' })).toHaveCount(1);
  const sourceBytes = new Uint8Array(readFileSync(workspace.path(`${name}.glb`)));
  const source = (await importMotionBytes(sourceBytes, `${name}.glb`)).motion;
  expect([source.joints.length, source.frameCount]).toEqual([expected.joints.length, expected.frameCount]);
  // The file holds metres (root position ×0.01); importing it back gives the motion's own units.
  const rootNode = readGltfContainer(sourceBytes).json.nodes![0];
  expect(rootNode.translation![1]).toBeCloseTo(expected.translation[1] * 0.01, 4);
  expect(source.translation[1]).toBeCloseTo(expected.translation[1], 2);
  expect(pageErrors).toEqual([]);
});

test('a crawl judged as floating says which BVH positions read it as written, and that choice reads it so', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}, testInfo) => {
  await waitForDocument(page);
  // Hips at a third of their rest height, written as local positions (Blender): judged as displacements, they float.
  writeFileSync(workspace.path('crawl.bvh'), hipsAtHeightBvh(30));
  await importFile(page, electronApp, workspace, 'crawl.bvh');
  await expect(page.getByTestId('doc-name')).toHaveText('crawl');
  const floating = page.getByTestId('message-list').locator('.message').filter({ hasText: 'sit well off zero' });
  await expect(floating).toContainText('File › Import: BVH positions "local"');
  // The choice the warning names, in the dialog (the same take under another name: its motion shows when it is in).
  writeFileSync(workspace.path('crawl_local.bvh'), hipsAtHeightBvh(30));
  await importFile(page, electronApp, workspace, 'crawl_local.bvh', { bvhPositions: 'local', discardEdits: true });
  await expect(page.getByTestId('doc-name')).toHaveText('crawl_local');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  const saveFromMenu = async (): Promise<void> => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-save').click();
  };
  await answerFileDialog(page, electronApp, workspace, 'save', 'crawl_local.mtn', saveFromMenu);
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  // The hips crawl at 30, not at 120.
  expect(readMtn(readFileSync(workspace.path('crawl_local.mtn'))).translation[1]).toBe(30);
  // The override was for that file: the next import starts at auto again.
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-import').click();
  const dialog = page.getByTestId('import-options');
  await expect(dialog.getByTestId('import-bvh-positions')).toHaveValue('auto');
  await screenshotOf(dialog, testInfo.project.name, 'import-options-bvh-positions');
  await dialog.getByTestId('import-cancel').click();
  expect(pageErrors).toEqual([]);
});

test('a glTF with two clips asks which one; a broken BVH is an error and the document stays', async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
}, testInfo) => {
  await waitForDocument(page);
  const walk = readMtn(readFileSync(workspace.path('walk.mtn')));
  const { json, bin } = readGltfContainer(motionToGlb(walk, { animationName: 'Walk' }));
  const run = JSON.parse(JSON.stringify(json.animations![0]));
  run.name = 'Run';
  delete run.extras;
  json.animations!.push(run);
  writeFileSync(workspace.path('hero.glb'), writeGlb(json, bin));
  writeFileSync(
    workspace.path('broken.bvh'),
    HEAD_CHAIN_BVH.replace('\n0 90 0 0 0 0 0 0 0 0 0 0\n', '\n0 90 0 0 0 0 0 0 0 0 0\n'),
  );

  await importFile(page, electronApp, workspace, 'broken.bvh');
  const error = page.getByTestId('message-error');
  // Plain words first (what is wrong, what to do), the reader's precise message as Details.
  await expect(error).toContainText('Could not import broken.bvh: it has a mistake at line');
  await expect(error).toContainText('in a text editor, then import it again.');
  await expect(error).toContainText('Details: ');
  await expect(error).toContainText('broken.bvh');
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  await saveScreenshot('import-error');

  await importFile(page, electronApp, workspace, 'hero.glb');
  const question = page.getByTestId('confirm-dialog');
  await expect(question).toContainText('holds 2 animation clips. Which one?');
  await expect(question.getByTestId('confirm-0')).toContainText('Walk');
  await expect(question.getByTestId('confirm-1')).toContainText('Run');
  await screenshotOf(question, testInfo.project.name, 'import-clip-picker');
  await question.getByTestId('confirm-1').click();
  await expect(page.getByTestId('doc-name')).toHaveText('hero_Run');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page.getByTestId('statusbar')).toContainText(`/ ${walk.frameCount}`);
  expect(await jointNames(page)).toEqual(walk.joints.map((j) => j.name));
  await waitForCompression(page);
  await saveScreenshot('import-gltf-clip');
});
