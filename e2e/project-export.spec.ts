/**
 * File › Export All as glTF… / Export All as MSH… on the sample project: every motion and alias into the folder the
 * picker chooses (a folder since round 18), progress per motion, Cancel that leaves nothing written, and the dialog listing every file
 * written (docs/interchange.md, "Whole project").
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { chooseFile, openProject, openSampleProject } from './sev-ui';
import { parseMshNodesJson } from '../shared/msh/nodesJson';
import { readGltfContainer } from '../shared/interchange/gltf/glb';

const ENTRIES = ['walk', 'cmu_01_01', 'walk_rough', 'walk_60', 'walk_slow'];

/** The export the app's main process holds at its third entry (the MSH cancel's, below). */
const HELD_EXPORT = 40;
test.use({ workHold: { ACTGUY_E2E_HOLD_EXPORT: String(HELD_EXPORT) } });

test('Export All writes every motion and alias as glTF and as MSH, and Cancel writes nothing', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.setTimeout(240_000);
  await openSampleProject(page, workspace, electronApp);
  const dialog = page.getByTestId('project-export-dialog');
  const state = dialog.getByTestId('project-export-state');
  const menuItem = (id: string) => async () => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId(id).click();
  };

  /** Screenshots `name`-1280 and `name`-1920 (1280x800 and 1920x1080), then back at 1280x800. */
  const atBothSizes = async (name: string) => {
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await saveScreenshot(`${name}-${w}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  // glTF: first which motion each file holds (the source, as offered), then one .glb per entry, named after it, in the
  // folder chosen in the picker.
  const options = page.getByTestId('export-all-gltf-options');
  const gltfOf =
    (source: 'source' | 'compressed', look = false) =>
    async () => {
      await menuItem('menu-export-all-gltf')();
      // The source is offered, and the focus is on it: the arrow keys choose, Enter goes on to the picker.
      await expect(options.getByTestId('export-all-gltf-source')).toBeChecked();
      await expect(options.getByTestId('export-all-gltf-source')).toBeFocused();
      await options.getByTestId(`export-all-gltf-${source}`).check();
      if (look) await atBothSizes('project-export-gltf-options');
      // What comes next is a folder, not a file name (the picker chooses the folder to export into).
      await expect(options.getByTestId('export-all-gltf-choose-file')).toHaveText('Choose folder…');
      await options.getByTestId('export-all-gltf-choose-file').click();
    };
  await chooseFile(page, electronApp, workspace, 'walk.glb', 'folder', gltfOf('source', true));
  await expect(state).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(dialog.getByTestId('project-export-row')).toHaveCount(5);
  await expect(state).toHaveText(`Exported 4 motions and 1 alias as glTF into ${workspace.dir}, as one unit.`);
  await expect(dialog.getByTestId('project-export-written')).toContainText('walk_slow (alias of walk)');
  for (const name of ENTRIES) {
    const path = workspace.path(`${name}.glb`);
    expect(existsSync(path), name).toBe(true);
    expect(readGltfContainer(new Uint8Array(readFileSync(path))).json.animations?.[0]?.name).toBe(name);
  }
  await atBothSizes('project-export-gltf-done');
  await dialog.getByTestId('project-export-close').click();
  await expect(dialog).toHaveCount(0);

  // The compressed motions, into the same folder: every .glb replaced by the motion the game plays, named as before.
  const source = new Map(ENTRIES.map((name) => [name, readFileSync(workspace.path(`${name}.glb`))]));
  await chooseFile(page, electronApp, workspace, 'walk.glb', 'folder', gltfOf('compressed'));
  await expect(state).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  // The project's build cache, as its Build uses it: each motion reused (the project's check, which compresses, may
  // have stored it first) or compressed and stored, none rejected.
  const folder = workspace.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(state).toHaveText(
    new RegExp(
      `^Exported 4 motions and 1 alias as glTF \\(compressed motions\\) into ${folder}, as one unit \\(cache: [0-4] reused, 0 rejected, [0-4] compressed\\)\\.$`,
    ),
  );
  await atBothSizes('project-export-gltf-compressed-done');
  for (const name of ENTRIES) {
    const bytes = readFileSync(workspace.path(`${name}.glb`));
    expect(bytes.equals(source.get(name)!), name).toBe(false);
    expect(readGltfContainer(new Uint8Array(bytes)).json.animations?.[0]?.name).toBe(name);
  }
  await dialog.getByTestId('project-export-close').click();
  await expect(dialog).toHaveCount(0);

  // MSH to the end: three files an entry, the alias's payloads named after it.
  await chooseFile(page, electronApp, workspace, 'walk.res8', 'folder', menuItem('menu-export-all-msh'));
  await expect(state).toHaveAttribute('data-state', 'done', { timeout: 180_000 });
  await expect(dialog.getByTestId('project-export-row')).toHaveCount(5);
  for (const name of ENTRIES) {
    const nodes = parseMshNodesJson(readFileSync(workspace.path(`${name}.nodes.json`), 'utf8'), name);
    expect([nodes.res8File, nodes.res19File]).toEqual([`${name}.res8`, `${name}.res19`]);
  }
  await saveScreenshot('project-export-msh-done-1280');
  await dialog.getByTestId('project-export-close').click();

  // MSH, cancelled while it fits: a project of 40 entries of the sample's short walk, Cancel pressed once the third is
  // under way. Nothing is written. The app's main process holds the export there (e2e/holdWorker.cjs, preloaded in the
  // loopback server and in Electron alike: main is never told of the thread's later entries or its end), so the press
  // always comes before the commit however fast the fits are.
  const many = {
    version: 1,
    motions: Array.from({ length: HELD_EXPORT }, (_, k) => ({ name: `cmu_${k}`, mtn: 'walk.mtn' })),
    outputs: { mar: 'many.mar', sar: 'many.sar' },
  };
  writeFileSync(workspace.path('many.actguy.json'), JSON.stringify(many));
  await openProject(page, electronApp, workspace, 'many.actguy.json');
  await expect(page.getByTestId('project-motion')).toHaveCount(HELD_EXPORT);
  await chooseFile(page, electronApp, workspace, 'cmu_0.res8', 'folder', menuItem('menu-export-all-msh'));
  // The first fit waits for the check of the project just opened, which compresses its motion too: a limit from that
  // work, not the default 10 s.
  await expect(state).toContainText('Exporting motion 3 of 40', { timeout: 120_000 });
  await expect(dialog.getByTestId('project-export-progress')).toBeVisible();
  await saveScreenshot('project-export-msh-running');
  await dialog.getByTestId('project-export-cancel').click();
  await expect(state).toHaveAttribute('data-state', 'cancelled');
  await expect(state).toHaveText('Cancelled: nothing was written.');
  expect(readdirSync(workspace.dir).filter((f) => /^cmu_\d+\.(res8|res19|nodes\.json)$/.test(f))).toEqual([]);
  await dialog.getByTestId('project-export-close').click();
  expect(pageErrors).toEqual([]);
});
