import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';

/**
 * Every Tab stop shows that it has the keyboard (docs/architecture.md, "Renderer review, round 3"): Tab walks the
 * page once round from the menu bar, and each stop, or a box around it up to three levels (a list's frame), must
 * draw differently while it has the focus than once the keyboard left it (outline, shadow, border or background).
 */
function looks(el: Element | null): string[] {
  const out: string[] = [];
  for (let i = 0; i < 4 && el; i++, el = el.parentElement) {
    const s = getComputedStyle(el);
    out.push([s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor, s.backgroundColor].join('|'));
  }
  return out;
}

/** The Tab stops (tag and test id, label or text) that look the same with the focus and without. */
async function stopsWithoutFocusLook(page: Page, from: string): Promise<{ stops: string[]; unseen: string[] }> {
  await page.getByTestId(from).focus();
  await page.evaluate((fn) => {
    const w = window as unknown as { __stops: Element[]; __looks: (el: Element | null) => string[] };
    w.__stops = [];
    w.__looks = new Function(`return ${fn}`)() as (el: Element | null) => string[];
  }, looks.toString());
  const stops: string[] = [];
  const unseen: string[] = [];
  let focused: string[] | null = null;
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    // One read a stop: how the stop left looks now, and the stop that has the keyboard (two reads a stop before,
    // a third of the walk's round trips; docs/testing.md, "Tests under load, round 10").
    const { left, now } = await page.evaluate(() => {
      const w = window as unknown as { __stops: Element[]; __looks: (el: Element | null) => string[] };
      const left = w.__stops.length ? w.__looks(w.__stops[w.__stops.length - 1]) : null;
      const el = document.activeElement;
      if (!el || el === document.body || w.__stops.includes(el)) return { left, now: null };
      w.__stops.push(el);
      const name =
        el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30);
      return { left, now: { key: `${el.tagName.toLowerCase()} ${name}`, looks: w.__looks(el) } };
    });
    // The stop left: how it looks now against how it looked focused.
    if (focused && left && left.every((l, k) => l === focused![k])) unseen.push(stops[stops.length - 1]);
    if (!now) break;
    stops.push(now.key);
    focused = now.looks;
  }
  return { stops, unseen };
}

test('every Tab stop with the sample project and its .sev open shows the focus', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.setTimeout(300_000);
  await openSampleProject(page, workspace, electronApp);
  const { stops, unseen } = await stopsWithoutFocusLook(page, 'menu-file');
  // The walk went through every panel: the menu bar, the tuner, the project, the SEV editor's lists.
  for (const id of ['button play-toggle', 'button tuning-fold-locks', 'button project-build', 'input sev-event-frame'])
    expect(stops).toContain(id);
  expect(unseen).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('a .sev that does not read: its text field shows the focus (it draws no border of its own)', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.setTimeout(300_000);
  await openSampleProject(page, workspace, electronApp);
  const good = readFileSync(workspace.path('walk.sev'), 'utf8');
  writeFileSync(workspace.path('walk.sev'), good.replace('event 38 0 17', 'event 38 0 seventeen'));
  await page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').click();
  await expect(page.getByTestId('sev-file')).toContainText('cmu_01_01.sev');
  await page.locator('[data-testid="project-motion"][data-name="walk"]').click();
  await expect(page.getByTestId('sev-broken')).toBeVisible();
  const { stops, unseen } = await stopsWithoutFocusLook(page, 'menu-file');
  expect(stops).toContain('textarea sev-source');
  expect(unseen).toEqual([]);
  expect(pageErrors).toEqual([]);
});
