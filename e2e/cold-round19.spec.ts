/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * nineteenth round).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import type { Page, Route } from '@playwright/test';
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
import { decodeIpcFrame, encodeIpcFrame } from '../shared/ipc/codec';
import type { ProjectExportStatus } from '../shared/ipc/project';
import type { Workspace } from './fixtures';

/**
 * A technical animator grouping the timeline in Tuning mode at 1280x800: with the legs open it showed three chain
 * headers above three of their joints. When selecting a joint folds the other chains, its chain's header now comes
 * to the top of the rows: the legs' header and five of their joints. Mutations that fail: revealChain not called
 * (three legs); chainToTop not set by openSelectedChain.
 */
test('a grouped timeline in Tuning mode at 1280x800 shows the open chain’s joints under the headers', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the Electron window keeps its own size');
  await waitForDocumentAt1280(page, electronApp);
  await page.keyboard.press('Control+1');
  await page.getByTestId('timeline-group').click();
  await selectJoint(page, 'LeftFoot');
  const canvas = page.getByTestId('timeline-canvas');
  await expect
    .poll(async () => (await canvasData(canvas)).rows.split(',').filter((r) => /[a-z]/.test(r)))
    .toEqual(['spine+', 'arms+', 'legs-']);
  const legsInView = async () => {
    const d = await canvasData(canvas);
    const first = Math.round((await canvas.evaluate((c) => c.parentElement!.scrollTop)) / Number(d.rowHeight));
    return d.rows
      .split(',')
      .slice(first, first + Number(d.visibleRows))
      .filter((r) => /^\d+$/.test(r) && Number(r) >= 15 && Number(r) <= 22).length;
  };
  await expect.poll(legsInView).toBeGreaterThanOrEqual(5);
  // The layout is as before: the curves keep their 120 px of values (e2e/user-guide-screens.spec.ts).
  const curves = await canvasData(page.getByTestId('curve-canvas'));
  expect(Number(curves.plotBottom) - Number(curves.plotTop)).toBeGreaterThanOrEqual(120);
  await saveScreenshot('round19-tuning-grouped-1280x800');
  // A click on another leg's row changes no fold and scrolls nothing under the pointer.
  const before = await canvas.evaluate((c) => c.parentElement!.scrollTop);
  await selectJoint(page, 'LeftLeg');
  expect(await canvas.evaluate((c) => c.parentElement!.scrollTop)).toBe(before);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await saveScreenshot('round19-tuning-grouped-1920x1080');
  expect(pageErrors).toEqual([]);
});

const SMALL_PROJECT = {
  version: 1,
  motions: [{ name: 'walk', mtn: 'walk.mtn' }],
  aliases: [{ name: 'walk_slow', target: 'walk', speed: 0.5 }],
  outputs: { mar: 'out/small.mar', sar: 'out/small.sar' },
};

async function openSmallProject(page: Page, workspace: Workspace): Promise<void> {
  writeFileSync(workspace.path('small.actguy.json'), JSON.stringify(SMALL_PROJECT));
  await openProject(page, null, workspace, 'small.actguy.json');
  await expect(page.getByTestId('project-motion')).toHaveCount(1);
}

/**
 * A lead exporting the compressed motions again and again: Export All as glTF asked each time, starting at the
 * source. The choice is kept with the page's preferences (a reload keeps it), the single export's menu item sets it
 * too, and a stored value the app does not write falls back to the source with the preferences' warning. Mutations
 * that fail: askGltfSource not keeping the choice; the dialog starting at 'source' again; the single export not
 * setting it; the checked choice not taking the focus.
 */
