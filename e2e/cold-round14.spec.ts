/**
 * What first-time users met in the browser build at 1280x800, 1600x1000 and 1920x1080 (docs/user-guide.md "Tried
 * cold", fourteenth round).
 * The app listed its keys nowhere: the browser build had no Help menu, and the keys no menu shows (↑ / ↓ between
 * keys, Page Up / Page Down between joints, Shift+← / →, [ / ], Delete) were in docs/tuner.md only. Help › Keyboard
 * Shortcuts (Ctrl+/) now lists them all, read from the shortcut tables. Mutations that fail: the page's Help menu
 * removed; the help.shortcuts binding removed from SHORTCUTS; the dialog's Escape handler removed; the sheet's page
 * keys section left out.
 * The build dialog's result named its columns "SE slots", "Max rot err", and its motions "(cached)", with no word of
 * what they were, and listed a warning (walk_60 resampled) under the written files with nothing saying it was one or
 * that the archives were written all the same. Each column and "(cached)" now say what they mean in their tooltip, and
 * a line heads the warnings. Mutations that fail: the headers' titles removed; the cached note's title removed; the
 * warnings' head line removed.
 * Tooltips left keys out: Step back / forward said ← / → but not Shift+← / → (10 frames), Speed not [ / ], Add event at
 * playhead not M, an event's ✕ not Delete. Each names its key now, and each key named is in the shortcut list.
 * Mutation that fails: any of those tooltips back to its old words.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject, openSampleProjectAt1280 } from './sev-ui';
import { buildArchives, waitForDocument, waitForProjectFigures } from './ui';

const box = async (l: Locator) => (await l.boundingBox())!;

/** What has the keyboard: its test id, or its tag name ("BODY" when it fell to the page). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return a ? (a.getAttribute('data-testid') ?? a.tagName) : 'none';
  });

/** The words beside a key in the shortcut list. */
async function does(page: Page, key: string): Promise<string[]> {
  return page
    .getByTestId('shortcuts-row')
    .filter({ has: page.locator('kbd', { hasText: new RegExp(`^${key.replace(/[+[\]]/g, '\\$&')}$`) }) })
    .locator('td:last-child')
    .allInnerTexts();
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`at ${size.width}x${size.height} Help › Keyboard Shortcuts lists every key, also those no menu shows`, async ({
    page,
    electronApp,
    pageErrors,
    saveScreenshot,
  }) => {
    test.skip(!!electronApp, 'the in-page menu bar is the browser build’s; Electron’s Help is electron/menu.test.ts');
    await page.setViewportSize(size);
    await waitForDocument(page);
    // By pointer: Help is the menu bar's last menu, its item names its shortcut.
    await page.getByTestId('menu-help').click();
    await expect(page.getByTestId('menu-shortcuts')).toContainText('Ctrl+/');
    await page.getByTestId('menu-shortcuts').click();
    const dialog = page.getByTestId('shortcuts-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('shortcuts-close')).toBeFocused();
    // The keys a first-time user could not find in any menu, with their words.
    expect(await does(page, 'Page Down')).toEqual(['Next joint']);
    expect(await does(page, '↓')).toEqual(['Next key of the shown channel']);
    expect(await does(page, 'Shift+→')).toEqual(['10 frames forward']);
    expect(await does(page, ']')).toEqual(['Faster playback']);
    expect(await does(page, 'Alt+←')).toEqual(['Nudge Events 1 Frame Earlier']);
    expect(await does(page, 'Ctrl+B')).toEqual(['File: Build Archives (.mar, .sar)…']);
    // Inside the window, Close in view; the list scrolls inside the dialog where it is taller.
    const [d, close] = [await box(dialog), await box(page.getByTestId('shortcuts-close'))];
    expect(d.y).toBeGreaterThanOrEqual(0);
    expect(d.y + d.height).toBeLessThanOrEqual(size.height);
    expect(close.y + close.height).toBeLessThanOrEqual(d.y + d.height);
    await saveScreenshot(`round14-shortcuts-${size.width}x${size.height}`);
    await page.getByTestId('shortcuts-close').click();
    await expect(dialog).toHaveCount(0);
    expect(pageErrors).toEqual([]);
  });
}

