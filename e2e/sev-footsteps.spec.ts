/**
 * Suggest footsteps on the bundled CMU capture: the contacts are
 * previewed as ghost markers, some are declined, and the rest are added as one
 * undo step of SE_FOOT_L / SE_FOOT_R events on the foot joints.
 */
import { copyFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openThroughPicker, waitForDocument } from './ui';

test('suggested footsteps on the CMU capture: ghosts, decline some, accept the rest as one undo step', async ({
  page,
  workspace,
  electronApp,
}) => {
  test.skip(electronApp !== null, 'opens motions through the in-app picker of the loopback transport');
  // A copy without a .sev, so every event comes from the suggestions.
  copyFileSync(workspace.path('cmu_01_01.mtn'), workspace.path('cmu_steps.mtn'));
  await waitForDocument(page);
  await openThroughPicker(page, 'cmu_steps.mtn');
  await waitForDocument(page, 'cmu_steps');
  await page.getByTestId('sev-create').click();
  await page.getByTestId('sev-suggest-footsteps').click();

  const rows = page.getByTestId('sev-footstep');
  // The jump landings read by hand from the foot heights are among the suggestions, on both feet.
  for (const f of [70, 119, 162, 210, 336]) {
    await expect(page.locator(`[data-testid="sev-footstep"][data-side="L"][data-frame="${f}"]`)).toHaveCount(1);
    await expect(page.locator(`[data-testid="sev-footstep"][data-side="R"][data-frame="${f}"]`)).toHaveCount(1);
  }
  const total = await rows.count();
  await expect(page.getByTestId('sev-ghost')).not.toHaveCount(0);
  await expect(page.getByTestId('sev-marker')).toHaveCount(0);

  // Decline the first two (the standing start) and add the rest.
  await rows.nth(0).uncheck();
  await rows.nth(1).uncheck();
  await expect(page.getByTestId('sev-footsteps-accept')).toHaveText(`Add ${total - 2} footsteps`);
  await page.getByTestId('sev-footsteps-accept').click();
  await expect(page.getByTestId('sev-footsteps')).toHaveCount(0);
  await expect(page.getByTestId('sev-ghost')).toHaveCount(0);
  await expect(page.getByTestId('sev-marker')).toHaveCount(total - 2);
  const landing = page.locator('[data-testid="sev-event-row"][data-frame="70"]');
  await expect(landing).toHaveCount(2);
  const joints = await landing
    .getByTestId('sev-event-joint')
    .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.value!).sort());
  expect(joints).toEqual(['4', '9']); // LeftFoot, RightFoot
  await expect(page.getByTestId('sev-se-row')).toHaveCount(2);
  await expect(page.getByTestId('sev-se-name').first()).toHaveValue('SE_FOOT_L');

  // One undo step takes every footstep (and the SEs it defined) back.
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText(`Undo Add ${total - 2} footsteps`);
  await page.getByTestId('menu-undo').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(0);
  await expect(page.getByTestId('sev-se-row')).toHaveCount(0);
});
