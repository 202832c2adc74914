import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { animationFrames, waitForCompression, waitForProjectFigures } from './ui';
import { reloadCountingRenders, renders } from './renderCounter';

/**
 * A splitter drag re-renders the window's layout and the splitters, not the panels (docs/architecture.md,
 * "Renderer review, round 4"): App re-renders at each pointer move of a drag, and it re-rendered every panel, bar and
 * dialog under it with it. ./renderCounter.ts counts the renders of the component drawing each data-testid.
 */
const PANELS = ['viewport', 'curve-view', 'timeline', 'tuning-panel', 'project-panel', 'sev-editor', 'statusbar'];
/** The menu bar draws its titles itself (`menu-file`); the play button is the playback bar's. */
const BARS = ['menu-file', 'play-toggle'];

async function drag(page: Page, name: string, dx: number, dy: number): Promise<void> {
  const splitter = page.getByRole('separator', { name, exact: true });
  const before = await splitter.getAttribute('aria-valuenow');
  const box = (await splitter.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  // Ten pointer moves: ten sizes.
  await page.mouse.move(x + dx, y + dy, { steps: 10 });
  await page.mouse.up();
  await expect(splitter).not.toHaveAttribute('aria-valuenow', before!);
}

test('dragging a splitter re-renders no panel, bar nor the menu bar', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the render counter is given to the browser page before it loads');
  await reloadCountingRenders(page, [...PANELS, ...BARS]);
  await openSampleProject(page, workspace, electronApp);
  await expect(page.getByTestId('sev-event-list')).toBeVisible();
  // The project's first figures and the motion's compression are in: nothing else is on its way to the panels.
  await waitForProjectFigures(page);
  await waitForCompression(page);
  const before = await renders(page);
  for (const id of [...PANELS, ...BARS]) expect(before[id], id).toBeGreaterThan(0);

  // The four kinds of size: the tuning column (the preferences), the project column, a row of the project's layout
  // (the SEV editor's and the timeline's heights), the curve view's height.
  await drag(page, 'Resize tuning panel', -60, 0);
  await drag(page, 'Resize project panel', 60, 0);
  await drag(page, 'Resize sound-event editor', 0, -60);
  await drag(page, 'Resize curve view', 0, 40);
  // A panel that followed its new size would render once the page has laid it out and its ResizeObserver has run,
  // frames after the drag: counted after rendered frames, not at once (where a late render was not seen yet).
  await animationFrames(page, 3);
  const after = await renders(page);
  const moved = Object.fromEntries([...PANELS, ...BARS].map((id) => [id, after[id] - before[id]]));
  expect(moved).toEqual(Object.fromEntries([...PANELS, ...BARS].map((id) => [id, 0])));
  expect(pageErrors).toEqual([]);
});
