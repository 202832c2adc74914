/**
 * What first-time users met in the browser build at 1280x800, 1600x1000 and 1920x1080 (docs/user-guide.md "Tried
 * cold", twelfth round): at 1600x1000 the layout stayed stacked with a 3D view of 1010x135 px over the curves; in the
 * Sound events mode the SEV editor had 240 px (five events) while the timeline took the spare height; Escape in a
 * footsteps threshold, the object bound or the project budget did not put back the value the field had (a threshold
 * is applied as typed, and stayed so); the status bar said "walk" while the project's walk_rough was open.
 * Mutations that fail: BESIDE_CURVES_MIN back to 560; DEFAULT_HEIGHTS.sev back to 208/240 or the sound-events mode's
 * spare back to the timeline; the threshold's Escape not applying its value at focus; the object bound's Escape
 * handler removed (its blur applies the text); the budget field's Escape handler removed; the status bar's entry
 * name removed.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject, openSampleProjectAt1280 } from './sev-ui';
import { waitForDocument } from './ui';

const box = async (l: Locator) => (await l.boundingBox())!;

/** Event-list rows shown whole: below the sticky header, inside the scrolled column and the window. */
async function wholeEventRows(page: Page): Promise<number> {
  return page.getByTestId('sev-event-list').evaluate((table) => {
    const col = table.parentElement!.closest('.sev-col') ?? table.parentElement!;
    const area = col.getBoundingClientRect();
    const head = table.querySelector('thead')!.getBoundingClientRect();
    const bottom = Math.min(area.bottom, window.innerHeight);
    return Array.from(table.querySelectorAll('[data-testid="sev-event-row"]')).filter((r) => {
      const b = r.getBoundingClientRect();
      return b.height > 0 && b.top >= head.bottom - 1 && b.bottom <= bottom + 1;
    }).length;
  });
}

test('at 1600x1000 the viewport stands beside the curves, not a 135 px strip over them', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openSampleProject(page, workspace);
  await expect(page.locator('.app')).toHaveAttribute('data-arrangement', 'beside');
  const view = await box(page.getByTestId('viewport-host'));
  expect(view.height).toBeGreaterThan(500);
  expect(view.width).toBeGreaterThan(400);
  // The curves keep a little under the 580 px they have side by side at 1280x800.
  expect((await box(page.getByTestId('area-curves'))).width).toBeGreaterThanOrEqual(520);
  // The SEV editor keeps its full width under them.
  const sev = await box(page.getByTestId('area-sev'));
  expect(sev.width).toBeGreaterThan(1600 - (await box(page.getByTestId('area-project'))).width - 10);
  await saveScreenshot('round12-beside-1600x1000');
  expect(pageErrors).toEqual([]);
});

for (const size of [
  { width: 1280, height: 800, sev: 300, events: 8 },
  { width: 1600, height: 900, sev: 320, events: 8 },
  { width: 1920, height: 1080, sev: 420, events: 10 },
]) {
  test(`the Sound events mode gives the SEV editor the room at ${size.width}x${size.height}`, async ({
    page,
    workspace,
    electronApp,
    pageErrors,
    saveScreenshot,
  }) => {
    test.skip(!!electronApp, 'the window size is set through the browser viewport');
    await page.setViewportSize({ width: size.width, height: size.height });
    await openSampleProject(page, workspace);
    await page.getByTestId('mode-sev').click();
    await expect(page.getByTestId('mode-sev')).toHaveAttribute('aria-pressed', 'true');
    // It had 240 px (five of walk's ten events) while the timeline took the spare height.
    await expect.poll(async () => (await box(page.getByTestId('area-sev'))).height).toBeGreaterThanOrEqual(size.sev);
    expect(await wholeEventRows(page)).toBeGreaterThanOrEqual(size.events);
    // The viewport keeps the character whole, the timeline its lock row (the foot plants).
    expect((await box(page.getByTestId('viewport-host'))).height).toBeGreaterThanOrEqual(200);
    await expect(page.getByTestId('timeline-canvas')).toBeVisible();
    await saveScreenshot(`round12-sev-mode-${size.width}x${size.height}`);
    expect(pageErrors).toEqual([]);
  });
}

test('Escape in a footsteps threshold, the object bound or the budget puts back the value it had', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  // A threshold is applied as it is typed (the ghost markers follow): Escape puts back the one it had at focus.
  await page.getByTestId('sev-suggest-footsteps').click();
  const height = page.getByTestId('sev-footsteps-heightTolerance');
  const before = await height.inputValue();
  await height.click();
  await height.fill('40');
  await expect(height).toHaveValue('40');
  await page.keyboard.press('Escape');
  await expect(height).toHaveValue(before);
  await expect(page.getByTestId('sev-footsteps')).toBeFocused();
  // Reopened, it still reads the kept value (a preference, so not only the field's text).
  await page.keyboard.press('Escape');
  await page.getByTestId('sev-suggest-footsteps').click();
  await expect(height).toHaveValue(before);
  await page.keyboard.press('Escape');

  // The object bound: Escape leaves it off, and the blur does not apply "3".
  const keys = await page.getByTestId('stat-total-keys').innerText();
  const undoLabel = async () => {
    await page.getByTestId('menu-edit').click();
    const label = await page.getByTestId('menu-undo').innerText();
    await page.keyboard.press('Escape');
    return label;
  };
  const undoBefore = await undoLabel();
  const object = page.getByTestId('tol-object');
  await object.click();
  await object.fill('3');
  await page.keyboard.press('Escape');
  await expect(object).toHaveValue('');
  await expect(object).not.toBeFocused();
  await expect(page.getByTestId('stat-total-keys')).toHaveText(keys);
  expect(await undoLabel()).toBe(undoBefore);

  // The project's budget: Escape puts back the budget it has (none).
  const budget = page.getByTestId('project-budget-input');
  await budget.click();
  await budget.fill('48K');
  await page.keyboard.press('Escape');
  await expect(budget).toHaveValue('');
  expect(pageErrors).toEqual([]);
});

test('the status bar names the project motion open, walk_rough, not only its file walk', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProject(page, workspace, electronApp);
  await expect(page.getByTestId('status-entry')).toHaveCount(0);
  await page.getByTestId('project-motion').nth(2).click();
  await expect(page.getByTestId('sev-file')).toContainText('walk_rough');
  await waitForDocument(page, 'walk');
  await expect(page.getByTestId('status-entry')).toContainText('walk_rough');
  await expect(page.getByTestId('statusbar')).toContainText('walk_rough (file walk)');
  // Back on walk, whose entry and file have one name: said once.
  await page.getByTestId('project-motion').nth(0).click();
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await expect(page.getByTestId('status-entry')).toHaveCount(0);
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  expect(pageErrors).toEqual([]);
});