test('Ctrl+/ opens the shortcut list from the keyboard; keys go to the list, and Escape hands the keyboard back', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'Electron’s native menu owns Ctrl+/ (electron/menu.test.ts)');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await page.getByTestId('follow').focus();
  await page.keyboard.press('Control+/');
  const dialog = page.getByTestId('shortcuts-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('shortcuts-close')).toBeFocused();
  // Keys belong to the dialog: Space does not start playback behind it, Tab stays inside.
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toBe('shortcuts-body');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play-toggle')).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await focused(page)).toBe('follow');
  // From the menu bar by keyboard: Help opens with Enter, the item runs with Enter, Escape closes the list.
  await page.getByTestId('menu-help').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('menu-shortcuts')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await focused(page)).toBe('menu-help');
  expect(pageErrors).toEqual([]);
});

test('the build dialog says what its columns, "(cached)" and its warnings mean', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  // The project's check compresses each motion once it opens; the build then carries them.
  await waitForProjectFigures(page);
  await buildArchives(page);
  const heads = page.getByTestId('build-column');
  await expect(heads).toHaveText(['#', 'Motion', 'Keys', 'MT3', 'Ratio', 'Max rot err', 'SE slots', 'Events']);
  const title = (i: number) => heads.nth(i).getAttribute('title');
  expect(await title(5)).toMatch(/Largest rotation error .* in degrees/);
  expect(await title(6)).toMatch(/SEs the \.sar holds for the motion/);
  expect(await title(3)).toMatch(/compressed size .*KiB/);
  for (let i = 0; i < 8; i++) expect((await title(i))?.length ?? 0).toBeGreaterThan(10);
  // The sample's motions were compressed by the project's check: the build carries them, and says what that means.
  await expect(page.getByTestId('build-cached')).toHaveCount(4);
  await expect(page.getByTestId('build-cached').first()).toHaveAttribute('title', /Not compressed again: unchanged/);
  // walk_60 is resampled from 60 fps: a warning, headed as one, the archives written all the same.
  const written = page.getByTestId('build-written');
  await expect(page.getByTestId('build-warnings-head')).toHaveText(
    '1 warning: the archives were written all the same. Check that this is what the game expects:',
  );
  await expect(written.locator('li').last()).toContainText('walk_60: resampled from 60 fps');
  await saveScreenshot('round14-build-result-1280x800');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('build-dialog')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('the playback and event controls name their keys in their tooltips, keys the shortcut list has', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the shortcut list is opened through the in-page menu bar');
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace);
  const titles: [string, RegExp, string][] = [
    ['step-back', /Shift\+←: 10 frames/, 'Shift+←'],
    ['step-forward', /Shift\+→: 10 frames/, 'Shift+→'],
    ['speed-label', /\[ slower, \] faster/, '['],
    ['sev-add-event', /Key: M\b/, 'M'],
    ['sev-event-delete', /\(Delete deletes the selected events/, 'Delete'],
  ];
  for (const [id, words] of titles) await expect(page.getByTestId(id).first()).toHaveAttribute('title', words);
  await page.keyboard.press('Control+/');
  await expect(page.getByTestId('shortcuts-dialog')).toBeVisible();
  for (const [, , key] of titles) expect(await does(page, key)).not.toEqual([]);
  await page.keyboard.press('Escape');
  expect(pageErrors).toEqual([]);
});

/**
 * A work mode that hid the control with the keyboard dropped it to the page's start (Tab began again at the menu
 * bar): Ctrl+2 with a project row focused. The keyboard now goes to the first control of the mode's panel, and back
 * to the viewport's panel in the full layout; and a page shortcut no longer blurs a focused button (only Space does,
 * which would click it), so going back to the full layout keeps it. Mutations that fail: App's keepKeyboardShown
 * effect removed; shortcuts.ts blurring a button after any shortcut again.
 */
test('a work mode that hides the focused control hands the keyboard to the panel it shows', async ({
  page,
  workspace,
  pageErrors,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace);
  const inArea = (id: string) =>
    page.evaluate((area) => !!document.activeElement?.closest(`[data-testid="${area}"]`), id);
  await page.getByTestId('project-motion').first().focus();
  expect(await inArea('area-project')).toBe(true);
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('area-project')).toBeHidden();
  await expect.poll(() => inArea('area-sev')).toBe(true);
  expect(await focused(page)).not.toBe('BODY');
  // Back to the full layout from a control the full layout hides? The SEV editor stays: the keyboard stays where it is.
  const before = await focused(page);
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('area-project')).toBeVisible();
  expect(await focused(page)).toBe(before);
  expect(pageErrors).toEqual([]);
});
