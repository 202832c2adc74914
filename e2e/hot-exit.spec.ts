/**
 * Hot exit (docs/install.md#unsaved-work-after-a-crash): unsaved motion, SEV and project edits survive the page dying.
 * The page copies each unsaved part to main half a second after it changes; a page that dies without saving
 * (closed here, as a crashed renderer would be, with no unsaved-changes question) leaves the copies with the
 * server, and the next page restores them as unsaved documents that Save writes as usual.
 * (Electron's crash and Reload: electron/unsavedBackups.test.ts and the crash question in crashRecords.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { readMtn } from '../shared/mtn/read';
import { KeyFlag } from '../shared/motion/types';
import { parseSevStrict } from '../shared/sev/parse';
import { decodeIpcFrame } from '../shared/ipc/codec';
import { waitForDocument } from './ui';

/** Frames whose root translation key has the TRACE flag. */
function traceFrames(bytes: Uint8Array): number[] {
  const m = readMtn(bytes);
  const frames: number[] = [];
  for (let f = 0; f <= m.frameCount; f++) if (m.translationKeyInfo[f * 4] & KeyFlag.TRACE) frames.push(f);
  return frames;
}

/** Resolves once the page has handed main a copy (the debounced backup after an edit). */
function nextBackup(page: Page) {
  return page.waitForResponse((r) => r.url().includes('/rpc/backupUnsaved') && r.ok());
}

test('unsaved motion, SEV and project edits come back after the page dies, as unsaved documents that Save writes', async ({
  page,
  workspace,
  server,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the loopback server stands in for main here; Electron runs the same handlers (unit tests)');
  await openSampleProject(page, workspace);
  const mtnPath = workspace.path('walk.mtn');
  const sevPath = workspace.path('walk.sev');
  const mtnBefore = readFileSync(mtnPath);
  const sevBefore = readFileSync(sevPath, 'utf8');
  const eventsBefore = parseSevStrict(sevBefore, sevPath).events.length;

  let copied = nextBackup(page);
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(eventsBefore + 1);
  await copied;
  copied = nextBackup(page);
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('t'); // a trace key at the playhead
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await copied;
  copied = nextBackup(page);
  await page.getByTestId('project-move-down').click(); // walk moves to index 1: the project changes
  await expect(page.getByTestId('project-dirty')).toBeVisible();
  await copied;
  const projectPath = workspace.path('sample.actguy.json');
  const projectBefore = readFileSync(projectPath, 'utf8');

  // The page dies without saving: nothing asks, nothing is written.
  await page.close();
  expect(readFileSync(mtnPath)).toEqual(mtnBefore);
  expect(readFileSync(sevPath, 'utf8')).toBe(sevBefore);
  expect(readFileSync(projectPath, 'utf8')).toBe(projectBefore);

  const next = await page.context().newPage();
  next.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  await next.goto(server!.url);
  await waitForDocument(next);
  const restored = next
    .getByTestId('message-warning')
    .filter({ hasText: 'Restored unsaved changes to sample.actguy.json, walk.mtn, walk.sev' });
  await expect(restored).toHaveCount(1);
  await expect(restored).toContainText('Save writes them, Discard drops them');
  await expect(next.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(next.getByTestId('sev-marker')).toHaveCount(eventsBefore + 1);
  await expect(next.getByTestId('sev-save')).toBeEnabled();
  await expect(next).toHaveTitle(/^● walk/);
  await expect(next.getByTestId('project-dirty')).toBeVisible();
  const order = () =>
    next.getByTestId('project-motion').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name));
  await expect.poll(order).toEqual(['cmu_01_01', 'walk', 'walk_rough', 'walk_60']);
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await next.setViewportSize({ width, height });
    await next.screenshot({
      path: join('e2e-output', 'screenshots', `${test.info().project.name}-hot-exit-restored-${width}x${height}.png`),
    });
  }

  // Save writes them through the normal save path (Ctrl+S saves the motion and, with it, its .sev and the project).
  await next.getByTestId('curve-canvas').hover();
  await next.keyboard.press('Control+s');
  await expect(next.getByTestId('dirty-marker')).toHaveText('saved');
  await expect(next.getByTestId('sev-save')).toBeDisabled();
  await expect(next.getByTestId('project-dirty')).toHaveCount(0);
  expect(JSON.parse(readFileSync(projectPath, 'utf8')).motions.map((m: { name: string }) => m.name)).toEqual([
    'cmu_01_01',
    'walk',
    'walk_rough',
    'walk_60',
  ]);
  const trace = (a: number[], b: number[]) => [...a.filter((f) => !b.includes(f)), ...b.filter((f) => !a.includes(f))];
  expect(trace(traceFrames(readFileSync(mtnPath)), traceFrames(mtnBefore))).toHaveLength(1);
  expect(parseSevStrict(readFileSync(sevPath, 'utf8'), sevPath).events).toHaveLength(eventsBefore + 1);

  // Saved: main dropped the copies (each save's handler drops its part's before it answers), so another page restores
  // nothing. Its start asks main for them after its first document, and shows what it restored after the answer: the
  // answer is the presence check the message's absence follows, which alone could pass before the restore had run.
  const third = await next.context().newPage();
  const asked = third.waitForResponse((r) => r.url().includes('/rpc/restoreBackups') && r.ok());
  await third.goto(server!.url);
  const answer = decodeIpcFrame(new Uint8Array(await (await asked).body())) as {
    value: { backups: { part: string }[]; setAside: string[] };
  };
  expect(
    answer.value.backups.map((b) => b.part),
    'the copies main still held',
  ).toEqual([]);
  expect(answer.value.setAside).toEqual([]);
  await waitForDocument(third);
  await expect(third.getByTestId('dirty-marker')).toHaveText('saved');
  await expect(third.getByTestId('message-warning').filter({ hasText: 'Restored' })).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
