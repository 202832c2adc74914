/**
 * What a first-time user ran into at 1280x800 (2026-12-03 walk-through of the card's jobs):
 * - the in-app Save picker replaced an existing file (another motion of the project) without a word: it now asks,
 *   as native save dialogs do, and a second Save (or Enter) replaces;
 * - an empty picker list said "No matching files." where nothing was filtered: it now says why and what to do;
 * - with no motion open the viewport named menu items ("File › Open… (Ctrl+O)") it could not run: it now offers
 *   them as buttons;
 * - Build archives read the saved .mtn while the tuner showed unsaved edits of that project motion, so the archives
 *   silently left them out: it now asks (Save and build, Build the saved file, Cancel).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { makeKeyEdit, untilBuildEnds, waitForDocument } from './ui';

test('with no motion open the viewport offers the ways in as buttons that work', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  test.skip(electronApp !== null, 'answers the in-app picker of the loopback transport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-close').click();
  await expect(page.getByTestId('statusbar')).toHaveText('No motion open');
  const empty = page.getByTestId('viewport-empty');
  await expect(empty.getByRole('button')).toHaveText([
    /^Open motion… Ctrl\+O$/,
    /^Open project… Ctrl\+Shift\+O$/,
    /^Import BVH, glTF, FBX… Ctrl\+I$/,
  ]);
  // At 1280x800 they lie whole inside the picture, each at least 24 px tall.
  const host = (await page.getByTestId('viewport-host').boundingBox())!;
  for (const b of await empty.getByRole('button').all()) {
    const box = (await b.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(24);
    expect(box.x).toBeGreaterThanOrEqual(host.x);
    expect(box.x + box.width).toBeLessThanOrEqual(host.x + host.width);
    expect(box.y + box.height).toBeLessThanOrEqual(host.y + host.height);
  }
  await page.getByTestId('empty-import').click();
  await expect(page.getByTestId('import-options')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('empty-open').click();
  const picker = page.getByTestId('file-picker');
  await picker
    .getByTestId('picker-file')
    .filter({ hasText: /^walk\.mtn/ })
    .click();
  await picker.getByTestId('picker-ok').click();
  await waitForDocument(page);
  await expect(empty).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('a browser window at 1280x800 (657 px of page) says what to do about its short window', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 657 });
  await waitForDocument(page);
  const note = page.getByTestId('layout-squeezed');
  // It used to read "Short window: panels shrunk —", a sentence cut off before the mode buttons it meant.
  await expect(note).toHaveText('Window too short for every panel: try a work mode →');
  const [n, mode] = [(await note.boundingBox())!, (await page.getByTestId('mode-tuning').boundingBox())!];
  expect(n.x + n.width).toBeLessThanOrEqual(mode.x);
  expect(await note.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.getByTestId('mode-tuning').click();
  await expect(note).toHaveCount(0);
});

test('the in-app Save picker asks before it replaces a file that exists, and says what an empty list means', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(electronApp !== null, 'the in-app picker serves the loopback transport (Electron asks natively)');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const cmuBefore = readFileSync(workspace.path('cmu_01_01.mtn'));

  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-save-as').click();
  const picker = page.getByTestId('file-picker');
  const name = picker.getByTestId('picker-name');
  const ok = picker.getByTestId('picker-ok');
  await expect(ok).toHaveText('Save');
  // Typed without its extension, the name still lands on cmu_01_01.mtn: asked, nothing written.
  await name.fill('cmu_01_01');
  await ok.click();
  const replace = picker.getByTestId('picker-replace');
  await expect(replace).toContainText('cmu_01_01.mtn already exists. Replace it?');
  await expect(ok).toHaveText('Replace');
  await expect(picker).toBeVisible();
  expect(readFileSync(workspace.path('cmu_01_01.mtn')).equals(cmuBefore)).toBe(true);
  // The question fits the picker at 1280x800 and leaves its buttons visible.
  const [q, dialog] = [(await replace.boundingBox())!, (await picker.boundingBox())!];
  expect(q.y + q.height).toBeLessThanOrEqual(dialog.y + dialog.height);
  await expect(ok).toBeInViewport();
  // Another name takes the question back; a new file is saved at once.
  await name.fill('walk_copy');
  await expect(replace).toHaveCount(0);
  await expect(ok).toHaveText('Save');
  await name.fill('cmu_01_01.mtn');
  await name.press('Enter');
  await expect(replace).toBeVisible();
  await name.press('Escape');
  await expect(picker).toHaveCount(0);
  expect(readFileSync(workspace.path('cmu_01_01.mtn')).equals(cmuBefore)).toBe(true);

  // Clicking a listed file and Save asks too; Replace (a second Save) writes it.
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-save-as').click();
  await picker
    .getByTestId('picker-file')
    .filter({ hasText: /^walk_60fps\.mtn/ })
    .click();
  await ok.click();
  await expect(replace).toContainText('walk_60fps.mtn already exists');
  await ok.click();
  await expect(picker).toHaveCount(0);
  await expect(page.getByTestId('message-info').filter({ hasText: 'walk_60fps.mtn' })).toHaveCount(1);
  expect(readFileSync(workspace.path('walk_60fps.mtn')).equals(readFileSync(workspace.path('walk.mtn')))).toBe(true);

  // An empty list says why: nothing of that kind yet (save), or nothing the filter matches (open).
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-export-msh').click();
  await page.getByTestId('msh-choose-file').click();
  await expect(picker.getByTestId('picker-empty')).toHaveText(
    'No .res8 file here yet: type a name above and Save writes a new one.',
  );
  await picker.getByTestId('picker-cancel').click();
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-open').click();
  await picker.getByRole('textbox', { name: 'Filter files' }).fill('zzz');
  await expect(picker.getByTestId('picker-empty')).toHaveText(
    'No .mtn, .mt3, .mar file name contains "zzz": clear the filter to see them all.',
  );
  await picker.getByTestId('picker-cancel').click();
  expect(pageErrors).toEqual([]);
});

test('Build archives asks about the open project motion’s unsaved edits instead of leaving them out silently', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  const saved = readFileSync(workspace.path('walk.mtn'));
  await makeKeyEdit(page, 'Spine');

  const question = page.getByTestId('confirm-dialog');
  const dialog = page.getByTestId('build-dialog');
  await page.getByTestId('project-build').click();
  await expect(question).toContainText(
    'walk.mtn has unsaved changes. The build reads the saved walk.mtn, so the archives would not have them.',
  );
  // Cancel: no build, the edit still unsaved.
  await question.getByTestId('confirm-cancel').click();
  await expect(question).toHaveCount(0);
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');

  // Save and build: the motion is on disk with its edit, then the build runs on it.
  await page.getByTestId('project-build').click();
  await question.getByTestId('confirm-save').click();
  await untilBuildEnds(dialog, 'done');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  expect(readFileSync(workspace.path('walk.mtn')).equals(saved)).toBe(false);
  await dialog.getByTestId('build-close').click();

  // Nothing unsaved: no question, the build starts at once.
  await page.getByTestId('project-build').click();
  await expect(dialog).toBeVisible();
  await expect(question).toHaveCount(0);
  await untilBuildEnds(dialog, 'done');
  expect(pageErrors).toEqual([]);
});
