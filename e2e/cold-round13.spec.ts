/**
 * What first-time users met in the browser build at 1280x800, 1600x1000 and 1920x1080 (docs/user-guide.md "Tried
 * cold", thirteenth round): in the beside arrangement at 1600x1000 the selected SE's floor variants began under the
 * window's edge (the 240 px SEV editor, each variant's floor name over its field, 40 px a variant); nothing in the
 * SEV editor of the full layout said where more room was (the Sound events mode, Ctrl+2, at the far end of the menu
 * bar); in the Sound events mode at 1280x800 only the first line of floor variants showed; Ctrl+Z in the budget
 * field, just set with Enter, was the browser's page-wide undo (it went back to the override typed earlier and applied
 * its old text as a new edit) rather than the app's Undo the Edit menu named; an event selected in the full layout,
 * then the Sound events mode, left the SE table's header alone and cut over the variants.
 * Mutations that fail: BESIDE_SEV_HEIGHT back to DEFAULT_HEIGHTS.all's 240; the floor variants' one-line rule back
 * inside its container query (label over field in between); the SEV panel's mode button removed (RowArea's mode);
 * the page's keydown no longer routing Undo/Redo in a field to runCommand; runCommand's execCommand for every field
 * (as before); fieldUndo counting Enter's insertLineBreak as typing; SeTable's column not going back to its top
 * where the table and the variants fit (the sound-events mode after a selection in the full layout).
 * A message's action button ("Move lock to Neck") took the keyboard with it to the page's start; it now goes back to
 * the control that had it when the message appeared, else to the picture. Mutations that fail: MessageBar's click not
 * handing the focus back; handing it to the picture always (not the control); the picture without its tabIndex.
 * At 1920x1080 the SE table's "Plays on floor 0" column cut what each SE plays ("SE_FOOT_R_CONC 0x0…"): it shows the
 * name whole, the code beside it only where it has room (else on a line the cell does not show; in its title). Mutation
 * that fails: the wide editor's rules for that column's .sev-floor-cell removed.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject, openSampleProjectAt1280 } from './sev-ui';
import { dragLockRow, selectJoint, waitForDocument } from './ui';
import { readMtn } from '../shared/mtn/read';
import { lockedJointAt } from '../shared/motion/types';

const box = async (l: Locator) => (await l.boundingBox())!;

/** Whether every floor variant of the selected SE shows whole inside the SEV editor and the window. */
async function variantsWhole(page: Page): Promise<string[]> {
  const sev = await box(page.getByTestId('area-sev'));
  const size = page.viewportSize()!;
  const bottom = Math.min(sev.y + sev.height, size.height);
  const cut: string[] = [];
  for (const v of await page.getByTestId('sev-variant').all()) {
    const b = await box(v);
    if (b.y + b.height > bottom + 1 || b.y < sev.y)
      cut.push(`floor ${await v.getAttribute('data-floor')}: ${b.y}..${b.y + b.height} (editor ends at ${bottom})`);
  }
  return cut;
}

for (const size of [
  { width: 1600, height: 1000 },
  { width: 1920, height: 1080 },
]) {
  test(`beside at ${size.width}x${size.height} the selected SE's floor variants show whole`, async ({
    page,
    workspace,
    electronApp,
    pageErrors,
    saveScreenshot,
  }) => {
    test.skip(!!electronApp, 'the window size is set through the browser viewport');
    await page.setViewportSize(size);
    await openSampleProject(page, workspace);
    await expect(page.locator('.app')).toHaveAttribute('data-arrangement', 'beside');
    await expect(page.getByTestId('sev-variant')).toHaveCount(8);
    expect(await variantsWhole(page)).toEqual([]);
    // Each floor's name stands beside its field, which shows the name whole ("SE_FOOT_L_GRASS").
    for (const v of await page.getByTestId('sev-variant').all()) {
      const [label, field] = [await box(v.locator('.sev-variant-label')), await box(v.locator('input'))];
      expect(Math.abs(label.y + label.height / 2 - (field.y + field.height / 2))).toBeLessThan(4);
      expect(await v.locator('input').evaluate((i: HTMLInputElement) => i.scrollWidth <= i.clientWidth)).toBe(true);
    }
    // The viewport keeps its column as round 12 left it.
    expect((await box(page.getByTestId('viewport-host'))).height).toBeGreaterThan(500);
    await saveScreenshot(`round13-beside-${size.width}x${size.height}`);
    expect(pageErrors).toEqual([]);
  });
}

test('the Sound events mode at 1280x800 shows every floor variant of the selected SE', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace);
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('mode-sev')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('sev-variant')).toHaveCount(8);
  await expect.poll(() => variantsWhole(page)).toEqual([]);
  await saveScreenshot('round13-sev-mode-1280x800');
  expect(pageErrors).toEqual([]);
});

