import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { animationFrames, waitForCompression, waitForProjectFigures } from './ui';
import { reloadCountingRenders, renders } from './renderCounter';

/**
 * Collapsing a panel and switching the work mode re-render the layout, the areas whose state changed and their
 * buttons: not the panels (round 4's panels made once already kept them), nor the menu bar, which selected the panels'
 * states and the work mode for its View menu while no menu was open (docs/architecture.md, "Renderer review, round
 * 5"). ./renderCounter.ts counts the renders of the component drawing each data-testid. Mutation: MenuBar.tsx
 * selecting them with no menu open (the menu bar 10 renders for the ten collapses and restores, 4 for the modes).
 * Each state is given three animation frames before the next click (the rule of docs/testing.md, round 1): a panel
 * that rendered for its new size would do so once laid out and told by its ResizeObserver, frames after the state.
 */
const PANELS = ['viewport', 'curve-view', 'timeline', 'tuning-panel', 'project-panel', 'sev-editor', 'statusbar'];
const BARS = ['menu-file', 'play-toggle'];
const ALL = [...PANELS, ...BARS];

async function counted(page: Page, act: () => Promise<void>): Promise<Record<string, number>> {
  const before = await renders(page);
  await act();
  const after = await renders(page);
  return Object.fromEntries(ALL.map((id) => [id, after[id] - before[id]]));
}

test('collapsing panels and switching work modes re-render no panel', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the render counter is given to the browser page before it loads');
  await reloadCountingRenders(page, ALL);
  await openSampleProject(page, workspace, electronApp);
  await expect(page.getByTestId('sev-event-list')).toBeVisible();
  await waitForProjectFigures(page);
  await waitForCompression(page);
  const none = Object.fromEntries(ALL.map((id) => [id, 0]));

  const collapse = await counted(page, async () => {
    for (const id of ['curves', 'timeline', 'tuning', 'project', 'sev']) {
      const area = page.getByTestId(`area-${id}`);
      await area.getByTestId(`panel-toggle-${id}`).first().click();
      await expect(area).toHaveAttribute('data-state', 'collapsed');
      await animationFrames(page, 3);
      await area.getByTestId(`panel-toggle-${id}`).first().click();
      await expect(area).toHaveAttribute('data-state', 'open');
      await animationFrames(page, 3);
    }
  });
  const modes = await counted(page, async () => {
    for (const mode of ['tuning', 'sev', 'project']) {
      await page.getByTestId(`mode-${mode}`).click();
      await expect(page.getByTestId(`mode-${mode}`)).toHaveAttribute('aria-pressed', 'true');
      await animationFrames(page, 3);
    }
    await page.getByTestId('mode-project').click();
    await expect(page.getByTestId('mode-project')).toHaveAttribute('aria-pressed', 'false');
    await animationFrames(page, 3);
  });
  expect(collapse).toEqual(none);
  expect(modes).toEqual(none);
  // The curve view's key band and the timeline's keys (drawn from the keys in view since this round), looked at.
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    await expect(page.getByTestId('timeline-canvas')).toBeVisible();
    await saveScreenshot(`round5-keys-${width}x${height}`);
  }
  expect(pageErrors).toEqual([]);
});
