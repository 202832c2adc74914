/**
 * File > Import of several files at once (docs/import.md): BVH and FBX takes
 * chosen together become one .mtn per clip beside them and join the open
 * project in the order chosen, as one undo step; a file whose name breaks the
 * motion-name rule makes the whole import write nothing, and says which.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { ElectronApplication, Page } from '@playwright/test';
import { expect, stubNativeDialogs, test, type Workspace } from './fixtures';
import { openSampleProject } from './sev-ui';
import { clickPickerFile } from './ui';
import { expectInfoShown, recordInfo } from './infoRecord';
import { fbxScene, writeFbxBinary } from '../shared/interchange/fbx/testFixtures';
import { readMtn } from '../shared/mtn/read';
import { readFileSync } from 'node:fs';
import { LONG_SPINE_BVH } from '../shared/testing/bvhFixtures';

/** File > Import…, the options as they are, then these workspace files chosen together (in this order). */
async function importSeveral(
  page: Page,
  electronApp: ElectronApplication | null,
  workspace: Workspace,
  files: string[],
  shot?: () => Promise<void>,
): Promise<void> {
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-import').click();
  const options = page.getByTestId('import-options');
  await expect(options).toBeVisible();
  if (electronApp) {
    await stubNativeDialogs(electronApp, { openPaths: files.map((f) => workspace.path(f)) });
    await options.getByTestId('import-choose-file').click();
    return;
  }
  await options.getByTestId('import-choose-file').click();
  const picker = page.getByTestId('file-picker');
  await expect(picker).toContainText('click to choose one or several files');
  // Each in its folder, as a user goes there (the picker shows one folder at a time).
  for (const f of files) await clickPickerFile(picker, f);
  await expect(picker.getByTestId('picker-ok')).toHaveText(`Open ${files.length} files`);
  await shot?.();
  await picker.getByTestId('picker-ok').click();
  await expect(picker).toHaveCount(0);
}

test('several BVH and FBX files import at once: one .mtn per clip beside them, added to the open project in order, all or nothing', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  mkdirSync(workspace.path('takes'));
  writeFileSync(workspace.path('takes/walk_b.bvh'), LONG_SPINE_BVH);
  writeFileSync(workspace.path('takes/idle.fbx'), writeFbxBinary(fbxScene({ frames: 11 })));
  writeFileSync(workspace.path('takes/hero.fbx'), writeFbxBinary(fbxScene({ clips: ['Jump', 'Crouch'], frames: 7 })));
  writeFileSync(workspace.path('takes/bad take.bvh'), LONG_SPINE_BVH);
  await openSampleProject(page, workspace, electronApp);

  // A name outside the motion-name rule: nothing is written, the project is unchanged, the file is named.
  await importSeveral(page, electronApp, workspace, ['takes/walk_b.bvh', 'takes/bad take.bvh']);
  await expect(
    page
      .getByTestId('message-error')
      .filter({ hasText: 'Could not import bad take.bvh: motion name "bad take" has whitespace' }),
  ).toHaveCount(1, { timeout: 30_000 });
  await expect(
    page.getByTestId('message-error').filter({ hasText: '1 of 2 failed; nothing was written (all or nothing)' }),
  ).toHaveCount(1);
  expect(existsSync(workspace.path('takes/walk_b.mtn'))).toBe(false);
  await expect(page.getByTestId('project-motion')).toHaveCount(4);

  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  // The batch's summary is recorded as it shows (it fades 6 s later), and checked once the project lists the motions.
  await recordInfo(page);
  await importSeveral(
    page,
    electronApp,
    workspace,
    ['takes/hero.fbx', 'takes/walk_b.bvh', 'takes/idle.fbx'],
    async () => {
      await saveScreenshot('import-batch-picker-1280');
    },
  );
  await expect(page.getByTestId('project-motion')).toHaveCount(8, { timeout: 30_000 });
  expect(
    await page.getByTestId('project-motion').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name)),
  ).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60', 'hero_Jump', 'hero_Crouch', 'walk_b', 'idle']);
  await expectInfoShown(
    page,
    /Imported 4 motion\(s\): wrote 4 motion\(s\) to .*takes; added hero_Jump, hero_Crouch, walk_b, idle to the project \(not saved yet\)/,
    1,
  );
  await expect(page.getByTestId('project-dirty')).toHaveCount(1);
  for (const [f, frames] of [
    ['hero_Jump', 6],
    ['hero_Crouch', 6],
    ['walk_b', 8],
    ['idle', 10],
  ] as const)
    expect(readMtn(new Uint8Array(readFileSync(workspace.path(`takes/${f}.mtn`)))).frameCount).toBe(frames);
  await saveScreenshot('import-batch-project-1280');
  if (!electronApp) {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await saveScreenshot('import-batch-project-1920');
  }
  expect(pageErrors).toEqual([]);
});