test('the SEV editor says where its room is: its header’s mode button, with the shortcut, back and forth', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  const button = page.getByTestId('panel-mode-sev');
  const header = page.getByTestId('sev-editor').locator('.panel-header').first();
  // In the editor's header, beside its collapse button, on the header's one line.
  const [b, h, toggle] = [await box(button), await box(header), await box(page.getByTestId('panel-toggle-sev'))];
  expect(b.y).toBeGreaterThanOrEqual(h.y);
  expect(b.y + b.height).toBeLessThanOrEqual(h.y + h.height);
  expect(b.x + b.width).toBeLessThanOrEqual(toggle.x);
  expect(h.height).toBeLessThan(40);
  await expect(button).toHaveAttribute('title', /Sound events mode.*\((Ctrl|⌘)\+2\)/);
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  const before = (await box(page.getByTestId('area-sev'))).height;
  await saveScreenshot('round13-sev-mode-button-1280x800');
  // By keyboard: the editor gets the room, the button keeps the focus and says how to go back.
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('mode-sev')).toHaveAttribute('aria-pressed', 'true');
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect(button).toHaveAttribute('title', /Restore all panels \((Ctrl|⌘)\+2\)/);
  await expect(button).toBeFocused();
  await expect.poll(async () => (await box(page.getByTestId('area-sev'))).height).toBeGreaterThan(before + 50);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('mode-sev')).toHaveAttribute('aria-pressed', 'false');
  await expect(button).toBeFocused();
  await expect.poll(async () => (await box(page.getByTestId('area-sev'))).height).toBe(before);
  expect(pageErrors).toEqual([]);
});

test('Ctrl+Z in a field holding nothing typed is the app’s undo, and never jumps to another field', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  const undoLabels = async () => {
    await page.getByTestId('menu-edit').click();
    const labels = [
      (await page.getByTestId('menu-undo').innerText()).split('\n')[0].trim(),
      (await page.getByTestId('menu-redo').innerText()).split('\n')[0].trim(),
    ];
    await page.keyboard.press('Escape');
    return labels;
  };
  // A rotation override typed and applied (Enter gives the keyboard back), then a budget typed and applied with
  // Enter, which keeps the keyboard in the budget field.
  const override = page.getByTestId('override-input');
  await override.fill('0.2');
  await override.press('Enter');
  await expect(override).toHaveValue('0.2');
  const budget = page.getByTestId('project-budget-input');
  await budget.click();
  await budget.fill('48K');
  await budget.press('Enter');
  expect(await undoLabels()).toEqual(['Undo Set the memory budget to 48K (49152 bytes)', 'Redo']);
  await budget.focus();
  // Ctrl+Z undoes the budget, as the Edit menu says; the browser's own undo went back to the override's typing,
  // took the focus there and, on leaving it, applied the old text as a new edit.
  await page.keyboard.press('Control+z');
  await expect(budget).toHaveValue('');
  await expect(budget).toBeFocused();
  await expect(override).toHaveValue('0.2');
  expect(await undoLabels()).toEqual([
    'Undo Set rotation override (Hips) to 0.2°',
    'Redo Set the memory budget to 48K (49152 bytes)',
  ]);
  await budget.focus();
  await page.keyboard.press('Control+z');
  await expect(override).toHaveValue('0.3');
  await expect(budget).toBeFocused();
  await page.keyboard.press('Control+y');
  await expect(override).toHaveValue('0.2');
  await page.keyboard.press('Control+y');
  await expect(budget).toHaveValue('48K');
  await expect(budget).toBeFocused();
  expect(await undoLabels()).toEqual(['Undo Set the memory budget to 48K (49152 bytes)', 'Redo']);

  // Typed and not applied, Ctrl+Z takes the typing back and Ctrl+Y puts it back, the app's edits untouched.
  await budget.focus();
  await page.keyboard.press('End');
  await page.keyboard.type('0');
  await expect(budget).toHaveValue('48K0');
  await page.keyboard.press('Control+z');
  await expect(budget).toHaveValue('48K');
  await page.keyboard.press('Control+y');
  await expect(budget).toHaveValue('48K0');
  await page.keyboard.press('Escape');
  await expect(budget).toHaveValue('48K');
  expect(await undoLabels()).toEqual(['Undo Set the memory budget to 48K (49152 bytes)', 'Redo']);
  expect(pageErrors).toEqual([]);
});

