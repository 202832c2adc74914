/**
 * renderer/components/keyboardHome.ts on its own, in the browser (it asks the layout whether a control takes room,
 * which only a real page answers): the module bundled from its source into a blank page, with panels that the test
 * hides and draws anew as a work mode does. cold-round14.spec.ts walks one case through the app (Ctrl+2 with a project
 * row focused); these hold each branch: the control kept when it is still shown, the same control drawn anew, the
 * panel's first Tab-reachable control (not one taken out of the Tab order, nor one hidden from assistive technology),
 * the panel itself when it has none, nothing done for a hidden panel or a control outside the app's root, and
 * leftByItself, and a control found again in the app's root only. Mutation audit 2026-12-05 (docs/testing.md): each of its mutants fails one of these.
 */
import { test, expect, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../renderer/components/keyboardHome.ts', import.meta.url));
let bundle = '';
type KeyboardHome = typeof import('../renderer/components/keyboardHome');

test.beforeAll(async () => {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'keyboardHome',
    target: 'es2022',
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0].text;
});

test.beforeEach(({}, info) =>
  test.skip(info.project.name === 'electron', 'a plain page: the Chromium project runs it'),
);

/**
 * `root` (the app) holds two panels: area-project (a row button, one out of the Tab order, one aria-hidden) and
 * area-viewport (one button), and an empty panel area-empty. Outside root: a button `outside`.
 */
const PAGE = `<!doctype html><html><body>
<button data-testid="outside">outside</button>
<div id="root">
  <div data-testid="area-project">
    <button data-testid="skip" tabindex="-1">not in the Tab order</button>
    <button data-testid="aria" aria-hidden="true">hidden from assistive technology</button>
    <button data-testid="row">row</button>
    <button data-testid="row2">row 2</button>
  </div>
  <div data-testid="area-viewport"><span>3D</span><button data-testid="view">view</button></div>
  <div data-testid="area-empty"><span>nothing to focus</span></div>
</div>
</body></html>`;

async function setUp(page: Page): Promise<void> {
  await page.setContent(PAGE);
  await page.addScriptTag({ content: bundle });
  await page.evaluate(() => {
    const w = window as unknown as { last: HTMLElement | null };
    w.last = null;
  });
}

/** The test id of the element with the keyboard, or its tag name ("BODY"). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return a?.getAttribute('data-testid') ?? a?.tagName ?? null;
  });

/**
 * Hides the elements of the test ids `hidden` (as a work mode hides panels), then runs keepKeyboardShown(root, home,
 * last), `last` the element of that test id (or null), in one task as the app's layout effect does: the browser has
 * not yet moved the keyboard off a control it no longer draws. Returns what has the keyboard then (as `focused`).
 */
const keep = (page: Page, home: string, lastId: string | null, hidden: string[] = []) =>
  page.evaluate(
    ([h, id, ids]) => {
      for (const i of ids) (document.querySelector(`[data-testid="${i}"]`) as HTMLElement).style.display = 'none';
      const k = (window as unknown as { keyboardHome: KeyboardHome }).keyboardHome;
      const last = id ? (document.querySelector(`[data-testid="${id}"]`) as HTMLElement) : null;
      k.keepKeyboardShown(document.getElementById('root'), h, last);
      const a = document.activeElement as HTMLElement | null;
      return a?.getAttribute('data-testid') ?? a?.tagName ?? null;
    },
    [home, lastId, hidden] as const,
  );

const hide = (page: Page, id: string) =>
  page.evaluate((i) => ((document.querySelector(`[data-testid="${i}"]`) as HTMLElement).style.display = 'none'), id);
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

test('a focused control that a layout hides hands the keyboard to the first Tab-reachable control of the panel shown', async ({
  page,
}) => {
  await setUp(page);
  await page.getByTestId('view').focus();
  await keep(page, 'area-project', 'view', ['area-viewport']);
  // Not the one out of the Tab order, nor the aria-hidden one: the row.
  expect(await focused(page)).toBe('row');
});

