/**
 * renderer/components/modalFocus.ts, Modal.tsx and ContextMenu.tsx on their own, in the browser (focus, Tab and the
 * layout are only a real page's): the three modules and React bundled from their source into a blank page, as
 * keyboardHome.spec.ts does. dialog-a11y.spec.ts and modal.spec.ts walk the app's dialogs and menus; these hold the
 * branches no app dialog reaches alone: a hidden control or one out of the Tab order at the end of a dialog, two
 * dialogs open at once, a dialog with no control, the keyboard on a menu when a dialog opens, a menu opened at the
 * window's edge, the keys of a menu at its ends. Mutation audit, round 3 (docs/testing.md): the mutants of these
 * modules each fail one of these.
 */
import { test, expect, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const components = fileURLToPath(new URL('../renderer/components/', import.meta.url));
let bundle = '';

/** What the page is given: the modules, React, and a root to render into. */
const ENTRY = `
import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Modal } from './Modal';
import { ContextMenu } from './ContextMenu';
import { installModalFocusReturn, installModalFocusTrap } from './modalFocus';
export { installModalFocusReturn, installModalFocusTrap };
const root = createRoot(document.getElementById('root'));
const h = createElement;
const button = (id) => h('button', { key: id, type: 'button', 'data-testid': id }, id);
window.calls = [];
const note = (what) => () => window.calls.push(what);
/** One or two dialogs: each {id, focusHeading, focusKey, field, withForm}. */
export function dialogs(list) {
  flushSync(() =>
    root.render(
      h('div', null, ...list.map((d) =>
        h(Modal, {
          key: d.id,
          title: 'Dialog ' + d.id,
          testId: d.id,
          focusHeading: d.focusHeading,
          focusKey: d.focusKey,
          onEscape: note('escape ' + d.id),
          onBackdrop: note('backdrop ' + d.id),
          onSubmit: d.withForm ? note('submit ' + d.id) : undefined,
          buttons: [button(d.id + '-ok'), button(d.id + '-cancel')],
          children: d.field ? h('input', { 'data-testid': d.id + '-field', defaultValue: 'walk' }) : null,
        }),
      )),
    ),
  );
}
/** A right-click menu at (x, y): a greyed first item, two commands, a toggle. */
export function menu(x, y) {
  flushSync(() =>
    root.render(
      h(ContextMenu, {
        at: { x, y },
        label: 'Test commands',
        testid: 'menu',
        onClose: (back) => window.calls.push('close ' + back),
        entries: [
          { id: 'grey', label: 'Greyed', disabled: true, why: 'waits for a motion', run: note('grey') },
          { id: 'one', label: 'One', why: 'not shown', run: note('one') },
          'separator',
          { id: 'two', label: 'Two', run: note('two') },
          { id: 'three', label: 'Three', checked: true, run: note('three') },
        ],
      }),
    ),
  );
}
export function clear() {
  flushSync(() => root.render(null));
}
`;

test.beforeAll(async () => {
  const out = await build({
    stdin: { contents: ENTRY, resolveDir: components, loader: 'jsx' },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'parts',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0].text;
});

test.beforeEach(({}, info) =>
  test.skip(info.project.name === 'electron', 'a plain page: the Chromium project runs it'),
);

const PAGE = `<!doctype html><html><head><style>
.modal-backdrop { position: fixed; inset: 0; }
.modal { margin: 100px; border: 1px solid; }
</style></head><body>
<button data-testid="before">before</button>
<div id="root"></div>
<button data-testid="after">after</button>
</body></html>`;

type Parts = {
  dialogs(list: { id: string; focusHeading?: boolean; focusKey?: number; field?: boolean; withForm?: boolean }[]): void;
  menu(x: number, y: number): void;
  clear(): void;
  installModalFocusTrap(d: Document): () => void;
  installModalFocusReturn(d: Document): () => void;
};

async function setUp(page: Page, viewport = { width: 1280, height: 800 }): Promise<void> {
  await page.setViewportSize(viewport);
  await page.setContent(PAGE);
  await page.addScriptTag({ content: bundle });
  await page.evaluate(() => {
    const p = (window as unknown as { parts: Parts }).parts;
    p.installModalFocusTrap(document);
    p.installModalFocusReturn(document);
  });
}

type Dialog = Parameters<Parts['dialogs']>[0][number];
const show = (page: Page, list: Dialog[]) =>
  page.evaluate((l) => (window as unknown as { parts: Parts }).parts.dialogs(l), list);
const clear = (page: Page) => page.evaluate(() => (window as unknown as { parts: Parts }).parts.clear());
const calls = (page: Page) => page.evaluate(() => (window as unknown as { calls: string[] }).calls);

/** The test id of the element with the keyboard, or its tag name ("BODY", "H2"). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return a?.getAttribute('data-testid') ?? a?.tagName ?? null;
  });

test.describe('the focus trap (modalFocus.ts)', () => {
  test('Tab from the last control goes to the first, Shift+Tab from the first to the last, past hidden ones', async ({
    page,
  }) => {
    await setUp(page);
    await show(page, [{ id: 'a' }]);
    // A hidden control and one out of the Tab order after the row: neither is the last stop.
    await page.evaluate(() => {
      const d = document.querySelector('[data-testid="a"]')!;
      d.insertAdjacentHTML(
        'beforeend',
        '<button data-testid="hidden" style="display:none">h</button><span data-testid="skip" tabindex="-1">s</span>',
      );
    });
    await page.getByTestId('a-cancel').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a-ok');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('a-cancel');
    // Between the two, Tab goes its own way.
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('a-ok');
    // Ctrl+Tab is not the dialog's.
    await page.getByTestId('a-cancel').focus();
    await page.keyboard.press('Control+Tab');
    expect(await focused(page)).toBe('a-cancel');
  });

  test('focus on the heading (no Tab stop) counts as before the first control: Shift+Tab goes to the last', async ({
    page,
  }) => {
    await setUp(page);
    await show(page, [{ id: 'a', focusHeading: true }]);
    expect(await focused(page)).toBe('H2');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('a-cancel');
  });

  test('with two dialogs open, Tab is kept in the topmost', async ({ page }) => {
    await setUp(page);
    await show(page, [{ id: 'a' }, { id: 'b' }]);
    await page.getByTestId('b-cancel').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('b-ok');
  });

  test('a dialog with no control leaves Tab to the page', async ({ page }) => {
    await setUp(page);
    await page.evaluate(() =>
      document.getElementById('root')!.insertAdjacentHTML('beforeend', '<div aria-modal="true">only words</div>'),
    );
    await page.getByTestId('before').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('after');
  });
});

test.describe('the focus return (modalFocus.ts)', () => {
  test('the focus goes back to what had it before the dialog, not to a menu item gone with its menu', async ({
    page,
  }) => {
    await setUp(page);
    await page.getByTestId('before').focus();
    // A menu opens from `before` and takes the keyboard; its command opens the dialog, and the menu goes.
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        '<div role="menu" data-testid="m"><button role="menuitem" data-testid="item">item</button></div>',
      );
      (document.querySelector('[data-testid="item"]') as HTMLElement).focus();
    });
    await show(page, [{ id: 'a' }]);
    await page.evaluate(() => document.querySelector('[data-testid="m"]')!.remove());
    expect(await focused(page)).toBe('a-ok');
    await clear(page);
    await expect.poll(() => focused(page)).toBe('before');
  });

  test('a dialog that hands the focus on keeps it there; no dialog, nothing is moved', async ({ page }) => {
    await setUp(page);
    await page.getByTestId('before').focus();
    await show(page, [{ id: 'a' }]);
    await page.getByTestId('after').focus();
    await clear(page);
    // The observer runs after the change: a page change after it shows whether it moved the keyboard.
    await page.evaluate(() => document.body.append(document.createElement('p')));
    expect(await focused(page)).toBe('after');
    // Handed to a menu's item (which the return never remembers): it stays there too.
    await show(page, [{ id: 'a' }]);
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        '<div role="menu"><button role="menuitem" data-testid="item">item</button></div>',
      );
      (document.querySelector('[data-testid="item"]') as HTMLElement).focus();
    });
    await clear(page);
    await page.evaluate(() => document.body.append(document.createElement('p')));
    expect(await focused(page)).toBe('item');
    // The keyboard dropped to the page with no dialog: a change to the page moves nothing.
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await page.evaluate(() => document.body.append(document.createElement('p')));
    await page.evaluate(() => document.body.append(document.createElement('p')));
    expect(await focused(page)).toBe('BODY');
  });
});

test.describe('Modal.tsx', () => {
  test('Escape is for the dialog with the focus, else the topmost; the page never sees it', async ({ page }) => {
    await setUp(page);
    await page.evaluate(() =>
      window.addEventListener(
        'keydown',
        (e) => e.key === 'Escape' && (window as unknown as { calls: string[] }).calls.push('page'),
      ),
    );
    await show(page, [{ id: 'a' }, { id: 'b' }]);
    await page.getByTestId('a-ok').focus();
    await page.keyboard.press('Escape');
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await page.keyboard.press('Escape');
    expect(await calls(page)).toEqual(['escape a', 'escape b']);
  });

  test('an Escape a control inside took for itself is not the dialog’s', async ({ page }) => {
    await setUp(page);
    await show(page, [{ id: 'a', field: true }]);
    await page.evaluate(() =>
      document
        .querySelector('[data-testid="a-field"]')!
        .addEventListener('keydown', (e) => (e as KeyboardEvent).key === 'Escape' && e.preventDefault()),
    );
    await page.getByTestId('a-field').focus();
    await page.keyboard.press('Escape');
    expect(await calls(page)).toEqual([]);
  });

  test('the focus goes on the first control, a text field’s text selected, or on the heading when asked', async ({
    page,
  }) => {
    await setUp(page);
    await show(page, [{ id: 'a', field: true }]);
    expect(await focused(page)).toBe('a-field');
    const selected = () =>
      page.evaluate(() => {
        const field = document.activeElement as HTMLInputElement;
        return [field.selectionStart, field.selectionEnd];
      });
    expect(await selected()).toEqual([0, 4]);
    await clear(page);
    await show(page, [{ id: 'b', focusHeading: true }]);
    expect(await focused(page)).toBe('H2');
  });

  test('the focus taken back after the dialog opened (a menu closing) comes back in; a new question refocuses', async ({
    page,
  }) => {
    await setUp(page);
    await page.evaluate(() => {
      (window as unknown as { parts: Parts }).parts.dialogs([{ id: 'a', focusKey: 1 }]);
      (document.querySelector('[data-testid="before"]') as HTMLElement).focus();
    });
    await expect.poll(() => focused(page)).toBe('a-ok');
    await page.getByTestId('before').focus();
    await show(page, [{ id: 'a', focusKey: 2 }]);
    expect(await focused(page)).toBe('a-ok');
  });

  test('a press on the backdrop is the backdrop’s; one inside the dialog is not; Enter submits without leaving the page', async ({
    page,
  }) => {
    await setUp(page);
    await show(page, [{ id: 'a', field: true, withForm: true }]);
    await page.getByTestId('a').click({ position: { x: 5, y: 5 } });
    await page.mouse.click(2, 2);
    await page.getByTestId('a-field').press('Enter');
    expect(await calls(page)).toEqual(['backdrop a', 'submit a']);
    expect(await page.evaluate(() => document.getElementById('root') !== null)).toBe(true);
  });
});

test.describe('ContextMenu.tsx', () => {
  test('opens inside the window at its right and bottom edge, at the pointer elsewhere', async ({ page }) => {
    await setUp(page);
    await page.evaluate(() => (window as unknown as { parts: Parts }).parts.menu(1275, 795));
    const box = (await page.getByTestId('menu').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(box.y + box.height).toBeCloseTo(795, 0);
    await page.evaluate(() => (window as unknown as { parts: Parts }).parts.menu(40, 30));
    const at = (await page.getByTestId('menu').boundingBox())!;
    expect([at.x, at.y]).toEqual([40, 30]);
  });

  test('takes the keyboard on its first command that is not greyed; ↑ ↓ wrap, Home and End', async ({ page }) => {
    await setUp(page);
    await page.evaluate(() => (window as unknown as { parts: Parts }).parts.menu(40, 30));
    await expect.poll(() => focused(page)).toBe('one');
    await page.keyboard.press('ArrowUp');
    expect(await focused(page)).toBe('three');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('one');
    await page.keyboard.press('End');
    expect(await focused(page)).toBe('three');
    await page.keyboard.press('Home');
    expect(await focused(page)).toBe('one');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('two');
  });

  test('a command runs and closes it, giving the keyboard back; Tab and Escape close it so; a press outside does not give it back', async ({
    page,
  }) => {
    await setUp(page);
    const open = () => page.evaluate(() => (window as unknown as { parts: Parts }).parts.menu(40, 30));
    await open();
    await expect(page.getByTestId('three')).toHaveAttribute('role', 'menuitemcheckbox');
    await expect(page.getByTestId('two')).toHaveAttribute('role', 'menuitem');
    await expect(page.getByTestId('grey')).toHaveAttribute('title', 'waits for a motion');
    expect(await page.getByTestId('one').getAttribute('title')).toBeNull();
    await page.getByTestId('two').click();
    // The harness keeps the menu drawn after onClose: the keys are pressed on it again.
    await page.getByTestId('one').focus();
    await page.keyboard.press('Tab');
    await page.getByTestId('one').focus();
    await page.keyboard.press('Escape');
    await page.mouse.click(600, 600);
    expect(await calls(page)).toEqual(['close true', 'two', 'close true', 'close true', 'close false']);
  });
});
