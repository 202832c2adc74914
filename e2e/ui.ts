/**
 * Helpers the product scenarios share: waiting for the sample, mapping frames
 * to canvas coordinates (the canvases publish their time axis as data-*
 * attributes), the in-app file picker, and screenshots of single panels.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './electron-binary';
import { runningElectronApp, stubNativeDialogs } from './fixtures';
import { readMtn } from '../shared/mtn/read';
import { KeyFlag, lockedJointAt } from '../shared/motion/types';

export const SCREENSHOT_DIR = join(repoRoot, 'e2e-output', 'screenshots');

/** The Edit menu's Undo item as it reads ("Undo Add ..."), the menu closed again. */
export async function undoLabel(page: Page): Promise<string> {
  await page.getByTestId('menu-edit').click();
  const label = (await page.getByTestId('menu-undo').locator('.menu-label').textContent()) ?? '';
  await page.keyboard.press('Escape');
  return label.trim();
}

/**
 * Waits until the document is open and its first compression is shown. `timeout` bounds each wait (0: none, for a
 * piece that brings its own time, as `waitForCapture`).
 */
export async function waitForDocument(page: Page, name = 'walk', { timeout = 30_000 } = {}): Promise<void> {
  if (!started.has(page)) {
    // The page's first document is the app's start (its page loaded, its worker started, the motion opened and
    // compressed): a piece that brings its own time. At load 27, the 1280x800 `layout-modes` scenario went past its
    // 60 s in its first steps, before any other heavy piece (docs/testing.md, "Tests under load, round 5").
    started.add(page);
    return pieceWithItsOwnTime(`the app started with ${name} open and compressed`, () =>
      waitForDocument(page, name, { timeout: 0 }),
    );
  }
  await expect(page.getByTestId('doc-name')).toHaveText(name, { timeout });
  await expect(page.getByTestId('stat-total-keys')).toHaveText(/^\d+$/, { timeout });
  await waitForCompression(page, { timeout });
}
/** The pages whose first document `waitForDocument` has waited for. */
const started = new WeakSet<Page>();

/**
 * Waits until the CMU capture (`cmu_01_01`, 31 joints, the largest motion the scenarios open) is open and its first
 * compression is shown: a piece that brings its own time (`pieceWithItsOwnTime`), as the sample project's open. Its
 * waits have no limit but the piece's; they had 30 s each inside the scenario's 60 s on the whole (docs/testing.md,
 * "Tests under load, round 5").
 */
export async function waitForCapture(page: Page, name = 'cmu_01_01'): Promise<void> {
  await pieceWithItsOwnTime(`${name} opened and its first compression shown`, () =>
    waitForDocument(page, name, { timeout: 0 }),
  );
}

/**
 * The cold rounds' start: the browser build's page at the laptop size the rounds were tried at (1280x800; the
 * Electron window keeps its own), then the sample open as waitForDocument waits for it.
 */
export async function waitForDocumentAt1280(page: Page, electronApp: unknown): Promise<void> {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
}

/** Types `frame` into the playhead's frame field and presses Enter, as a user moves the playhead to it. */
export async function goToFrame(page: Page, frame: number): Promise<void> {
  await page.getByTestId('frame-number').fill(String(frame));
  await page.getByTestId('frame-number').press('Enter');
}

/**
 * Waits until no compression is in flight and the refined result has replaced the instant greedy one (the
 * stats answer the latest edit and will not change on their own any more).
 */
export async function waitForCompression(page: Page, { timeout = 30_000 } = {}): Promise<void> {
  await expect(page.getByTestId('compress-pending')).toHaveCount(0, timeout === 0 ? { timeout } : {});
  await expect(page.locator('[data-testid="compress-stage"][data-stage="greedy"]')).toHaveCount(0, { timeout });
}

/**
 * Lets the page render `count` animation frames. A check that something did NOT happen
 * (playback stayed paused, a click selected nothing) waits for rendered frames, the unit the
 * app works in, rather than a fixed number of milliseconds.
 */
export async function animationFrames(page: Page, count = 10): Promise<void> {
  await page.evaluate(
    (n) =>
      new Promise<void>((done) => {
        let left = n;
        const step = () => (--left <= 0 ? done() : requestAnimationFrame(step));
        requestAnimationFrame(step);
      }),
    count,
  );
}

