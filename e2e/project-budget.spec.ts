/**
 * A stage that fits a memory budget (docs/formats.md#budget): the project panel shows the archive's bytes by
 * motion, the budget is set there as one undo step and saved in the project file, and the build fits the .mar,
 * showing each motion's tolerance scale in the build dialog.
 */
import { readFileSync, statSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProjectAt1280 } from './sev-ui';
import { buildArchives } from './ui';

test('set a budget in the panel, build, and see the scales in the dialog', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.setTimeout(240_000);
  await openSampleProjectAt1280(page, workspace, electronApp);
  const panel = page.getByTestId('project-budget');
  const segments = panel.getByTestId('project-budget-segment');
  // The check measured every motion: one segment each, in archive order.
  await expect(segments).toHaveCount(4, { timeout: 60_000 });
  expect(await segments.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name))).toEqual([
    'walk',
    'cmu_01_01',
    'walk_rough',
    'walk_60',
  ]);
  const shares = await segments.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.bytes)));
  const budget = Math.floor(shares.reduce((a, b) => a + b, 0) * 0.7);

  await panel.getByTestId('project-budget-input').fill('12 parsecs');
  await panel.getByTestId('project-budget-set').click();
  await expect(panel.getByTestId('project-budget-error')).toContainText('not a size');
  await expect(page.getByTestId('project-dirty')).toHaveCount(0);

  await panel.getByTestId('project-budget-input').fill(String(budget));
  await panel.getByTestId('project-budget-input').press('Enter');
  await expect(page.getByTestId('project-dirty')).toBeVisible();
  await expect(panel.getByTestId('project-budget-limit')).toBeVisible();
  await expect(panel.getByTestId('project-budget-use')).toHaveClass(/bad/); // the default build is over it
  // The whole use text is readable at 1280x800 (it wraps; nothing is cut off with an ellipsis).
  const fits = await panel
    .getByTestId('project-budget-use')
    .evaluate((e) => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= window.innerWidth);
  expect(fits).toBe(true);
  await expect(panel.getByTestId('project-budget-use')).toContainText('over, a build loosens tolerances to fit');
  // One named undo step: undo clears the field, redo brings it back.
  await page.locator('body').click({ position: { x: 5, y: 790 } });
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText(`Set the memory budget to ${budget} bytes`);
  await page.getByTestId('menu-edit').click();
  await page.keyboard.press('Control+z');
  await expect(panel.getByTestId('project-budget-input')).toHaveValue('');
  await expect(page.getByTestId('project-dirty')).toHaveCount(0);
  await page.keyboard.press('Control+y');
  await expect(panel.getByTestId('project-budget-input')).toHaveValue(String(budget));

  const dialog = await buildArchives(page, { timeout: 180_000 });
  const rows = dialog.getByTestId('build-budget-motion');
  await expect(rows).toHaveCount(4);
  const scales = await rows.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.scale)));
  expect(scales.every((s) => s >= 1 && s <= 4)).toBe(true);
  expect(Math.max(...scales)).toBeGreaterThan(1);
  const report = JSON.parse(readFileSync(workspace.path('out/stage.report.json'), 'utf8'));
  expect(scales).toEqual(report.budget.motions.map((m: { scale: number }) => m.scale));
  await expect(dialog.getByTestId('build-budget-scale').first()).toHaveText(`×${scales[0].toFixed(3)}`);
  await expect(dialog.getByTestId('build-budget-limiting')).toHaveText(report.budget.limitingMotion);
  // Sizes in the dialog's one unit (KiB, as the written files' lines), to the byte in the tooltip.
  const used = dialog.getByTestId('build-budget-used');
  await expect(used).toHaveText(`${(report.budget.usedBytes / 1024).toFixed(1)} KiB`);
  await expect(used).toHaveAttribute('title', `${report.budget.usedBytes.toLocaleString('en-US')} bytes`);
  await expect(dialog.getByTestId('build-budget-bytes').first()).toHaveText(
    `${(report.budget.motions[0].mt3Bytes / 1024).toFixed(1)} KiB`,
  );
  expect(statSync(workspace.path('out/stage.mar')).size).toBeLessThanOrEqual(budget);
  // Past ×1.5 the dialog asks the lead to look, in words over the table (tried cold, round 17).
  const loose = report.budget.motions.filter((m: { scale: number }) => m.scale > 1.5);
  expect(loose.length).toBeGreaterThan(0);
  await expect(dialog.getByTestId('build-budget-loose')).toContainText(
    `past ×1.5, up to ×${Math.max(...scales).toFixed(2)} on`,
  );
  await expect(dialog.getByTestId('build-budget-loose')).toContainText('raise the budget and build again');
  await saveScreenshot('project-budget-build-dialog');
  await dialog.getByTestId('build-close').click();

  // The bar now shows the built sizes under the budget.
  await expect(panel.getByTestId('project-budget-use')).not.toHaveClass(/bad/);
  await expect(panel.getByTestId('project-budget-use')).toContainText('%');
  // Each motion the budget loosened says so in the list, whose figures are the build's, not the tuner's.
  const chips = page.getByTestId('project-motion-scale');
  await expect(chips).toHaveCount(scales.filter((s) => s !== 1).length);
  await expect(chips.first()).toHaveText(`tol ×${scales.find((s) => s !== 1)!.toFixed(2)}`);
  await expect(chips.first()).toHaveAttribute('title', /tuner shows the motion at its own tolerances/);
  await saveScreenshot('project-budget-1280');
  await page.getByTestId('mode-project').click(); // the layout with the whole left column for the project
  await expect(panel.getByTestId('project-budget-bar')).toBeVisible();
  await saveScreenshot('project-budget-project-layout-1280');
  if (!electronApp) {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await saveScreenshot('project-budget-project-layout-1920');
  }

  await page.getByTestId('project-save').click();
  await expect(page.getByTestId('project-dirty')).toHaveCount(0);
  expect(JSON.parse(readFileSync(workspace.path('sample.actguy.json'), 'utf8')).budget).toEqual({ marBytes: budget });
  expect(pageErrors).toEqual([]);
});
