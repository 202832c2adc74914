/**
 * A damaged list of recent files is said to the user once, as a warning in the message list (what happened, which
 * file, that the list was reset), while the start-up motion opens as usual; the next start says nothing, the list
 * having been reset. (It was said only on the console.) Run on the loopback server with --user-data, where the list
 * lives as it does in Electron's userData. Mutations that fail: main.tsx not showing startupWarnings; serve.ts (or
 * main.ts) not passing the store's startupProblem on; the reset not written back (said again at the next start).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, openLoopbackPage, startLoopbackChild, stopChild } from './fixtures';
import { waitForDocument } from './ui';

test('a damaged recent-files list is said once, in the message list, without holding the start', async ({
  appMode,
  loopbackBrowser,
  workspace,
}) => {
  test.skip(
    appMode !== 'loopback',
    "--user-data is the loopback server's (Electron: electron/userDataHostile.test.ts)",
  );
  const userData = mkdtempSync(join(tmpdir(), 'actguy-e2e-recent-'));
  const list = join(userData, 'recent-files.json');
  writeFileSync(list, '[{"path": "/home/u/walk.mtn", "name": "wa');
  try {
    for (const run of ['damaged', 'after the reset'] as const) {
      const { child, handle } = await startLoopbackChild(workspace.dir, ['--user-data', userData]);
      try {
        const { context, page } = await openLoopbackPage(loopbackBrowser!, handle);
        await waitForDocument(page);
        const warning = page.getByTestId('message-warning').filter({ hasText: 'recent files' });
        if (run === 'damaged') {
          await expect(warning).toHaveCount(1);
          await expect(warning).toContainText(
            `The list of recent files could not be used (not JSON), so it was reset: File › Open Recent starts empty. File: ${list}`,
          );
        } else {
          await expect(page.getByTestId('doc-name')).toHaveText('walk');
          await expect(warning).toHaveCount(0);
        }
        await context.close();
      } finally {
        await stopChild(child);
      }
    }
  } finally {
    rmSync(userData, { recursive: true, force: true });
  }
});
