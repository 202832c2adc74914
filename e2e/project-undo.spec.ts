/**
 * Project edits take part in the window's one undo order: a drag-reorder is one step that Ctrl+Z undoes and
 * Ctrl+Y redoes, after the newer SEV edit, before the older motion edit.
 */
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { dragProjectRow } from './ui';

test('undo and redo a drag-reorder in order with SEV and motion edits', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  const order = () =>
    page.getByTestId('project-motion').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name));
  // Frame 30 (the first and last frames always have a trace key: their chips are fixed, e2e/cold-start.spec.ts).
  const traceAt30 = page.getByTestId('trace-item').filter({ hasText: /^30\D/ });
  const hadTrace30 = (await traceAt30.count()) === 1;

  await page.getByTestId('frame-number').fill('30');
  await page.getByTestId('frame-number').press('Enter');
  await page.keyboard.press('t'); // 1: motion edit (trace key at frame 30)
  await expect(traceAt30).toHaveCount(hadTrace30 ? 0 : 1);
  await dragProjectRow(page, 'walk_rough', 'walk'); // 2: reorder
  await expect.poll(order).toEqual(['walk_rough', 'walk', 'cmu_01_01', 'walk_60']);
  await page.getByTestId('sev-add-event').click(); // 3: SEV edit
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);

  await page.locator('body').click({ position: { x: 5, y: 990 } }); // focus out of any button: shortcuts apply
  await page.keyboard.press('Control+z'); // undoes 3
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);
  await expect.poll(order).toEqual(['walk_rough', 'walk', 'cmu_01_01', 'walk_60']);
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText('Move walk_rough to index 0');
  await page.getByTestId('menu-edit').click(); // closes the menu
  await expect(page.getByTestId('menu-undo')).toHaveCount(0);
  await page.keyboard.press('Control+z'); // undoes 2 in one step
  await expect.poll(order).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60']);
  await expect(page.getByTestId('project-dirty')).toHaveCount(0);
  await expect(traceAt30).toHaveCount(hadTrace30 ? 0 : 1); // 1 is older: still there
  await page.keyboard.press('Control+z'); // undoes 1
  await expect(traceAt30).toHaveCount(hadTrace30 ? 1 : 0);

  await page.keyboard.press('Control+y'); // redoes 1
  await expect(traceAt30).toHaveCount(hadTrace30 ? 0 : 1);
  await page.keyboard.press('Control+y'); // redoes 2
  await expect.poll(order).toEqual(['walk_rough', 'walk', 'cmu_01_01', 'walk_60']);
  await expect(page.getByTestId('project-dirty')).toBeVisible();
  await saveScreenshot('project-undo-redo');
  expect(pageErrors).toEqual([]);
});
