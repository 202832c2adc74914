/**
 * A project of more than eight motions has a filter above its motion list (a stage lists hundreds): typing narrows
 * the list to the names or .mtn files holding the text, each row keeping its archive index; Escape clears it; a
 * filter that matches nothing says so. Mutations that fail: the list not filtered, the index taken from the
 * filtered position instead of the archive's, Escape not clearing.
 */
import { writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openProject } from './sev-ui';
import { waitForDocument } from './ui';

test('a project of 12 motions: the filter narrows the list, rows keep their archive index, Escape clears', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const motions = Array.from({ length: 12 }, (_, k) => ({
    name: `take_${k}`,
    mtn: 'walk.mtn',
    tolerances: { position: 0.5, rotationDeg: 0.5 },
  }));
  writeFileSync(
    workspace.path('stage.actguy.json'),
    JSON.stringify({ version: 1, fps: 30, motions, outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' } }, null, 2),
  );
  await openProject(page, electronApp, workspace, 'stage.actguy.json');
  const rows = page.getByTestId('project-motion');
  await expect(rows).toHaveCount(12);
  await expect(page.getByTestId('project-filter-count')).toHaveText('12 of 12');

  await page.getByTestId('project-filter').fill('take_1');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('project-filter-count')).toHaveText('3 of 12');
  // Each row keeps its place in the archive, not its place in the filtered list.
  await expect(rows.locator('.project-index')).toHaveText(['1', '10', '11']);

  await page.getByTestId('project-filter').fill('nothing like it');
  await expect(rows).toHaveCount(0);
  await expect(page.getByTestId('project-filter-empty')).toContainText('"nothing like it"');
  await page.getByTestId('project-filter').press('Escape');
  await expect(rows).toHaveCount(12);
  expect(pageErrors).toEqual([]);
});
