/**
 * A planted commit journal in a received project folder (docs/safety-journal.md):
 * Build Archives refuses it, the build dialog shows the message naming the
 * journal and how to clear it, and the files it aimed at are untouched.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';

test('Build Archives refuses a journal it did not write and says how to clear it', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  mkdirSync(workspace.path('out'), { recursive: true });
  writeFileSync(workspace.path('payload.txt'), 'attacker bytes\n');
  const walk = readFileSync(workspace.path('walk.mtn'));
  const journal = workspace.path('out/stage.mar.actguy-commit');
  writeFileSync(
    journal,
    JSON.stringify({
      tool: 'actguy commit',
      version: 1,
      state: 'forward',
      entries: [{ path: workspace.path('walk.mtn'), temp: workspace.path('payload.txt'), backup: null }],
    }),
  );

  await page.getByTestId('project-build').click();
  const dialog = page.getByTestId('build-dialog');
  await expect(dialog.getByTestId('build-state')).toHaveAttribute('data-state', 'failed', { timeout: 90_000 });
  const error = dialog.getByTestId('build-error');
  await expect(error).toHaveCount(1);
  await expect(error).toContainText(
    `refused the commit journal ${journal}: it does not name the outputs it belongs to`,
  );
  await expect(error).toContainText('move the journal aside (rename or delete it) and run again');
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    await expect(error).toBeInViewport();
    await saveScreenshot(`journal-refused-${size.width}x${size.height}`);
  }
  expect(readFileSync(workspace.path('walk.mtn')).equals(walk)).toBe(true);
  expect(readFileSync(workspace.path('payload.txt'), 'utf8')).toBe('attacker bytes\n');
  expect(readFileSync(journal, 'utf8')).toContain('"state":"forward"');
  expect(pageErrors).toEqual([]);
});
