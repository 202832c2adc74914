/**
 * Renderer review, round 9 (docs/architecture.md): every control of an event row names its event by index and SE,
 * as the frame field does, so that two events on one frame have controls named apart; the floor labels of the floor
 * variants are named for the floor they show, pressed while it is the one shown, and an event's 8 floors are a group
 * named for the event.
 * Mutations that fail: EventList naming the row's controls by frame again (two buttons "SE of the event at frame 5",
 * none "SE of event 2 (SE 1)"); FloorButton without its `aria-label` (no button "Floor 6 (wood)") or without
 * `aria-pressed` (none pressed); the floors' group without its role (no group).
 */
import { expect, test } from './fixtures';
import { waitForDocument } from './ui';

test('two events on one frame: each control of a row is named by its event and SE', async ({
  page,
  pageErrors,
  electronApp,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1920, height: 1080 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  // walk.sev: event 1 at frame 5 plays SE 0, event 2 at frame 21 SE 1; event 2 moved onto frame 5.
  const frame2 = page.getByRole('textbox', { name: 'Frame of event 2 (SE 1)', exact: true });
  await frame2.fill('5');
  await frame2.press('Enter');
  await expect(page.locator('[data-testid="sev-event-row"][data-frame="5"]')).toHaveCount(2);
  for (const who of ['event 1 (SE 0)', 'event 2 (SE 1)'])
    for (const name of [
      `SE of ${who}`,
      `Joint of ${who}`,
      `8 floor variants of ${who}`,
      `Play the SE of ${who}`,
      `Pick the joint of ${who}`,
      `Delete ${who}`,
    ])
      await expect(page.getByRole('button', { name, exact: true }), name).toHaveCount(1);
  // None named by the frame the two rows share.
  await expect(page.getByRole('button', { name: /of the event at frame/ })).toHaveCount(0);
  // The names act on their own event: Delete of event 2 deletes it, event 1 stays at frame 5.
  await page.getByRole('button', { name: 'Delete event 2 (SE 1)', exact: true }).click();
  await expect(page.locator('[data-testid="sev-event-row"][data-frame="5"]')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'SE of event 1 (SE 0)', exact: true })).toHaveCount(1);
  expect(pageErrors).toEqual([]);
});

test("the floor labels name their floor and are pressed while it is shown; an event's floors are its group", async ({
  page,
  pageErrors,
  electronApp,
  saveScreenshot,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1920, height: 1080 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await page.getByRole('button', { name: '8 floor variants of event 1 (SE 0)', exact: true }).click();
  const group = page.getByRole('group', { name: 'What each floor plays for event 1 (SE 0)', exact: true });
  await expect(group).toBeVisible();
  const floor = (name: string) => group.getByRole('button', { name, exact: true });
  const names = ['concrete', 'grass', 'water', 'metal', 'sand', 'snow', 'wood', 'grate'];
  for (const [k, n] of names.entries())
    await expect(floor(`Floor ${k} (${n})`)).toHaveAttribute('aria-pressed', k === 0 ? 'true' : 'false');
  // Its text and tooltip as before.
  await expect(floor('Floor 6 (wood)')).toHaveText('6 wood');
  await expect(floor('Floor 6 (wood)')).toHaveAttribute('title', 'show floor 6');
  // Each ▶ says which floor it plays.
  await expect(group.getByRole('button', { name: 'Play SE_FOOT_L_WOOD (floor 6, wood)', exact: true })).toBeVisible();
  await floor('Floor 6 (wood)').click();
  await expect(page.getByTestId('sev-floor-name')).toHaveText('wood');
  await expect(floor('Floor 6 (wood)')).toHaveAttribute('aria-pressed', 'true');
  await expect(floor('Floor 0 (concrete)')).toHaveAttribute('aria-pressed', 'false');
  // The selected SE's floor variants (the SE table) name and press theirs the same way.
  const variant = (name: string) => page.getByTestId('sev-variant').getByRole('button', { name, exact: true });
  await expect(variant('Floor 6 (wood)')).toHaveAttribute('aria-pressed', 'true');
  await expect(variant('Floor 0 (concrete)')).toHaveAttribute('aria-pressed', 'false');
  await variant('Floor 2 (water)').click();
  await expect(floor('Floor 2 (water)')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { pressed: true, name: /^Floor / })).toHaveCount(2);
  await floor('Floor 2 (water)').focus();
  for (const [width, height] of [
    [1920, 1080],
    [1280, 800],
  ]) {
    if (!electronApp) await page.setViewportSize({ width, height });
    await expect(group).toBeVisible();
    await saveScreenshot(`round9-floors-${width}x${height}`);
  }
  expect(pageErrors).toEqual([]);
});
