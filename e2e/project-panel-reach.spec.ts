/**
 * Every part of the project panel reachable and readable, in the Project work mode and the full layout, at 1280x800
 * and 1920x1080 (the sample project, every section open: its alias, the warnings unfolded, a budget with its bar). The
 * aliases sat in a scroller of their own capped at 30% of the short body, so at 1280x800 their rows were cut to nothing
 * under their heading; the body's one scroll now reaches every alias row, the budget field, its use line and its bar
 * whole. Mutation that fails it: `.project-aliases { max-height: 30%; overflow: auto }` back in project.css.
 */
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import type { Locator, Page } from '@playwright/test';

async function box(l: Locator) {
  const b = await l.boundingBox();
  expect(b, 'laid out').not.toBeNull();
  return b!;
}

/** Scrolls `target` into the panel body's view, then checks it lies whole inside the body and inside the panel's width. */
async function expectWholeInBody(page: Page, target: Locator, what: string) {
  const panel = page.getByTestId('project-panel');
  const body = panel.getByTestId('project-body');
  await target.scrollIntoViewIfNeeded();
  const t = await box(target);
  const b = await box(body);
  const p = await box(panel);
  expect(t.height, `${what} has a height`).toBeGreaterThan(4);
  expect(t.y, `${what} top in the body`).toBeGreaterThanOrEqual(b.y - 1);
  expect(t.y + t.height, `${what} bottom in the body`).toBeLessThanOrEqual(b.y + b.height + 1);
  expect(t.x, `${what} left in the panel`).toBeGreaterThanOrEqual(p.x - 1);
  expect(t.x + t.width, `${what} right in the panel`).toBeLessThanOrEqual(p.x + p.width + 1);
  // Not clipped by a scroller of its own inside the body: the element at its centre is itself or inside it.
  const hit = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + Math.min(r.width / 2, 20), r.y + r.height / 2);
    return !!at && (el === at || el.contains(at));
  });
  expect(hit, `${what} is what shows at its place`).toBe(true);
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  for (const mode of ['project', 'full'] as const) {
    test(`at ${size.width}x${size.height} (${mode}) every part of the project panel scrolls whole into view`, async ({
      page,
      workspace,
      electronApp,
      saveScreenshot,
    }) => {
      await page.setViewportSize(size);
      await openSampleProject(page, workspace, electronApp);
      if (mode === 'project') {
        await page.getByTestId('mode-project').click();
        await expect(page.getByTestId('mode-project')).toHaveAttribute('aria-pressed', 'true');
      }
      const panel = page.getByTestId('project-panel');
      await panel.getByTestId('project-warnings').locator('summary').click();
      await panel.getByTestId('project-budget-input').fill('60K');
      await panel.getByTestId('project-budget-set').click();
      await expect(panel.getByTestId('project-budget-bar')).toBeVisible();
      await saveScreenshot(`project-reach-${mode}-${size.width}x${size.height}`);

      // No section of the body is a scroller of its own that hides part of it: the body's one scroll reaches all.
      for (const id of ['project-motions', 'project-aliases', 'project-problems', 'project-warnings']) {
        const section = panel.getByTestId(id);
        if (!(await section.count())) continue;
        const hidden = await section.evaluate((el) => el.scrollHeight - el.clientHeight);
        expect(hidden, `${id} shows all of itself (no rows hidden in its own scroller)`).toBeLessThanOrEqual(1);
      }
      const aliases = panel.getByTestId('project-alias');
      expect(await aliases.count(), 'the sample has aliases').toBeGreaterThan(0);
      await expectWholeInBody(page, panel.getByTestId('project-aliases').locator('.sub'), 'the aliases heading');
      for (let i = 0; i < (await aliases.count()); i++) await expectWholeInBody(page, aliases.nth(i), `alias ${i}`);
      const warnings = panel.getByTestId('project-warning');
      for (let i = 0; i < (await warnings.count()); i++) await expectWholeInBody(page, warnings.nth(i), `warning ${i}`);
      await expectWholeInBody(page, panel.getByTestId('project-budget-input'), 'the budget field');
      await expectWholeInBody(page, panel.getByTestId('project-budget-set'), 'the budget Set button');
      await expectWholeInBody(page, panel.getByTestId('project-budget-use'), 'the budget use line');
      await expectWholeInBody(page, panel.getByTestId('project-budget-bar'), 'the budget bar');
      await saveScreenshot(`project-reach-${mode}-scrolled-${size.width}x${size.height}`);
      // The header and the actions stay whole above the status bar.
      const status = await box(page.getByTestId('statusbar'));
      for (const id of ['project-build', 'project-export-mt3', 'project-store-tolerances']) {
        const b = await box(panel.getByTestId(id));
        expect(b.y + b.height, `${id} above the status bar`).toBeLessThanOrEqual(status.y);
      }
    });
  }
}