test('an event selected in the full layout, then the Sound events mode: the SE table and its variants show together', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace);
  // In the full layout's 240 px the selection brings the variants to their column's top.
  await page.locator('[data-testid="sev-marker"][data-index="1"]').click();
  const column = page.getByTestId('sev-se-table').locator('xpath=ancestor::*[contains(@class,"sev-col")][1]');
  await expect.poll(() => column.evaluate((c) => c.scrollTop)).toBeGreaterThan(0);
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('mode-sev')).toHaveAttribute('aria-pressed', 'true');
  // The mode's 310 px hold the table and the variants: the column is at its top, the table's header not left alone
  // and cut over the variants with its rows scrolled away.
  await expect.poll(() => column.evaluate((c) => c.scrollTop)).toBe(0);
  await expect(page.getByTestId('sev-se-table').locator('tbody tr').first()).toBeInViewport({ ratio: 1 });
  await expect.poll(() => variantsWhole(page)).toEqual([]);
  await saveScreenshot('round13-sev-mode-after-selection-1280x800');
  // Back in the full layout the variants are brought back to the column's top, where the selection put them.
  await page.keyboard.press('Control+2');
  await expect.poll(() => column.evaluate((c) => c.scrollTop)).toBeGreaterThan(0);
  expect(pageErrors).toEqual([]);
});

/** What has the keyboard: its test id, or its tag name ("BODY" when it fell to the page). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return a ? (a.getAttribute('data-testid') ?? a.tagName) : 'none';
  });

test('a message’s action button hands the keyboard back: to the control that had it, else to the picture', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const walk = readMtn(readFileSync(workspace.path('walk.mtn')));
  const locked = Array.from({ length: walk.frameCount + 1 }, (_, f) => f).filter((f) => lockedJointAt(walk, f) >= 0);
  const [f1, f2] = [locked[0], locked[locked.length - 1]];
  await selectJoint(page, 'Neck');
  const action = page.getByTestId('message-action');

  // A lock refused with the keyboard on a control (the Follow box, L pressed there): back to that control.
  await page.getByTestId('frame-number').fill(String(f1));
  await page.getByTestId('frame-number').press('Enter');
  await page.getByTestId('follow').focus();
  await page.keyboard.press('l');
  await expect(action).toHaveText('Move lock to Neck');
  await action.click();
  await expect(action).toHaveCount(0);
  expect(await focused(page)).toBe('follow');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');

  // A lock refused by a drag in the timeline's lock row: the drag put the keyboard on the timeline (round 16), and
  // it goes back there.
  await dragLockRow(page, f2, f2);
  await expect(action).toHaveText('Move lock to Neck');
  await action.click();
  await expect(action).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('timeline-canvas');
  await page.keyboard.press('Control+z');

  // A lock refused with the keyboard nowhere (L reaching the page itself): to the picture, not the page.
  await page.getByTestId('frame-number').fill(String(f2));
  await page.getByTestId('frame-number').press('Enter');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('l');
  await expect(action).toHaveText('Move lock to Neck');
  await action.click();
  await expect(action).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('viewport-host');
  expect(pageErrors).toEqual([]);
});

/**
 * For each SE row, what its "Plays on floor" cell cuts: the cell's content past its width (scrollWidth), or the text
 * shown running past the cell's padding edge (an ellipsis cuts it inside the cell's own width).
 */
async function floorCellsCut(page: Page): Promise<string[]> {
  return page.getByTestId('sev-se-on-floor').evaluateAll((cells) =>
    cells.flatMap((cell) => {
      const style = getComputedStyle(cell);
      const right =
        cell.getBoundingClientRect().right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
      const shown = Array.from(cell.querySelectorAll('span:not(:has(span))')).filter(
        (s) => s.getClientRects().length > 0,
      );
      const range = document.createRange();
      range.selectNodeContents(cell);
      const text = shown.map((s) => s.textContent).join('');
      const textRight = Math.max(
        ...shown.map((s) => s.getBoundingClientRect().right),
        range.getBoundingClientRect().left,
      );
      if (cell.scrollWidth > cell.clientWidth || textRight > right)
        return [`${text}: ${cell.scrollWidth} in ${cell.clientWidth}, text to ${textRight} past ${right}`];
      return [];
    }),
  );
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`at ${size.width}x${size.height} the SE table's "Plays on floor" column shows what each SE plays whole`, async ({
    page,
    workspace,
    electronApp,
    pageErrors,
    saveScreenshot,
  }) => {
    test.skip(!!electronApp, 'the window size is set through the browser viewport');
    await page.setViewportSize(size);
    await openSampleProject(page, workspace);
    await expect(page.getByTestId('sev-se-on-floor')).toHaveCount(3);
    expect(await floorCellsCut(page)).toEqual([]);
    // The table stays inside its column: nothing to scroll sideways to.
    const column = page.getByTestId('sev-se-table').locator('xpath=ancestor::*[contains(@class,"sev-col")][1]');
    expect(await column.evaluate((c) => c.scrollWidth <= c.clientWidth)).toBe(true);
    // The code, where not shown beside the name, is in the cell's title with it.
    await expect(page.getByTestId('sev-se-on-floor').first()).toHaveAttribute('title', /SE_FOOT_L_CONC 0x0200/);
    await saveScreenshot(`round13-se-floor-column-${size.width}x${size.height}`);
    expect(pageErrors).toEqual([]);
  });
}
