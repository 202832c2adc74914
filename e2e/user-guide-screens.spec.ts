/**
 * The screenshots of docs/user-guide.md, taken by the app itself at 1280x800 and 1920x1080: every panel, then
 * each work mode (the tuner, the sound-events editor, the project mode) on the sample project, each checked for
 * the sizes a person needs (120+ px of curve values, whole timeline rows, event rows in the list).
 * Written to docs/images/*.png so the guide always shows the app as it behaves.
 */
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { repoRoot } from './electron-binary';
import { openSampleProject } from './sev-ui';
import type { Page } from '@playwright/test';
import { animationFrames, canvasData, waitForCompression } from './ui';

const DOCS_IMAGES = join(repoRoot, 'docs', 'images');

/** The least sizes a shot must show: px of curve values, whole timeline joint rows, px of 3D viewport height. */
interface Readable {
  curveValues: number;
  timelineRows: number;
  viewport: number;
}

/** The areas a shot shows (MODE_PANELS of renderer/project/layout.ts for a work mode; every one without). */
type Area = 'viewport' | 'curves' | 'timeline' | 'sev';
const AREAS: readonly Area[] = ['viewport', 'curves', 'timeline', 'sev'];

/**
 * Sizes the panels must keep in a shot: `need.curveValues` px of curve values, `need.timelineRows` whole joint
 * rows in the timeline, three event rows in the list, and `need.viewport` px of 3D view; `shown` are the areas the
 * shot must show, each checked for its size (a panel gone from the shot is a failure, not a size left unchecked).
 */