test('Export All as glTF offers the motion a glTF export wrote last', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the picker answered here is the browser build’s');
  await waitForDocumentAt1280(page, electronApp);
  await openSmallProject(page, workspace);
  const options = page.getByTestId('export-all-gltf-options');
  const ask = async () => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-export-all-gltf').click();
    await expect(options).toBeVisible();
  };
  await ask();
  await expect(options.getByTestId('export-all-gltf-source')).toBeChecked();
  await options.getByTestId('export-all-gltf-compressed').check();
  await options.getByTestId('export-all-gltf-choose-file').click();
  const picker = page.getByTestId('file-picker');
  await picker.getByTestId('picker-cancel').click();
  await expect(picker).toHaveCount(0);

  // Asked again, and after a reload: the compressed motions, the focus on them (the arrows choose from there).
  await ask();
  await expect(options.getByTestId('export-all-gltf-compressed')).toBeChecked();
  await expect(options.getByTestId('export-all-gltf-compressed')).toBeFocused();
  await saveScreenshot('round19-export-all-gltf-remembered-1280x800');
  await options.getByTestId('export-all-gltf-cancel').click();
  await page.reload();
  await waitForDocument(page);
  await openSmallProject(page, workspace);
  await ask();
  await expect(options.getByTestId('export-all-gltf-compressed')).toBeChecked();
  await page.setViewportSize({ width: 1920, height: 1080 });
  await saveScreenshot('round19-export-all-gltf-remembered-1920x1080');
  await options.getByTestId('export-all-gltf-cancel').click();

  // File › Export glTF (source): its menu item is the single export's choice, and Export All offers it next.
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-export-gltf-source').click();
  await page.getByTestId('confirm-metres').click();
  await expect(picker).toBeVisible();
  await picker.getByTestId('picker-cancel').click();
  await ask();
  await expect(options.getByTestId('export-all-gltf-source')).toBeChecked();
  await options.getByTestId('export-all-gltf-cancel').click();

  // A value the app does not write: the source, and the start says what it set aside.
  await page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('actguy.preferences')!) as { state: Record<string, unknown> };
    stored.state.gltfExportSource = 'decoded';
    localStorage.setItem('actguy.preferences', JSON.stringify(stored));
  });
  await page.reload();
  await waitForDocument(page);
  await openSmallProject(page, workspace);
  await expect(page.getByTestId('message-warning').filter({ hasText: 'actguy.preferences' })).toContainText(
    'gltfExportSource is of the wrong kind',
  );
  await ask();
  await expect(options.getByTestId('export-all-gltf-source')).toBeChecked();
  await options.getByTestId('export-all-gltf-cancel').click();
  expect(pageErrors).toEqual([]);
});

/**
 * The desktop app's Export All asks for the folder with the system's dialog, which says nothing of the files written
 * there: main then waits in state 'confirm' with the files it plans and those the folder holds
 * (electron/interchange/projectExportHandlers.test.ts), and the page says them before anything is written, with
 * Export and Cancel. Here main's answers of that path are given at the wire (the browser build's own export never
 * waits: its picker has said it); Export starts the real export of the request the page sent. Mutations that fail:
 * the export dialog's WillWrite left out in state 'confirm'; Export not calling confirmProjectExport; exportRunning
 * not counting 'confirm' (the page stops following the export); Cancel not asking main.
 */
