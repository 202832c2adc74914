/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * eighteenth round).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import {
  canvasData,
  pickerNewFolder,
  selectJoint,
  untilExportEnds,
  waitForDocument,
  waitForDocumentAt1280,
} from './ui';
import { openProject } from './sev-ui';

/**
 * A technical animator opening a take kept in takes/day2: the open picker listed every file of the workspace, flat,
 * and every picker began at the workspace root. It now goes into folders (its filter kept, searching the folder shown
 * and those under it), starts where a file of that kind was last chosen, remembered across a reload, and falls back
 * to the root when that folder is gone or became a link. Mutations that fail: filesShown not kept to the folder
 * shown; main.tsx's startFolder left out; rememberPickerFolder not called; the picker's check of startFolder against
 * the listing's folders removed (the link case); the preference not read back (pickerFolders dropped in merge).
 */
test('the open picker goes into folders and starts where that kind of file was last chosen', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the native open dialog has folders and a last folder of its own');
  mkdirSync(workspace.path('takes/day2'), { recursive: true });
  copyFileSync(workspace.path('walk.mtn'), workspace.path('takes/day2/walk_b.mtn'));
  await waitForDocumentAt1280(page, electronApp);
  const picker = page.getByTestId('file-picker');
  const where = picker.getByTestId('picker-folder');
  const rows = picker.getByTestId('picker-folder-row');
  const files = picker.getByTestId('picker-file');
  const open = async () => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-open').click();
    await expect(picker).toBeVisible();
  };

  await open();
  await expect(where).toHaveText('Look in: workspace');
  await expect(picker.getByTestId('picker-up')).toBeDisabled();
  await expect(rows.filter({ hasText: /^takes\/folder$/ })).toHaveCount(1);
  await expect(files.filter({ hasText: 'walk_b' })).toHaveCount(0);
  // The filter searches the folder shown and those under it, each file shown by its path there.
  await picker.getByRole('textbox', { name: 'Filter files' }).fill('walk_b');
  await expect(files).toHaveText([/^takes\/day2\/walk_b\.mtn/]);
  await picker.getByRole('textbox', { name: 'Filter files' }).fill('');
  await rows.filter({ hasText: /^takes\// }).click();
  await expect(where).toHaveText('Look in: workspace/takes');
  await rows.filter({ hasText: /^day2\// }).click();
  await expect(where).toHaveText('Look in: workspace/takes/day2');
  await expect(files).toHaveText([/^walk_b\.mtn/]);
  await saveScreenshot('round18-open-picker-folders-1280x800');
  await files.click();
  await picker.getByTestId('picker-ok').click();
  await waitForDocument(page, 'walk_b');

  // Reloaded, on walk.mtn at the root again: the next Open starts in takes/day2, where the last motion was chosen.
  await page.reload();
  await waitForDocument(page);
  await open();
  await expect(where).toHaveText('Look in: workspace/takes/day2');
  // Alt+↑ goes up a folder, as a system dialog's does, also from the filter field (mutation: the key listener left
  // out); at the top it does nothing.
  await page.keyboard.press('Alt+ArrowUp');
  await expect(where).toHaveText('Look in: workspace/takes');
  await picker.getByRole('textbox', { name: 'Filter files' }).press('Alt+ArrowUp');
  await expect(where).toHaveText('Look in: workspace');
  await page.keyboard.press('Alt+ArrowUp');
  await expect(where).toHaveText('Look in: workspace');
  await expect(picker).toBeVisible();
  await page.keyboard.press('Escape');

  // The folder made a link (to sounds/): no longer a folder of the workspace's own, so the picker starts at the root.
  rmSync(workspace.path('takes/day2'), { recursive: true });
  symlinkSync(workspace.path('sounds'), workspace.path('takes/day2'));
  await open();
  await expect(where).toHaveText('Look in: workspace');
  await page.keyboard.press('Escape');
  // Gone: the root too.
  rmSync(workspace.path('takes'), { recursive: true });
  await open();
  await expect(where).toHaveText('Look in: workspace');

  await page.setViewportSize({ width: 1920, height: 1080 });
  await saveScreenshot('round18-open-picker-1920x1080');
  await page.keyboard.press('Escape');
  expect(pageErrors).toEqual([]);
});

/**
 * A lead exporting the whole project: Export All asked for a file name and took its folder, and said what it wrote
 * only afterwards. The picker now chooses a folder ("Choose this folder", New Folder there), names the files it will
 * write before anything is written, and says which it would replace. Mutations that fail: the folder mode's
 * WillWrite left out; exportFileNames not sent; the loopback export not joining the folder chosen (files land
 * elsewhere); the replaced line's check of the folder's files.
 */
test('Export All chooses a folder and says what it will write there first', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, "the desktop app's native dialog is its own");
  // One motion and an alias of it: the export is quick, the picker's words are what is tried.
  writeFileSync(
    workspace.path('small.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: 'walk.mtn' }],
      aliases: [{ name: 'walk_slow', target: 'walk', speed: 0.5 }],
      outputs: { mar: 'out/small.mar', sar: 'out/small.sar' },
    }),
  );
  await waitForDocumentAt1280(page, electronApp);
  await openProject(page, electronApp, workspace, 'small.actguy.json');
  await expect(page.getByTestId('project-motion')).toHaveCount(1);
  const picker = page.getByTestId('file-picker');
  const exportAll = async () => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-export-all-gltf').click();
    // Which motion each file holds comes first (the source, as offered), then the folder.
    await page.getByTestId('export-all-gltf-choose-file').click();
    await expect(picker).toBeVisible();
  };

  await exportAll();
  await expect(picker.getByTestId('picker-folder')).toHaveText('Export into: workspace');
  await expect(picker.getByTestId('picker-name')).toHaveCount(0);
  await expect(picker.getByTestId('picker-will-write')).toHaveText('Writes 2 files here: walk.glb, walk_slow.glb');
  await expect(picker.getByTestId('picker-will-replace')).toHaveCount(0);
  await pickerNewFolder(picker, 'gltf');
  await expect(picker.getByTestId('picker-folder')).toHaveText('Export into: workspace/gltf');
  await expect(picker.getByTestId('picker-ok')).toHaveText('Choose this folder');
  await saveScreenshot('round18-export-all-folder-1280x800');
  // Nothing is written before the folder is chosen.
  expect(readdirSync(workspace.path('gltf'))).toEqual([]);
  await picker.getByTestId('picker-ok').click();
  const dialog = page.getByTestId('project-export-dialog');
  await untilExportEnds(dialog);
  expect(readdirSync(workspace.path('gltf')).sort()).toEqual(['walk.glb', 'walk_slow.glb']);
  expect(existsSync(workspace.path('walk.glb'))).toBe(false);
  await dialog.getByTestId('project-export-close').click();

  // Again: it starts in gltf/, where the last export went, and says the files there are replaced.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await exportAll();
  await expect(picker.getByTestId('picker-folder')).toHaveText('Export into: workspace/gltf');
  await expect(picker.getByTestId('picker-will-replace')).toHaveText(
    'All 2 are here already and are replaced. Choose another folder (or make a new one) to keep them.',
  );
  await saveScreenshot('round18-export-all-replace-1920x1080');
  await picker.getByTestId('picker-cancel').click();
  await expect(picker).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

