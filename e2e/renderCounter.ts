import type { Page } from '@playwright/test';

/**
 * Counts React renders in the production build (docs/architecture.md, "Renderer review, round 3"). It has no React
 * profiler: the page is given the hook React's developer tools use, which React calls after every commit, and counts
 * the renders of the component that draws an element of a given data-testid (its nearest function component). A
 * function component that rendered holds new hook objects; one skipped keeps the old ones, so a render is a first hook
 * not seen before. `reloadCountingRenders(page, testids)` gives it to the page and reloads.
 */
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

/** Gives the page the counter for `watched` and reloads it, so the counts start at the page's first render. */
export async function reloadCountingRenders(page: Page, watched: string[]): Promise<void> {
  await page.addInitScript(installRenderCounter, watched);
  await page.reload();
}

export async function renders(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => ({ ...(window as unknown as { __renders: Record<string, number> }).__renders }));
}