test('the desktop path’s Export All says what it writes and replaces before writing, with Cancel', async ({
  page,
  workspace,
  server,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp || !server, 'main’s answers are given at the loopback wire');
  await waitForDocumentAt1280(page, electronApp);
  await openSmallProject(page, workspace);
  const folder = workspace.path('gltf');
  const reply = (route: Route, value: unknown) =>
    route.fulfill({
      status: 200,
      contentType: 'application/octet-stream',
      body: Buffer.from(encodeIpcFrame({ ok: true, value })),
    });
  const waiting = (replaced: string[]): ProjectExportStatus => ({
    exportId: 'asked',
    format: 'gltf',
    gltfSource: 'source',
    state: 'confirm',
    folder,
    planned: { files: ['walk.glb', 'walk_slow.glb'], replaced },
    done: 0,
    count: 0,
    current: null,
    written: [],
    errors: [],
    warnings: [],
  });
  let status = waiting(['walk.glb']);
  let started: { body: Buffer; headers: Record<string, string> } | null = null;
  let real: string | null = null;
  const asked: string[] = [];
  await page.route('**/rpc/startProjectExport', async (route) => {
    started = { body: route.request().postDataBuffer()!, headers: route.request().headers() };
    await reply(route, status);
  });
  await page.route('**/rpc/getProjectExportStatus', async (route) => {
    if (real === null) return reply(route, status);
    // Once confirmed, the real export's status, whichever id the page asks with.
    return route.continue({ postData: Buffer.from(encodeIpcFrame({ exportId: real })) });
  });
  await page.route('**/rpc/cancelProjectExport', async (route) => {
    asked.push('cancel');
    status = { ...status, state: 'cancelled' };
    await reply(route, status);
  });
  await page.route('**/rpc/confirmProjectExport', async (route) => {
    asked.push('confirm');
    const url = route
      .request()
      .url()
      .replace(/confirmProjectExport$/, 'startProjectExport');
    const res = await route.fetch({ url, postData: started!.body, headers: started!.headers });
    const body = await res.body();
    real = (decodeIpcFrame(new Uint8Array(body)) as { value: ProjectExportStatus }).value.exportId;
    await route.fulfill({ response: res, body });
  });
  const dialog = page.getByTestId('project-export-dialog');
  const state = dialog.getByTestId('project-export-state');
  const exportAll = async () => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-export-all-gltf').click();
    await page.getByTestId('export-all-gltf-source').check();
    await page.getByTestId('export-all-gltf-choose-file').click();
    // The system's folder dialog, here the picker: a new folder, gltf/.
    const picker = page.getByTestId('file-picker');
    await expect(picker).toBeVisible();
    // (the second time it starts there, where the last export went)
    if (!readdirSync(workspace.dir).includes('gltf')) {
      await pickerNewFolder(picker, 'gltf');
    }
    await expect(picker.getByTestId('picker-folder')).toHaveText('Export into: workspace/gltf');
    await picker.getByTestId('picker-ok').click();
  };

  await exportAll();
  await expect(state).toHaveAttribute('data-state', 'confirm');
  await expect(state).toHaveText(`Export into ${folder}?`);
  await expect(dialog.getByTestId('project-export-will-write')).toHaveText(
    'Writes 2 files here: walk.glb, walk_slow.glb',
  );
  await expect(dialog.getByTestId('project-export-will-replace')).toHaveText(
    '1 of them is here already and is replaced: walk.glb. Cancel and choose another folder to keep them.',
  );
  await saveScreenshot('round19-export-all-confirm-1280x800');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await saveScreenshot('round19-export-all-confirm-1920x1080');
  await page.setViewportSize({ width: 1280, height: 800 });
  // Cancel: main is told, and nothing is written.
  await dialog.getByTestId('project-export-cancel').click();
  await expect(state).toHaveText('Cancelled: nothing was written.');
  expect(asked).toEqual(['cancel']);
  expect(readdirSync(folder)).toEqual([]);
  await dialog.getByTestId('project-export-close').click();
  // Escape is the question's Cancel (mutation that fails: the confirm state's onEscape left out).
  status = waiting(['walk.glb']);
  await exportAll();
  await expect(state).toHaveAttribute('data-state', 'confirm');
  await page.keyboard.press('Escape');
  await expect(state).toHaveText('Cancelled: nothing was written.');
  expect(asked).toEqual(['cancel', 'cancel']);
  await dialog.getByTestId('project-export-close').click();

  // Again, nothing there: no replaced line; Export writes both.
  status = waiting([]);
  await exportAll();
  await expect(state).toHaveAttribute('data-state', 'confirm');
  await expect(dialog.getByTestId('project-export-will-replace')).toHaveCount(0);
  await dialog.getByTestId('project-export-confirm').click();
  await untilExportEnds(dialog);
  expect(asked).toEqual(['cancel', 'cancel', 'confirm']);
  expect(readdirSync(folder).sort()).toEqual(['walk.glb', 'walk_slow.glb']);
  await dialog.getByTestId('project-export-close').click();
  expect(pageErrors).toEqual([]);
});