/**
 * A technical animator grouping the timeline at 1280x800: the chain headers took most of its six rows. Grouping now
 * folds every chain but the selected joint's when the rows do not fit, and selecting a joint of a folded chain
 * elsewhere (the curve view's picker) opens its chain and folds the others. Mutations that fail: the painter's
 * openSelectedChain call on grouping removed (all open); its call on a selection removed (legs stays folded).
 */
test('a grouped timeline that does not fit keeps the selected joint’s chain open', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  await page.keyboard.press('Control+1');
  const canvas = page.getByTestId('timeline-canvas');
  const groups = async () => (await canvasData(canvas)).rows.split(',').filter((r) => /[a-z]/.test(r));
  await page.getByTestId('timeline-group').click();
  // Hips is selected: the spine open, the others folded to their headers.
  await expect.poll(groups).toEqual(['spine-', 'arms+', 'legs+']);
  await saveScreenshot('round18-timeline-grouped-1280x800');
  await selectJoint(page, 'LeftFoot');
  await expect.poll(groups).toEqual(['spine+', 'arms+', 'legs-']);
  await expect(page.getByTestId('timeline-fold-legs')).toHaveAttribute('aria-expanded', 'true');
  // The selected row is in view under the headers.
  const d = await canvasData(canvas);
  const shown = d.rows.split(',');
  const row = shown.indexOf(String(await page.getByTestId('joint-select').getAttribute('data-value')));
  const first = Math.round((await canvas.evaluate((c) => c.parentElement!.scrollTop)) / Number(d.rowHeight));
  expect(row).toBeGreaterThanOrEqual(first);
  await page.getByTestId('timeline-group').click();
  expect(pageErrors).toEqual([]);
});