/** x of a frame in a canvas that publishes data-plot-left/right and data-view-start/end. */
export async function frameX(canvas: Locator, frame: number): Promise<number> {
  const a = await canvas.evaluate((el) => ({ ...(el as HTMLElement).dataset }));
  const left = Number(a.plotLeft);
  const right = Number(a.plotRight);
  const start = Number(a.viewStart);
  const end = Number(a.viewEnd);
  return left + ((frame - start) / (end - start)) * (right - left);
}

export async function canvasData(canvas: Locator): Promise<Record<string, string>> {
  return canvas.evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}

/** Clicks the curve plot at a frame (plain: goes to the frame; with Control: adds or removes a user key there). */
export async function clickCurveFrame(
  page: Page,
  frame: number,
  modifiers: ('Control' | 'Shift' | 'Alt')[] = [],
): Promise<void> {
  const canvas = page.getByTestId('curve-canvas');
  const d = await canvasData(canvas);
  const y = (Number(d.plotTop) + Number(d.plotBottom)) / 2;
  await canvas.click({ position: { x: await frameX(canvas, frame), y }, modifiers });
}

/** Ctrl+clicks a frame in the curve view: adds or removes the selected joint's user key there. */
export async function toggleCurveKey(page: Page, frame: number): Promise<void> {
  await clickCurveFrame(page, frame, ['Control']);
}

/** Drags in the timeline's lock row from one frame to another. */
export async function dragLockRow(page: Page, from: number, to: number): Promise<void> {
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  const d = await canvasData(canvas);
  const y = box.y + Number(d.lockRowY);
  await page.mouse.move(box.x + (await frameX(canvas, from)), y);
  await page.mouse.down();
  await page.mouse.move(box.x + (await frameX(canvas, (from + to) / 2)), y, { steps: 4 });
  await page.mouse.move(box.x + (await frameX(canvas, to)), y, { steps: 4 });
  await page.mouse.up();
}

/**
 * Drags a project row onto another with the HTML5 drag the panel uses. Chromium fires dragover only on a drag
 * move that stays over the element the last one entered, and Playwright's dragTo ends on the move that enters the
 * target, so whether the drop was accepted hung on timing (a CI run lost the gesture that way). Here the pointer
 * moves once more inside the target, the gesture is held until the target shows it is the drop place (the row's
 * .drop class, set by its dragover) and only then released; a gesture lost before any dragover, or released without
 * moving a row, is made again, at most three times, never after one that moved a row. An app whose rows take no
 * dragover still fails here; one whose drop moves nothing fails at the caller's check of the order.
 */
