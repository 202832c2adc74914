/**
 * A project in File › Open Recent opens as File › Open Project opens it: the project panel shows it, with its first
 * motion, although it lies outside the workspace (what it names is granted only now, as a pick grants it). Run on the
 * loopback server with --user-data, where the list lives as it does in Electron's userData (the browser build's
 * in-app picker opens a project by path, which lists nothing, so the list is written here as Electron's would be).
 * Mutations that fail: the in-page menu opening a recent project as a motion; openRecentProject refusing a listed
 * path; the entry's "project" hint left out.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './electron-binary';
import { expect, test, openLoopbackPage, startLoopbackChild, stopChild } from './fixtures';
import { screenshotOf, waitForDocument } from './ui';

test('a recent project opens from the File menu as Open Project opens it', async ({
  appMode,
  loopbackBrowser,
  workspace,
}, testInfo) => {
  test.skip(appMode !== 'loopback', "--user-data is the loopback server's (Electron: electron/recentProjects.test.ts)");
  const userData = mkdtempSync(join(tmpdir(), 'actguy-e2e-recent-project-'));
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'actguy-e2e-elsewhere-')));
  cpSync(join(repoRoot, 'assets'), elsewhere, { recursive: true });
  const project = join(elsewhere, 'sample.actguy.json');
  writeFileSync(
    join(userData, 'recent-files.json'),
    JSON.stringify([{ path: project, name: 'sample', kind: 'project', openedAt: 1 }]),
  );
  const { child, handle } = await startLoopbackChild(workspace.dir, ['--user-data', userData]);
  try {
    const { context, page } = await openLoopbackPage(loopbackBrowser!, handle);
    await waitForDocument(page);
    await page.getByTestId('menu-file').click();
    const entry = page.getByRole('menuitem', { name: /^sample\s*project$/ });
    await expect(entry).toBeVisible();
    await screenshotOf(page.locator('body'), testInfo.project.name, 'recent-project-menu');
    await entry.click();
    await expect(page.getByTestId('project-name')).toHaveText('sample');
    await expect(page.getByTestId('project-name')).toHaveAttribute('title', project);
    await expect(page.getByTestId('message-error')).toHaveCount(0);
    await context.close();
  } finally {
    await stopChild(child);
    rmSync(userData, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});
