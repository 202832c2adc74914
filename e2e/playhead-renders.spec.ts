import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { waitForCompression, waitForProjectFigures } from './ui';

/**
 * The playhead moving re-renders what shows it (the status bar's frame, the SEV toolbar's frame, the event row's
 * playhead line), not the SEV editor, its event list and event row, nor the project panel (docs/architecture.md,
 * "Renderer review, round 3"). The production build has no React profiler: the page is given the hook React's
 * developer tools use, which React calls after every commit, and counts the renders of the component that draws an
 * element of a given data-testid (its nearest function component). A function component that rendered holds new
 * hook objects; one skipped keeps the old ones, so a render is a first hook not seen before.
 */
const WATCHED = ['status-frame', 'sev-playhead', 'sev-editor', 'sev-event-list', 'sev-track', 'project-panel'];

function installRenderCounter(watched: string[]): void {
  interface Fiber {
    tag: number;
    child: Fiber | null;
    sibling: Fiber | null;
    return: Fiber | null;
    memoizedProps: Record<string, unknown> | null;
    memoizedState: object | null;
  }
  const counts: Record<string, number> = {};
  for (const id of watched) counts[id] = 0;
  // Per testid: two elements drawn by one component count its renders each.
  const seen: Record<string, WeakSet<object>> = {};
  for (const id of watched) seen[id] = new WeakSet<object>();
  // FunctionComponent, ForwardRef, SimpleMemoComponent (React 19's fiber tags).
  const isFunction = (f: Fiber) => f.tag === 0 || f.tag === 11 || f.tag === 15;
  (window as unknown as { __renders: Record<string, number> }).__renders = counts;
  (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
      const stack: Fiber[] = [root.current];
      while (stack.length) {
        const f = stack.pop()!;
        if (f.child) stack.push(f.child);
        if (f.sibling) stack.push(f.sibling);
        const id = f.memoizedProps?.['data-testid'];
        if (typeof id !== 'string' || !(id in counts)) continue;
        let owner = f.return;
        while (owner && !isFunction(owner)) owner = owner.return;
        const hooks = owner?.memoizedState;
        if (hooks && !seen[id].has(hooks)) {
          seen[id].add(hooks);
          counts[id]++;
        }
      }
    },
  };
}

async function renders(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => ({ ...(window as unknown as { __renders: Record<string, number> }).__renders }));
}

test('playing the motion re-renders the frame readouts, not the SEV editor, its lists nor the project panel', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the render counter is given to the browser page before it loads');
  await page.addInitScript(installRenderCounter, WATCHED);
  await page.reload();
  await openSampleProject(page, workspace, electronApp);
  // No sound is played as the playhead passes the events (a sound played is shown in the toolbar).
  const audition = page.getByTestId('sev-audition');
  if (await audition.isChecked()) await audition.uncheck();
  await expect(page.getByTestId('sev-event-list')).toBeVisible();
  // The project's first figures and the motion's compression are in: nothing else is on its way to the panels.
  await waitForProjectFigures(page);
  await waitForCompression(page);

  const before = await renders(page);
  // The counter counts: the editor, its list and the panel were drawn once at least.
  for (const id of WATCHED) expect(before[id], id).toBeGreaterThan(0);
  const start = Number(await page.getByTestId('status-frame').textContent());
  await page.getByTestId('play-toggle').click();
  await expect
    .poll(async () => Number(await page.getByTestId('status-frame').textContent()))
    .toBeGreaterThan(start + 30);
  await page.getByTestId('play-toggle').click();
  const after = await renders(page);

  // What shows the playhead re-rendered as it moved...
  expect(after['status-frame'] - before['status-frame']).toBeGreaterThan(20);
  expect(after['sev-playhead'] - before['sev-playhead']).toBeGreaterThan(20);
  // ...and nothing else did (the play button's own click re-renders none of them).
  const still = ['sev-editor', 'sev-event-list', 'sev-track', 'project-panel'];
  expect(Object.fromEntries(still.map((id) => [id, after[id] - before[id]]))).toEqual(
    Object.fromEntries(still.map((id) => [id, 0])),
  );
  expect(pageErrors).toEqual([]);
});
