/**
 * Helpers of the SEV editor and project scenarios: opening the sample project
 * through the in-app picker, reading the editor's state, and dragging event
 * markers on the event row (which is aligned with the timeline's time axis).
 */
import { dirname } from 'node:path';
import { expect, type ElectronApplication, type Page } from '@playwright/test';
import { stubNativeDialogs, type Workspace } from './fixtures';
import { clickPickerFile, pickerGoTo, pieceWithItsOwnTime, waitForDocument } from './ui';

/**
 * Answers the file dialog that `click` opens with a workspace file: the in-app
 * picker over loopback (open: pick the file; save: type its name; folder: go to
 * the file's folder and choose it), a stubbed native dialog under Electron (a
 * folder choice is its folder dialog there, then the page's Export for the files named).
 */
export async function chooseFile(
  page: Page,
  electronApp: ElectronApplication | null,
  workspace: Workspace,
  relative: string,
  mode: 'open' | 'save' | 'folder',
  click: () => Promise<void>,
): Promise<void> {
  if (electronApp) {
    await stubNativeDialogs(
      electronApp,
      mode === 'open'
        ? { openPath: workspace.path(relative) }
        : // Export All's native folder dialog answers the folder the file goes into.
          mode === 'folder'
          ? { openPath: dirname(workspace.path(relative)) }
          : { savePath: workspace.path(relative) },
    );
    await click();
    // Export All's folder from the system's dialog: the page names the files and asks before writing (round 19).
    if (mode === 'folder') await page.getByTestId('project-export-confirm').click();
    return;
  }
  await click();
  const picker = page.getByTestId('file-picker');
  await expect(picker).toBeVisible();
  if (mode === 'open') await clickPickerFile(picker, relative);
  else if (mode === 'folder')
    await pickerGoTo(picker, relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '');
  else {
    // From the workspace: the name typed holds its folder.
    await pickerGoTo(picker, '');
    await picker.getByTestId('picker-name').fill(relative.replace(/\.[^.]+$/, ''));
  }
  await picker.getByTestId('picker-ok').click();
  await expect(picker).toHaveCount(0);
}

/**
 * Opens the workspace's project file `relative` with the project panel's Open button. It waits only for the
 * file dialog to close: a project may open whole, with problems, or not at all, so each caller waits for what
 * it expects to see.
 */
export async function openProject(
  page: Page,
  electronApp: ElectronApplication | null,
  workspace: Workspace,
  relative: string,
): Promise<void> {
  await chooseFile(page, electronApp, workspace, relative, 'open', () =>
    page.getByTestId('project-open').first().click(),
  );
}

/** Opens sample.actguy.json through the project panel and waits for walk + walk.sev. */
export async function openSampleProject(
  page: Page,
  workspace: Workspace,
  electronApp: ElectronApplication | null = null,
): Promise<void> {
  // A piece that brings its own time (ui.ts pieceWithItsOwnTime): its waits have no limit but the piece's.
  await pieceWithItsOwnTime('the sample project opened', async () => {
    await waitForDocument(page);
    await openProject(page, electronApp, workspace, 'sample.actguy.json');
    await expect(page.getByTestId('project-motion')).toHaveCount(4, { timeout: 0 });
    await expect(page.getByTestId('sev-file')).toContainText('walk.sev', { timeout: 0 });
    await waitForDocument(page);
  });
}

/**
 * The cold rounds' start with the project: the browser build's page at the laptop size the rounds were tried at
 * (1280x800; the Electron window keeps its own), then the sample project open as openSampleProject opens it.
 */
export async function openSampleProjectAt1280(
  page: Page,
  workspace: Workspace,
  electronApp: ElectronApplication | null,
): Promise<void> {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
}

/** Frames of the event markers, in document order. */
export async function markerFrames(page: Page): Promise<number[]> {
  const frames = await page
    .getByTestId('sev-marker')
    .evaluateAll((els) =>
      els.map((e) => [Number((e as HTMLElement).dataset.index), Number((e as HTMLElement).dataset.frame)]),
    );
  return frames.sort((a, b) => a[0] - b[0]).map((f) => f[1]);
}

/** x (page coordinates) of a frame on the event row. */
export async function trackX(page: Page, frame: number): Promise<number> {
  const track = page.getByTestId('sev-track');
  const box = (await track.boundingBox())!;
  const d = await track.evaluate((el) => ({ ...(el as HTMLElement).dataset }));
  const left = Number(d.plotLeft);
  const right = Number(d.plotRight);
  const start = Number(d.viewStart);
  const end = Number(d.viewEnd);
  return box.x + left + ((frame - start) / (end - start)) * (right - left);
}

/** Drags the marker of event `index` to `frame`. */
export async function dragMarker(page: Page, index: number, frame: number): Promise<void> {
  const marker = page.locator(`[data-testid="sev-marker"][data-index="${index}"]`);
  const box = (await marker.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  const to = await trackX(page, frame);
  await page.mouse.move((box.x + to) / 2, y, { steps: 4 });
  await page.mouse.move(to, y, { steps: 4 });
  await page.mouse.up();
}
