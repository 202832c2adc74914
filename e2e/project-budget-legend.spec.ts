/**
 * The budget bar's key: in Project mode at 1280x800 the bar's segments were too narrow for their labels (cut to
 * "w…"), so under the bar each motion has a line with its colour, whole name, bytes and share of the .mar, readable
 * at 1280x800 and at 1920x1080 (docs/formats.md#budget). Mutation that fails it: the <ul
 * data-testid="project-budget-legend"> of renderer/project/BudgetBar.tsx removed (names only in the segments again).
 */
import { expect, test } from './fixtures';
import { openSampleProjectAt1280 } from './sev-ui';
import type { Page } from '@playwright/test';

/** Every key line: its name, bytes and share shown whole, inside the window, none cut or overflowing. */
async function legendLines(page: Page) {
  return page.getByTestId('project-budget-legend-item').evaluateAll((els) =>
    els.map((e) => {
      const li = e as HTMLElement;
      const parts = Array.from(li.children) as HTMLElement[];
      const r = li.getBoundingClientRect();
      return {
        name: li.dataset.name,
        bytes: Number(li.dataset.bytes),
        text: li.innerText.replace(/\s+/g, ' ').trim(),
        whole: parts.every(
          (p) =>
            p.scrollWidth <= p.clientWidth + 1 &&
            p.getBoundingClientRect().right <= r.right + 1 &&
            getComputedStyle(p).textOverflow !== 'ellipsis',
        ),
        inWindow: r.left >= 0 && r.right <= window.innerWidth,
        swatch: getComputedStyle(parts[0]).backgroundColor,
      };
    }),
  );
}

test('the budget bar has a readable key of motion, bytes and share in Project mode at 1280x800 and 1920x1080', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.setTimeout(120_000);
  await openSampleProjectAt1280(page, workspace, electronApp);
  const panel = page.getByTestId('project-budget');
  const segments = panel.getByTestId('project-budget-segment');
  await expect(segments).toHaveCount(4, { timeout: 60_000 });
  await page.getByTestId('mode-project').click();
  const bar = panel.getByTestId('project-budget-bar');
  await expect(bar).toBeVisible();

  const bySegment = await segments.evaluateAll((els) =>
    els.map((e) => ({
      name: (e as HTMLElement).dataset.name,
      bytes: Number((e as HTMLElement).dataset.bytes),
      color: getComputedStyle(e).backgroundColor,
    })),
  );
  const total = bySegment.reduce((a, s) => a + s.bytes, 0);
  const sizes = electronApp
    ? [null]
    : [
        { width: 1280, height: 800 },
        { width: 1920, height: 1080 },
      ];
  for (const size of sizes) {
    if (size) await page.setViewportSize(size);
    const legend = panel.getByTestId('project-budget-legend');
    await expect(legend).toBeVisible();
    await legend.scrollIntoViewIfNeeded();
    const lines = await legendLines(page);
    // One line a motion, in the bar's order and colours, each naming it whole with its bytes and share.
    expect(lines.map((l) => l.name)).toEqual(bySegment.map((s) => s.name));
    expect(lines.map((l) => l.bytes)).toEqual(bySegment.map((s) => s.bytes));
    expect(lines.map((l) => l.swatch)).toEqual(bySegment.map((s) => s.color));
    for (const l of lines) {
      expect(l.text.startsWith(`${l.name} `), l.text).toBe(true);
      expect(l.text, l.text).toContain(`${((l.bytes / total) * 100).toFixed(1)}%`);
      expect(l.text, l.text).toMatch(/\d (bytes?|KiB|MiB) /);
      expect(l.whole, `${l.text} shown whole`).toBe(true);
      expect(l.inWindow, `${l.text} inside the window`).toBe(true);
    }
    const names = panel.getByTestId('project-budget-legend-name');
    for (let k = 0; k < bySegment.length; k++) await expect(names.nth(k)).toHaveText(bySegment[k].name!);
    await saveScreenshot(`project-budget-legend-${size ? `${size.width}x${size.height}` : 'desktop'}`);
  }
  expect(pageErrors).toEqual([]);
});
