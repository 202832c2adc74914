/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * twenty-fifth round).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

import { openSampleProjectAt1280 } from './sev-ui';

/** Lines of an element's shown text: the distinct tops of the boxes of its text that is not hidden. */
async function textLines(el: Locator): Promise<number> {
  return el.evaluate((e) => {
    const tops = new Set<number>();
    const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.parentElement || getComputedStyle(n.parentElement).visibility === 'hidden') continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of Array.from(range.getClientRects())) tops.add(Math.round(r.top));
    }
    return tops.size;
  });
}

async function showAllPanels(page: Page): Promise<void> {
  await page.getByTestId('menu-view').click();
  await page.getByTestId('menu-show-all-panels').click();
  await expect(page.getByTestId('sev-se-table')).toBeVisible();
}

// Round 25's lock-name scenario (a name running on over the free lock row after its bar) went with round 27, which
// cuts the name to its bar again: cold-round27.spec.ts.

/**
 * The full layout's timeline (580 px at 1280x800, 745 px at 1920x1080) had its hint on two lines. Where the whole
 * hint does not fit on one line, a shorter one shows, the whole in its tooltip; where it fits (the Project mode at
 * 1280x800) it is the whole, as before. Mutation that fails: the short form never chosen (two lines).
 */
test('the timeline hint is one line in the full layout at 1280x800 and 1920x1080', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await showAllPanels(page);
  const hint = page.getByTestId('timeline-hint');
  await expect(hint).toHaveAttribute('title', /Chain header: click folds · Right-click: key, lock, trace there$/);
  await expect(hint.locator('.hint-short')).toHaveText(/^Lock row: drag · Trace row: click · .* Right-click: more$/);
  await expect.poll(() => textLines(hint), { message: 'lines of the hint at 1280x800' }).toBe(1);
  expect(await hint.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1)).toBe(
    true,
  );
  if (!electronApp) {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => textLines(hint), { message: 'lines of the hint at 1920x1080' }).toBe(1);
  }
  // Where the whole fits, the whole, with no tooltip to repeat it.
  await page.keyboard.press('Control+3');
  await expect(hint.locator('.hint-short')).toHaveCount(0);
  await expect(hint).not.toHaveAttribute('title', /./);
  await expect.poll(() => textLines(hint), { message: 'lines of the whole hint in Project mode' }).toBe(1);
  expect(pageErrors).toEqual([]);
});

/**
 * A Tab walk over the whole window with the accessibility tree: every stop has a name. Two said only a number: the
 * trace key chips ("44") and the event's floor-variant toggle ("▾ 8"). They are named for what they are now.
 * Mutation that fails: either aria-label taken out.
 */
test('the trace key chips and the floor-variant toggle are named for what they are', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await showAllPanels(page);
  await expect(page.getByRole('button', { name: 'Go to the trace key at frame 44' })).toHaveText('44');
  await expect(page.getByRole('button', { name: 'Go to the trace key at frame 0 (the first frame)' })).toHaveText('0');
  await expect(page.getByRole('button', { name: 'Go to the trace key at frame 132 (the last frame)' })).toHaveText(
    '132',
  );
  const toggle = page.getByRole('button', {
    name: '8 floor variants of event 1 (SE 0)',
    exact: true,
  });
  await expect(toggle).toHaveText('▾ 8');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(pageErrors).toEqual([]);
});