test('a focused control still shown, or one outside the app, keeps the keyboard', async ({ page }) => {
  await setUp(page);
  await page.getByTestId('row2').focus();
  await keep(page, 'area-viewport', 'row2');
  expect(await focused(page)).toBe('row2');
  // A hidden control outside root (a dialog of its own, say) is not the layout's business.
  await page.getByTestId('outside').focus();
  expect(await keep(page, 'area-viewport', 'row2', ['outside'])).toBe('outside');
});

test('the keyboard that fell to the page goes back to the last control when it is shown, else to the panel', async ({
  page,
}) => {
  await setUp(page);
  await page.getByTestId('row2').focus();
  await blur(page);
  expect(await focused(page)).toBe('BODY');
  await keep(page, 'area-viewport', 'row2');
  expect(await focused(page)).toBe('row2');
  // Hidden since: the panel's first control instead.
  await blur(page);
  await hide(page, 'area-project');
  await keep(page, 'area-viewport', 'row2');
  expect(await focused(page)).toBe('view');
  // No last control: the keyboard stays on the page.
  await blur(page);
  await keep(page, 'area-viewport', null);
  expect(await focused(page)).toBe('BODY');
});

test('a control drawn anew (same test id) takes the keyboard back when it is shown; a hidden one does not', async ({
  page,
}) => {
  await setUp(page);
  const redraw = (id: string) =>
    page.evaluate((i) => {
      const old = document.querySelector(`[data-testid="${i}"]`) as HTMLElement;
      (window as unknown as { gone: HTMLElement }).gone = old;
      old.focus();
      const again = old.cloneNode(true) as HTMLElement;
      old.replaceWith(again);
    }, id);
  const keepGone = (home: string) =>
    page.evaluate((h) => {
      const w = window as unknown as { gone: HTMLElement; keyboardHome: KeyboardHome };
      w.keyboardHome.keepKeyboardShown(document.getElementById('root'), h, w.gone);
    }, home);
  await redraw('row2');
  expect(await focused(page)).toBe('BODY');
  await keepGone('area-viewport');
  expect(await focused(page)).toBe('row2');
  // The one drawn anew in the app's root, not a control of the same test id before it on the page (outside the app).
  await redraw('row2');
  await page.evaluate(() => {
    const twin = document.createElement('button');
    twin.setAttribute('data-testid', 'row2');
    twin.id = 'twin';
    document.body.prepend(twin);
  });
  await keepGone('area-viewport');
  expect(await page.evaluate(() => document.activeElement?.closest('#root') !== null)).toBe(true);
  await page.evaluate(() => document.getElementById('twin')!.remove());
  // Drawn anew but hidden: the home panel's first control.
  await redraw('row2');
  await hide(page, 'row2');
  await keepGone('area-viewport');
  expect(await focused(page)).toBe('view');
});

test('a panel with no control takes the keyboard itself; a hidden home panel takes nothing', async ({ page }) => {
  await setUp(page);
  await page.getByTestId('row').focus();
  await keep(page, 'area-empty', 'row', ['area-project']);
  expect(await focused(page)).toBe('area-empty');
  expect(await page.getByTestId('area-empty').getAttribute('tabindex')).toBe('-1');
  // A hidden home panel is left alone (not made focusable), and no control of it takes the keyboard.
  await setUp(page);
  await page.getByTestId('view').focus();
  await keep(page, 'area-empty', 'view', ['area-viewport', 'area-empty']);
  expect(await page.getByTestId('area-empty').getAttribute('tabindex')).toBeNull();
  expect(await focused(page)).not.toBe('area-empty');
});

test('leftByItself: a control still on the page and shown, not one hidden or taken off it', async ({ page }) => {
  await setUp(page);
  const left = (id: string) =>
    page.evaluate((i) => {
      const w = window as unknown as { keyboardHome: KeyboardHome };
      const el = document.querySelector(`[data-testid="${i}"]`) as HTMLElement;
      const shown = w.keyboardHome.leftByItself(el);
      el.remove();
      return [shown, w.keyboardHome.leftByItself(el), w.keyboardHome.leftByItself(null)];
    }, id);
  expect(await left('row')).toEqual([true, false, false]);
  await hide(page, 'row2');
  expect(await left('row2')).toEqual([false, false, false]);
});