export async function dragProjectRow(page: Page, from: string, onto: string): Promise<void> {
  const row = (name: string) => page.locator(`[data-testid="project-motion"][data-name="${name}"]`);
  const order = () =>
    page.getByTestId('project-motion').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name).join());
  await waitForCompression(page);
  // Each row's figures arrive as its motion is compressed, and a row grows a line when they do: the rows measured before
  // then moved under the pointer (a CI run pressed on the row above the one meant, and dragged that). So the drag waits
  // until every row shows its figures.
  const rows = page.getByTestId('project-motion');
  await expect.poll(async () => (await rows.count()) - (await page.getByTestId('project-motion-size').count())).toBe(0);
  const before = await order();
  for (let attempt = 1; ; attempt++) {
    const a = (await row(from).boundingBox())!;
    const b = (await row(onto).boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + 4, { steps: 2 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
    // Chromium fires dragover only on a move that stays over the element it entered: one more small move.
    await page.mouse.move(b.x + b.width / 2 + 3, b.y + b.height / 2 + 1, { steps: 2 });
    try {
      await expect(row(onto)).toHaveClass(/\bdrop\b/, { timeout: 3_000 });
    } catch (e) {
      await page.mouse.up();
      // A drag that began late may still have dropped on this release: never make a second move (the caller
      // checks where the row went).
      await animationFrames(page);
      if ((await order()) !== before) return;
      if (attempt === 3) throw e;
      continue;
    }
    await page.mouse.up();
    // A CI run saw the target marked and the release then drop nothing (the row stayed): the order is checked and a
    // gesture that moved no row is made again, like one lost before its dragover.
    await animationFrames(page);
    if ((await order()) !== before || attempt === 3) return;
  }
}

/** Clicks the timeline's trace row at a frame (toggles a TRACE key). */
export async function clickTraceRow(page: Page, frame: number): Promise<void> {
  const canvas = page.getByTestId('timeline-canvas');
  const d = await canvasData(canvas);
  await canvas.click({ position: { x: await frameX(canvas, frame), y: Number(d.traceRowY) } });
}

/** The curve view's joint picker's choices: "Root translation", then "<index> <name>" per joint in skeleton order. */
export async function jointLabels(page: Page): Promise<string[]> {
  const picker = page.getByTestId('joint-select');
  await picker.click();
  const items = page.getByTestId('joint-select-tree').getByTestId('joint-tree-item');
  const labels = await items.evaluateAll((els) =>
    els
      .map((e) => ({
        joint: Number((e as HTMLElement).dataset.joint),
        text: e.querySelector('.joint-tree-name')!.textContent!,
      }))
      .sort((a, b) => a.joint - b.joint)
      .map((e) => e.text),
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('joint-select-tree')).toHaveCount(0);
  return labels;
}

/** Picks joint `joint` (-1: the first extra, root translation or none) in a joint tree picker. */
export async function pickJoint(page: Page, picker: Locator, joint: number): Promise<void> {
  await picker.click();
  await page.locator(`[data-testid="joint-tree-item"][data-joint="${joint}"]`).click();
  await expect(picker).toHaveAttribute('data-value', String(joint));
}

/** Selects a joint by name in the curve view's joint picker (typed into its filter, Enter). */
export async function selectJoint(page: Page, name: string): Promise<void> {
  const picker = page.getByTestId('joint-select');
  await picker.click();
  const items = page.getByTestId('joint-select-tree').getByTestId('joint-tree-item');
  const joint = await items.evaluateAll(
    (els, n) =>
      els
        .find((e) => e.querySelector('.joint-tree-name')!.textContent!.replace(/^\d+ /, '') === n)
        ?.getAttribute('data-joint') ?? null,
    name,
  );
  if (joint === null) throw new Error(`no joint named ${name}`);
  await items.and(page.locator(`[data-joint="${joint}"]`)).click();
  await expect(page.getByTestId('timeline-selected')).toHaveText(name);
}

/** Selects a joint and toggles a user key on it with K over the curve view, leaving an unsaved edit. */
export async function makeKeyEdit(page: Page, joint: string): Promise<void> {
  await selectJoint(page, joint);
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('k');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await waitForCompression(page);
}

/**
 * File > Open… then picks a workspace file in the in-app picker (under Electron: the native open dialog,
 * answered with the workspace file). With `discardEdits` the unsaved-changes question that comes first is
 * answered "Discard".
 */
export async function openThroughPicker(
  page: Page,
  relativePath: string,
  options: { discardEdits?: boolean } = {},
): Promise<void> {
  const electron = runningElectronApp();
  if (electron) await stubNativeDialogs(electron.app, { openPath: electron.workspace.path(relativePath) });
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-open').click();
  if (options.discardEdits) {
    await expect(page.getByTestId('confirm-dialog')).toContainText('unsaved changes');
    await page.getByTestId('confirm-discard').click();
  }
  if (electron) return;
  const picker = page.getByTestId('file-picker');
  await expect(picker).toBeVisible();
  await clickPickerFile(picker, relativePath);
  await picker.getByTestId('picker-ok').click();
  await expect(picker).toHaveCount(0);
}

/** The folder bar's words for workspace folder `folder` ('' the root): "…: workspace/out". */
function pickerFolderText(folder: string): RegExp {
  const shown = folder ? `workspace/${folder}` : 'workspace';
  return new RegExp(`: ${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/**
 * Goes to the workspace folder `folder` ('' the root) in the in-app picker, as a user does: Up to the workspace, then
 * into each folder on the way. A picker that lists every file flat (no folder bar) stays as it is.
 */
export async function pickerGoTo(picker: Locator, folder: string): Promise<void> {
  const where = picker.getByTestId('picker-folder');
  if ((await where.count()) === 0) return;
  let now = ((await where.textContent()) ?? '').replace(/^[^:]*: workspace\/?/, '');
  while (now) {
    now = now.includes('/') ? now.slice(0, now.lastIndexOf('/')) : '';
    await picker.getByTestId('picker-up').click();
    await expect(where).toHaveText(pickerFolderText(now));
  }
  for (const part of folder ? folder.split('/') : []) {
    now = now ? `${now}/${part}` : part;
    await picker
      .getByTestId('picker-folder-row')
      .filter({ hasText: new RegExp(`^${part.replace(/[.]/g, '\\.')}/`) })
      .click();
    await expect(where).toHaveText(pickerFolderText(now));
  }
}

/** Makes the folder `name` in the in-app picker's folder, as a user does (New folder, its name, Enter), and goes into it. */
export async function pickerNewFolder(picker: Locator, name: string): Promise<void> {
  await picker.getByTestId('picker-new-folder').click();
  await picker.getByTestId('picker-new-folder-name').fill(name);
  await picker.getByTestId('picker-new-folder-name').press('Enter');
}

/** Clicks the workspace file `relativePath` in the in-app picker, going to its folder first (pickerGoTo). */
export async function clickPickerFile(picker: Locator, relativePath: string): Promise<void> {
  const slash = relativePath.lastIndexOf('/');
  await pickerGoTo(picker, slash < 0 ? '' : relativePath.slice(0, slash));
  const name = relativePath.slice(slash + 1);
  await picker
    .getByTestId('picker-file')
    .filter({ hasText: new RegExp(`^${name.replace(/[.]/g, '\\.')}`) })
    .click();
}

/** Saves a screenshot of one element into e2e-output/screenshots/. */
export async function screenshotOf(locator: Locator, project: string, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await locator.screenshot({ path: join(SCREENSHOT_DIR, `${project}-${name}.png`) });
}

/** First run of `length` frames of an MTN where no joint is locked and no trace key sits (with a free frame each side). */
export function freeRun(bytes: Uint8Array, length: number): number {
  const m = readMtn(bytes);
  for (let start = 2; start + length < m.frameCount - 2; start++) {
    let ok = true;
    for (let f = start - 1; f <= start + length && ok; f++)
      ok = lockedJointAt(m, f) < 0 && !(m.translationKeyInfo[f * 4] & KeyFlag.TRACE);
    if (ok) return start;
  }
  throw new Error('the sample has no free frames for a lock');
}

/** The input's placeholder and its room when the placeholder does not fit inside its padding box, else null. */
export async function placeholderCut(input: Locator): Promise<string | null> {
  return input.evaluate((el) => {
    const field = el as HTMLInputElement;
    const st = getComputedStyle(field);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
    const room = field.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
    return ctx.measureText(field.placeholder).width > room + 0.5 ? `${field.placeholder} in ${room} px` : null;
  });
}

/** Selects (and inputs) under `root` whose shown text does not fit their box: "0 SE_FOOT_I", "RightFoo". */
export async function clippedControls(page: Page, root: string): Promise<string[]> {
  return page.locator(root).evaluate((el) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const out: string[] = [];
    for (const c of Array.from(
      el.querySelectorAll<HTMLSelectElement | HTMLInputElement>('select, input[type="text"], input:not([type])'),
    )) {
      const r = c.getBoundingClientRect();
      if (r.width === 0) continue;
      const st = getComputedStyle(c);
      ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
      const text = c instanceof HTMLSelectElement ? (c.selectedOptions[0]?.text ?? '') : c.value;
      // A select keeps room for its arrow (about 20 px) besides its padding.
      const room =
        c.clientWidth -
        parseFloat(st.paddingLeft) -
        parseFloat(st.paddingRight) -
        (c instanceof HTMLSelectElement ? 18 : 0);
      if (ctx.measureText(text).width > room + 0.5)
        out.push(`${text} (${Math.round(ctx.measureText(text).width)} px in ${Math.round(room)} px)`);
    }
    return out;
  });
}

/** Moves the playhead to `frame` and presses L over the curve view (locks the selected joint there). */
export async function lockAt(page: Page, frame: number): Promise<void> {
  await page.getByTestId('frame-number').fill(String(frame));
  await page.getByTestId('frame-number').press('Enter');
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('l');
}

/** The frames of walk.mtn (at `path`) that a joint other than Neck locks: a lock of Neck there is refused. */
export function lockedFrames(path: string): number[] {
  const walk = readMtn(readFileSync(path));
  return Array.from({ length: walk.frameCount + 1 }, (_, f) => f).filter(
    (f) => lockedJointAt(walk, f) >= 0 && walk.joints[lockedJointAt(walk, f)].name !== 'Neck',
  );
}

/**
 * Builds the open project's archives as a user does: the project panel's Build button, then the build dialog until
 * the build is done. Returns the dialog. A piece that brings its own time (`untilBuildEnds`); `timeout` is its bound.
 */
export async function buildArchives(page: Page, { timeout = SCENARIO_PIECE_MS } = {}): Promise<Locator> {
  await page.getByTestId('project-build').click();
  const dialog = page.getByTestId('build-dialog');
  await untilBuildEnds(dialog, 'done', timeout);
  return dialog;
}

/**
 * Waits until the build dialog's build has ended in `state` ('done' or 'failed'): a piece that brings its own time
 * (`pieceWithItsOwnTime`). A build compresses each motion of the project (the CMU capture the longest); its wait was
 * 60 s inside the scenario's 60 s on the whole (docs/testing.md, "Tests under load, round 5").
 */
export async function untilBuildEnds(
  dialog: Locator,
  state: 'done' | 'failed' = 'done',
  ms = SCENARIO_PIECE_MS,
): Promise<void> {
  await pieceWithItsOwnTime(
    `the build ${state === 'done' ? 'done' : 'ended failed'}`,
    () => expect(dialog.getByTestId('build-state')).toHaveAttribute('data-state', state, { timeout: 0 }),
    ms,
  );
}

/** As `untilBuildEnds`, for the project export dialog's export ('done' or 'failed'). */
export async function untilExportEnds(
  dialog: Locator,
  state: 'done' | 'failed' = 'done',
  ms = SCENARIO_PIECE_MS,
): Promise<void> {
  await pieceWithItsOwnTime(
    `the export ${state === 'done' ? 'done' : 'ended failed'}`,
    () => expect(dialog.getByTestId('project-export-state')).toHaveAttribute('data-state', state, { timeout: 0 }),
    ms,
  );
}

/**
 * Waits until each of the open project's motions shows its figures: its first compression, made as the project opens.
 * A piece that brings its own time (`pieceWithItsOwnTime`): its wait was 60 s, the whole scenario's limit.
 */
export async function waitForProjectFigures(page: Page, motions = 4): Promise<void> {
  await pieceWithItsOwnTime(`the figures of the project's ${motions} motions`, () =>
    expect(page.getByTestId('project-motion-stats').filter({ hasText: /keys/ })).toHaveCount(motions, {
      timeout: 0,
    }),
  );
}

/** One piece's bound in `pieceOfScenario`: the sample project's open is the longest, about 25 s at load 20 here. */
const SCENARIO_PIECE_MS = 90_000;

/**
 * One piece of a long scenario (the project opened, a resize and the layout that follows it): bounded by a limit of
 * its own, and a piece still pending then is named in the error. A scenario made of such pieces drops the limit on
 * its whole (`test.setTimeout(0)`): its limit is then derived from its work, where 60 s on the whole went red at load
 * 23 while every piece was well (docs/testing.md, "Tests under load, round 3").
 */
export async function pieceOfScenario<T>(title: string, body: () => Promise<T>, ms = SCENARIO_PIECE_MS): Promise<T> {
  try {
    return await test.step(title, body, { timeout: ms });
  } catch (e) {
    if (e instanceof Error && /^Step timeout of/.test(e.message))
      throw new Error(`still pending after ${ms / 1000} s: ${title}`, { cause: e });
    throw e;
  }
}

/**
 * A heavy piece shared by many scenarios (the sample project opened, the project's first compressions) that brings its
 * own time: the running scenario's limit grows by the piece's bound, and the piece is a `pieceOfScenario` (a hang
 * names it). A scenario's limit is then derived from its work: Playwright's 60 s for its own steps, and each such
 * piece's bound on top, where a scenario that opened the sample project three times had 60 s for all (at load 19 to 28
 * on the 2-core machine, seven of seven cold-round13 scenarios went past it: docs/testing.md, "Tests under load,
 * round 4"). A scenario with no limit on the whole (`test.setTimeout(0)`) keeps none.
 */
export async function pieceWithItsOwnTime<T>(
  title: string,
  body: () => Promise<T>,
  ms = SCENARIO_PIECE_MS,
): Promise<T> {
  const info = test.info();
  if (info.timeout > 0) info.setTimeout(info.timeout + ms);
  return pieceOfScenario(title, body, ms);
}
