/**
 * What a first-time user met following docs/user-guide.md, docs/tuner.md and docs/sound-events.md step by step at
 * 1280x800 (docs/user-guide.md "Tried cold", fourth round): Suggest footsteps' All and None split across two lines;
 * two recent files of one name that read the same; the Build button left blue while the SEV toolbar said the build
 * would refuse the .sev; the Discard of restored .sev changes asking about a "Reload from disk".
 * Mutations that fail: the actions group laid out as before (display: contents); recent labels without their folder;
 * the Build button not counting the shown .sev's problems, or counting them twice once a check lists them; the
 * restored .sev discarded through the reload question.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, openLoopbackPage, startLoopbackChild, stopChild, test } from './fixtures';
import { openSampleProjectAt1280 } from './sev-ui';
import { screenshotOf, waitForDocument, waitForDocumentAt1280 } from './ui';

test('Suggest footsteps keeps All, None, Add and Cancel together on one line at 1280x800', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  // docs/sound-events.md "Suggest footsteps", in the Sound events mode the guide sends a sound designer to.
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('sev-track')).toBeVisible();
  await page.getByRole('button', { name: 'Suggest footsteps' }).click();
  const panel = page.getByTestId('sev-footsteps');
  await expect(panel.getByTestId('sev-footsteps-count')).toContainText('already have their footstep');
  // The panel's actions read as one group: All / None untick or tick the list that Add then adds. The toolbar's
  // wrap put All at the right end of the first line and None at the left of the second, apart from each other.
  const middles = await Promise.all(
    [
      panel.getByRole('button', { name: 'All', exact: true }),
      panel.getByRole('button', { name: 'None', exact: true }),
      panel.getByTestId('sev-footsteps-accept'),
      panel.getByTestId('sev-footsteps-cancel'),
    ].map(async (b) => {
      const box = (await b.boundingBox())!;
      return box.y + box.height / 2;
    }),
  );
  await saveScreenshot('footsteps-actions-1280x800');
  // Their middles on one line (the small buttons are 2 px shorter than Add and Cancel).
  expect(
    Math.max(...middles) - Math.min(...middles),
    `middles of All, None, Add, Cancel: ${middles.join(', ')}`,
  ).toBeLessThan(2);
  expect(pageErrors).toEqual([]);
});

test('two recent files of one name read apart in the File menu, each with its path', async ({
  appMode,
  loopbackBrowser,
  workspace,
}, testInfo) => {
  // The browser build keeps its recent list in --user-data as Electron keeps it in userData (e2e/recent-project.spec.ts).
  test.skip(appMode !== 'loopback', "--user-data is the loopback server's");
  const userData = mkdtempSync(join(tmpdir(), 'actguy-e2e-recent-names-'));
  const other = join(workspace.dir, 'takes');
  mkdirSync(other);
  copyFileSync(workspace.path('walk.mtn'), join(other, 'walk.mtn'));
  const paths = [join(other, 'walk.mtn'), workspace.path('walk.mtn')];
  writeFileSync(
    join(userData, 'recent-files.json'),
    JSON.stringify(paths.map((path, i) => ({ path, name: 'walk', kind: 'mtn', openedAt: 2 - i }))),
  );
  const { child, handle } = await startLoopbackChild(workspace.dir, ['--user-data', userData]);
  try {
    const { context, page } = await openLoopbackPage(loopbackBrowser!, handle);
    await waitForDocument(page);
    await page.getByTestId('menu-file').click();
    // The first open (walk.mtn of the workspace) moved that entry to the top; each names its folder and its path.
    const entries = page.getByRole('menu', { name: 'File' }).getByRole('menuitem', { name: /recent$/ });
    await expect(entries).toHaveCount(2);
    await screenshotOf(page.locator('body'), testInfo.project.name, 'recent-same-name-1280x800');
    const shown = await entries.evaluateAll((els) =>
      els.map((e) => ({ label: e.querySelector('.menu-label')!.textContent, title: e.getAttribute('title') })),
    );
    expect(shown).toEqual([
      { label: `walk.mtn — ${basename(workspace.dir)}`, title: workspace.path('walk.mtn') },
      { label: 'walk.mtn — takes', title: join(other, 'walk.mtn') },
    ]);
    await context.close();
  } finally {
    await stopChild(child);
    rmSync(userData, { recursive: true, force: true });
  }
});

test('an SE renamed to a name no table defines turns the Build button, as the SEV toolbar says, before any Check', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+3');
  const build = page.getByTestId('project-build');
  await expect(page.getByTestId('project-check')).toHaveText('Check', { timeout: 30_000 });
  await expect(build).toHaveText('Build archives (.mar, .sar)…');
  // docs/sound-events.md "SE definitions": a name no table defines is red, and the toolbar says the build refuses.
  const name = page.getByTestId('sev-se-name').first();
  await name.fill('SE_NOT_IN_ANY_TABLE');
  await name.press('Enter');
  await expect(page.getByTestId('sev-issues')).toHaveText('1 problem — the build will refuse this SEV');
  // The project's check ran before the edit (it runs on open, save and Check): the button still counts the problem.
  await expect(build).toHaveText('Build archives (.mar, .sar)… (1 problem to fix)');
  await expect(build).toHaveAttribute(
    'title',
    /fixed: it is in the \.sev being edited, named in the Sound events toolbar/,
  );
  await saveScreenshot('build-counts-sev-problem-1280x800');
  // Once a check lists it, it is counted once.
  await page.getByTestId('project-check').click();
  await expect(page.getByTestId('project-problems')).toContainText('SE_NOT_IN_ANY_TABLE');
  await expect(page.getByTestId('project-check')).toHaveText('Check', { timeout: 30_000 });
  await expect(build).toHaveText('Build archives (.mar, .sar)… (1 problem to fix)');
  await expect(build).not.toHaveAttribute('title', /being edited/);
  // The rename is one undo step; undone and checked again, the button is the blue one.
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText('Undo Rename SE_FOOT_L to SE_NOT_IN_ANY_TABLE');
  await page.getByTestId('menu-undo').click();
  await expect(page.getByTestId('sev-issues')).toHaveCount(0);
  await page.getByTestId('project-check').click();
  await expect(page.getByTestId('project-problems')).toHaveCount(0, { timeout: 30_000 });
  await expect(build).toHaveText('Build archives (.mar, .sar)…');
  expect(pageErrors).toEqual([]);
});

test('the Discard of restored .sev changes asks about discarding them, not about a reload it never named', async ({
  page: first,
  server,
  electronApp,
  pageErrors,
}, testInfo) => {
  // Hot exit in the browser build: the server keeps the copy of unsaved work across a page reload (docs/install.md).
  test.skip(!!electronApp, 'a page reload stands for the crash in the browser build');
  await waitForDocument(first);
  await first.locator('[data-testid="sev-marker"][data-index="1"]').click();
  // The copy handed to the server (debounced after the edit), then the page dies without saving (e2e/hot-exit.spec.ts).
  const copied = first.waitForResponse((r) => r.url().includes('/rpc/backupUnsaved') && r.ok());
  await first.keyboard.press('Alt+ArrowRight');
  await expect(first.getByTestId('sev-event-frame').nth(1)).toHaveValue('6');
  await copied;
  await first.close();
  const page = await first.context().newPage();
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server!.url);
  await waitForDocument(page);
  const restored = page
    .getByTestId('message-list')
    .locator('.message')
    .filter({ hasText: 'Restored unsaved changes to walk.sev' });
  await expect(restored).toContainText('Discard drops them');
  await restored.getByTestId('message-action').click();
  const question = page.getByTestId('confirm-dialog');
  await expect(question).toContainText('Discard restored changes');
  await expect(question).toContainText(
    'Discard the restored changes to walk.sev, and any edits made to it since, and read it from disk again?',
  );
  // The fixture's screenshot is of the page that died: this one is of the page that restored the copy.
  await screenshotOf(page.locator('body'), testInfo.project.name, 'discard-restored-sev-1280x800');
  // The keyboard is on Cancel, the primary answer, though "Discard" comes first: Enter keeps the restored changes.
  await expect(question.getByTestId('confirm-cancel')).toBeFocused();
  // The named button drops them (Cancel keeps them, as before).
  await question.getByTestId('confirm-reload').click();
  await expect(page.getByTestId('sev-file')).not.toContainText('modified');
  await expect(page.getByTestId('sev-event-frame').nth(1)).toHaveValue('5');
  expect(pageErrors).toEqual([]);
});