async function expectReadable(page: Page, shot: string, need: Readable, shown: readonly Area[]): Promise<void> {
  const areas: string[] = [];
  for (const id of AREAS) {
    const a = page.getByTestId(`area-${id}`);
    areas.push(`${id} ${(await a.isVisible()) ? Math.round((await a.boundingBox())!.height) : 0}`);
  }
  const curvesOn = await page.getByTestId('curve-canvas').isVisible();
  const cv = curvesOn ? await canvasData(page.getByTestId('curve-canvas')) : null;
  const tlOn = await page.getByTestId('timeline-canvas').isVisible();
  const tr = tlOn ? (await canvasData(page.getByTestId('timeline-canvas'))).visibleRows : '-';
  console.log(
    `SIZES ${shot}: ${areas.join(' ')}; curve values ${cv ? Number(cv.plotBottom) - Number(cv.plotTop) : '-'} px, timeline rows ${tr}`,
  );
  // Which areas show: the size checks below were each made only where their area showed, and passed a shot without it.
  const showing = AREAS.filter((_, i) => !areas[i].endsWith(' 0'));
  expect(showing, `${shot}: the areas shown`).toEqual(shown);
  const curves = page.getByTestId('curve-canvas');
  if (shown.includes('curves')) {
    const d = await canvasData(curves);
    expect(Number(d.plotBottom) - Number(d.plotTop), `${shot}: curve values`).toBeGreaterThanOrEqual(need.curveValues);
  }
  const timeline = page.getByTestId('timeline-canvas');
  if (shown.includes('timeline'))
    expect(Number((await canvasData(timeline)).visibleRows), `${shot}: timeline rows`).toBeGreaterThanOrEqual(
      need.timelineRows,
    );
  const viewport = page.getByTestId('area-viewport');
  if (shown.includes('viewport'))
    expect((await viewport.boundingBox())!.height, `${shot}: viewport height`).toBeGreaterThanOrEqual(need.viewport);
  // Event rows whole on screen: inside every box that clips them (the list's scroller, the editor's row) and the window.
  const rows = page.getByTestId('sev-event-row');
  if (shown.includes('sev')) {
    const shown = await rows.evaluateAll(
      (els) =>
        els.filter((r) => {
          const rb = r.getBoundingClientRect();
          if (rb.height === 0 || rb.top < 0 || rb.bottom > window.innerHeight) return false;
          for (let a = r.parentElement; a; a = a.parentElement) {
            if (getComputedStyle(a).overflowY === 'visible') continue;
            const ab = a.getBoundingClientRect();
            if (rb.top < ab.top - 0.5 || rb.bottom > ab.bottom + 0.5) return false;
          }
          // The status bar covers the window's last line.
          const status = document.querySelector('.area-status')?.getBoundingClientRect();
          return !status || rb.bottom <= status.top + 0.5;
        }).length,
    );
    console.log(`SIZES ${shot}: event rows ${shown}`);
    expect(shown, `${shot}: event rows in view`).toBeGreaterThanOrEqual(3);
  }
  // The SE table's sticky header is out of its column's sight, or has an SE row in sight under it: never left alone
  // at the column's top, cut in half, above the floor variants an event's selection brought into view.
  const seTable = page.getByTestId('sev-se-table');
  if (await seTable.isVisible()) {
    const lone = await seTable.evaluate((table) => {
      const column = table.closest('.sev-col')!.getBoundingClientRect();
      // A header cell, not the thead: the cells are what sticks (the thead's own box stays where the table starts).
      const head = table.querySelector('thead th')!.getBoundingClientRect();
      const headShown = head.bottom > column.top + 0.5 && head.top < column.bottom - 0.5;
      const rowShown = Array.from(table.querySelectorAll('tbody tr')).some((r) => {
        const b = r.getBoundingClientRect();
        return b.bottom > head.bottom + 0.5 && b.top < column.bottom - 0.5;
      });
      return headShown && !rowShown;
    });
    expect(lone, `${shot}: the SE table's header alone at its column's top`).toBe(false);
  }
  // The floor variants' heading is whole or out of sight, never cut by its column's top (the sound-events shot
  // kept the column's scroll from the all-panels layout, and the heading lost 2 px).
  const variants = page.getByTestId('sev-variants');
  if (await variants.isVisible()) {
    const cut = await variants.evaluate((v) => {
      const column = v.closest('.sev-col')!.getBoundingClientRect();
      const head = v.querySelector('.sev-variants-head')!.getBoundingClientRect();
      return head.top < column.top - 0.5 && head.bottom > column.top + 0.5 ? column.top - head.top : 0;
    });
    expect(cut, `${shot}: px of the floor variants' heading cut by its column's top`).toBe(0);
  }
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`user guide screenshots at ${size.width}x${size.height}`, async ({
    page,
    workspace,
    electronApp,
    saveScreenshot,
  }) => {
    test.skip(!!electronApp, 'the guide is shot once, in Chromium');
    await page.setViewportSize(size);
    await openSampleProject(page, workspace, electronApp);
    // 120 px of curve values wherever the curves show; six joint rows at 1280x800, twelve in the tuning and project
    // modes at 1920x1080 (the timeline takes the spare height); a 3D view the character stands in.
    const large = size.height >= 1080;
    const mode: Readable = { curveValues: 120, timelineRows: large ? 12 : 6, viewport: 240 };
    const shoot = async (name: string, shown: readonly Area[], need: Readable = mode) => {
      await page.mouse.move(1, 1);
      // The project's check settled: its list shows each motion's figures, not "checking…".
      await expect(page.getByTestId('project-check')).toHaveText('Check', { timeout: 30_000 });
      await animationFrames(page, 4);
      const path = await saveScreenshot(`${name}-${size.width}x${size.height}`);
      await expectReadable(page, `${name} at ${size.width}x${size.height}`, need, shown);
      // docs/images/<name>.png at 1280x800 (the guide's size), <name>-1920x1080.png for the large window.
      await page.screenshot({
        path: join(DOCS_IMAGES, size.width === 1280 ? `${name}.png` : `${name}-${size.width}x${size.height}.png`),
      });
      return path;
    };
    // Every panel (no work mode): the curves, the timeline and the event list together.
    for (const mode of ['tuning', 'sev', 'project']) {
      const button = page.getByTestId(`mode-${mode}`);
      if ((await button.getAttribute('aria-pressed')) === 'true') await button.click();
    }
    await waitForCompression(page);
    await page.locator('[data-testid="sev-marker"][data-index="1"]').click();
    // Every panel at 1280x800 stands side by side, the curves, timeline and event editor sharing one column.
    await shoot('all-panels', AREAS, { ...mode, timelineRows: large ? 6 : 5 });
    await page.keyboard.press('Control+1');
    await waitForCompression(page);
    await shoot('tuner', ['viewport', 'curves', 'timeline']);
    await page.keyboard.press('Control+2');
    await expect(page.getByTestId('sev-track')).toBeVisible();
    await page.locator('[data-testid="sev-marker"][data-index="1"]').click();
    // The Sound events mode gives its spare height to the SEV editor; its timeline keeps the lock row and three joint
    // rows (tried cold, round 12).
    await shoot('sound-events', ['viewport', 'timeline', 'sev'], { ...mode, timelineRows: 3 });
    await page.getByTestId('mode-project').click();
    await shoot('project', ['viewport', 'timeline', 'sev']);
  });
}
