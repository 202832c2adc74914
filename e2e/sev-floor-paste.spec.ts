/**
 * Sound-event work that used to be lost or misapplied: a row click landing on
 * the Floors control (the variants went at the next save), and a paste that
 * defined a second SE of an existing name (pasted steps ignored the floor).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { waitForCapture, waitForDocument } from './ui';

test('a click in the middle of an SE row selects it and never hides its floors; Save names the variants it would remove', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'window size is set through the page viewport in Chromium');
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  const original = readFileSync(workspace.path('walk.sev'), 'utf8');
  const row = page.locator('[data-testid="sev-se-row"][data-index="1"]');
  await row.scrollIntoViewIfNeeded();
  const box = (await row.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(row).toHaveClass(/selected/);
  await expect(row.getByTestId('sev-se-variants-hidden')).toHaveCount(0);
  await expect(row.getByTestId('sev-se-floors')).toHaveText('8');
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');

  // Removing them on purpose: Save asks, naming them; Cancel writes nothing and keeps the edit.
  await page.getByTestId('sev-variants-remove').click();
  await page.getByTestId('sev-save').click();
  const question = page.getByTestId('confirm-dialog');
  await expect(question).toContainText('Save will remove the 8 floor variants of SE 1 SE_FOOT_R');
  await saveScreenshot('sev-save-drops-variants-1280');
  await page.getByTestId('confirm-cancel').click();
  expect(readFileSync(workspace.path('walk.sev'), 'utf8')).toBe(original);
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  await page.getByTestId('sev-variants-add').click();
  await expect(page.getByTestId('sev-se-variant-2')).toHaveValue('SE_FOOT_R_WATER');
  expect(pageErrors).toEqual([]);
});

test('pasting footsteps into a .sev that defines the same SE names reuses them (asking, as the variants differ); a second definition is warned about by Check', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  // walk_rough gets a .sev of bare footsteps (no floor variants).
  writeFileSync(
    workspace.path('walk_rough.sev'),
    'sev 1\nmotion walk_rough\nse 0 SE_FOOT_L\nse 1 SE_FOOT_R\nevent 10 0 17\nevent 26 1 21\n',
  );
  const projectPath = workspace.path('sample.actguy.json');
  const project = JSON.parse(readFileSync(projectPath, 'utf8'));
  project.motions[2].sev = 'walk_rough.sev';
  writeFileSync(projectPath, `${JSON.stringify(project, null, 2)}\n`);
  await openSampleProject(page, workspace, electronApp);
  await page.locator('[data-testid="project-motion"][data-name="walk_rough"]').click();
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk_rough.sev');
  const resolved = (frame: number) =>
    page.locator(`[data-testid="sev-event-row"][data-frame="${frame}"]`).getByTestId('sev-event-resolved');
  await resolved(10).click({ position: { x: 4, y: 6 } });
  await resolved(26).click({ position: { x: 4, y: 6 }, modifiers: ['Shift'] });
  await page.keyboard.press('Control+c');
  await expect(page.getByTestId('message-info').filter({ hasText: 'Copied 2 events of walk' })).toHaveCount(1);

  await page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').click();
  await waitForCapture(page);
  const sesBefore = await page.getByTestId('sev-se-row').count();
  await page.getByTestId('frame-number').fill('390');
  await page.getByTestId('frame-number').press('Enter');
  await page.getByTestId('sev-paste').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(
    'SE_FOOT_L: SE 0 here has 8 floor variants; the copied events use no floor variants',
  );
  await page.getByTestId('confirm-reuse').click();
  await expect(page.getByTestId('sev-se-row')).toHaveCount(sesBefore);
  const pasted = page.locator('[data-testid="sev-event-row"][data-frame="390"]');
  await expect(pasted.getByTestId('sev-event-resolved')).toContainText('SE_FOOT_L_CONC');

  // Defined again on request: Check warns about the two SEs of one name.
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+z');
  await page.getByTestId('sev-paste').click();
  await page.getByTestId('confirm-define').click();
  await expect(page.getByTestId('sev-se-row')).toHaveCount(sesBefore + 2);
  await page.getByTestId('project-check').click();
  await expect(
    page.getByTestId('project-warning').filter({ hasText: 'SE_FOOT_L has the same name as SE 0' }),
  ).toHaveCount(1, { timeout: 30_000 });
  expect(pageErrors).toEqual([]);
});
