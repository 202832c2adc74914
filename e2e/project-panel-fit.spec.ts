/**
 * The project panel at 1280x800 in the full layout, every section open (aliases, warnings, a budget with its bar):
 * its header, toolbar and the last row of actions stay whole above the status bar, and only the part between them
 * scrolls, so each motion row and the budget bar can be scrolled fully into view. (The whole panel scrolled: unscrolled,
 * "Export .mt3… / Tolerances → project" sat under the status bar; scrolled, the header with Open / Save went out of
 * view.) A finished build dialog closes with Escape (it stayed open).
 */
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { buildArchives } from './ui';
import type { Locator } from '@playwright/test';

async function box(l: Locator) {
  const b = await l.boundingBox();
  expect(b, 'laid out').not.toBeNull();
  return b!;
}

test('at 1280x800 the project panel keeps its header and last row whole above the status bar, every section open', async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  const panel = page.getByTestId('project-panel');
  // Every section open: the warnings unfolded and a budget set (its use line and bar show).
  await panel.getByTestId('project-warnings').locator('summary').click();
  await expect(panel.getByTestId('project-warning').first()).toBeVisible();
  await panel.getByTestId('project-budget-input').fill('60K');
  await panel.getByTestId('project-budget-set').click();
  await expect(panel.getByTestId('project-budget-bar')).toBeVisible();
  // The field shows the budget as typed (it showed "61440"), and the undo step names it so.
  await expect(panel.getByTestId('project-budget-input')).toHaveValue('60K');
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText('Set the memory budget to 60K (61440 bytes)');
  await page.keyboard.press('Escape');
  await expect(panel.getByTestId('project-aliases')).toBeVisible();

  const status = await box(page.getByTestId('statusbar'));
  const panelBox = await box(panel);
  const header = await box(panel.locator('.panel-header'));
  const actions = panel.getByTestId('project-actions');
  for (const id of ['project-build', 'project-export-mt3', 'project-store-tolerances']) {
    const b = await box(panel.getByTestId(id));
    expect(b.y + b.height, `${id} above the status bar`).toBeLessThanOrEqual(status.y);
    expect(b.y + b.height, `${id} inside the panel`).toBeLessThanOrEqual(panelBox.y + panelBox.height);
  }
  expect(header.y, 'the header at the top of the panel').toBeGreaterThanOrEqual(panelBox.y - 1);
  await saveScreenshot('project-panel-fit-1280x800');

  // Scrolled to its end, the body shows the budget bar whole above the actions, and the header stays.
  const body = panel.getByTestId('project-body');
  await body.evaluate((el) => (el.scrollTop = el.scrollHeight));
  const bar = await box(panel.getByTestId('project-budget-bar'));
  const bodyBox = await box(body);
  expect(bar.y + bar.height, 'the budget bar whole in the body').toBeLessThanOrEqual(bodyBox.y + bodyBox.height);
  expect(bar.y + bar.height, 'the budget bar above the actions').toBeLessThanOrEqual((await box(actions)).y);
  expect((await box(panel.locator('.panel-header'))).y, 'the header did not scroll away').toBeCloseTo(header.y, 0);

  // Each motion row scrolls whole into view inside the body.
  const rows = panel.getByTestId('project-motion');
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    await row.scrollIntoViewIfNeeded();
    const r = await box(row);
    const b = await box(body);
    expect(r.y, `motion ${i} top in view`).toBeGreaterThanOrEqual(b.y - 1);
    expect(r.y + r.height, `motion ${i} bottom in view`).toBeLessThanOrEqual(b.y + b.height + 1);
    expect(r.y + r.height, `motion ${i} above the status bar`).toBeLessThanOrEqual(status.y);
  }
  await saveScreenshot('project-panel-fit-scrolled-1280x800');
});

test('a finished build dialog has focus on Close, and Escape closes it as every other dialog', async ({
  page,
  workspace,
  electronApp,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  const dialog = await buildArchives(page);
  await expect(dialog.getByTestId('build-close')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
