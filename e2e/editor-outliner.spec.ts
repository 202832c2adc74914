/**
 * The skeleton as people know it from an outliner:
 * - the timeline groups its rows by chain (spine, arms, legs, other) under headers that fold, by a click on the
 *   header or by the keyboard, and stays as it was left across a reload;
 * - joints are picked from the skeleton tree (each joint under its parent, folding, with a filter box), by
 *   mouse or keyboard, where a joint is chosen (the selected joint, the override's joint, an SE event's joint).
 */
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { canvasData, openThroughPicker, waitForCapture, waitForDocument } from './ui';
import type { Page } from '@playwright/test';

/** The timeline's rows: joint indices, and chain headers as "<group>-" (open) or "<group>+" (folded). */
async function rows(page: Page): Promise<string[]> {
  return ((await page.getByTestId('timeline-canvas').getAttribute('data-rows')) ?? '').split(',').filter(Boolean);
}

test('timeline: Group by chain puts the rows under spine, arms, legs and other headers that fold, remembered', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  expect((await rows(page)).some((r) => /[a-z]/.test(r))).toBe(false);
  await page.getByTestId('timeline-group').click();
  // Its 36 rows do not fit at 1280x800: the selected joint's chain (Hips: the spine) stays open, the others fold to
  // their headers (tried cold, round 18).
  await expect
    .poll(async () => (await rows(page)).filter((r) => /[a-z]/.test(r)))
    .toEqual(['spine-', 'arms+', 'legs+', 'other+']);
  const folded = (await rows(page)).length;
  await expect(page.getByTestId('timeline-group')).toHaveAttribute('aria-pressed', 'true');

  // A click on the legs header's name unfolds its 8 rows from the header.
  const canvas = page.getByTestId('timeline-canvas');
  const d = await canvasData(canvas);
  const legs = (await rows(page)).indexOf('legs+');
  await canvas.evaluate((c, y) => c.parentElement!.scrollTo({ top: y }), legs * Number(d.rowHeight));
  const scroll = await canvas.evaluate((c) => c.parentElement!.scrollTop);
  await canvas.click({
    position: { x: 30, y: scroll + Number(d.jointsTop) + (legs + 0.5) * Number(d.rowHeight) - scroll },
  });
  await expect.poll(() => rows(page)).toContain('legs-');
  expect((await rows(page)).length).toBe(folded + 8);
  await expect(page.getByTestId('timeline-fold-legs')).toHaveAttribute('aria-expanded', 'true');

  // The keyboard folds and unfolds the arms from the header's fold buttons (Tab to one, Enter).
  await page.getByTestId('timeline-fold-arms').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => rows(page)).toContain('arms-');
  await page.keyboard.press('Enter');
  await expect.poll(() => rows(page)).toContain('arms+');
  // Every fold control fits in the header at 1280x800.
  const header = (await page.getByTestId('timeline').locator('.panel-header').boundingBox())!;
  for (const id of ['timeline-group', 'timeline-fold-spine', 'timeline-fold-other']) {
    const b = (await page.getByTestId(id).boundingBox())!;
    expect(b.x + b.width, id).toBeLessThanOrEqual(header.x + header.width);
    expect(b.y + b.height, id).toBeLessThanOrEqual(header.y + header.height);
  }
  await saveScreenshot('timeline-grouped-1280x800');

  // Remembered: a reload shows the same groups folded.
  await page.reload();
  await waitForDocument(page, 'walk');
  await expect.poll(() => rows(page)).toContain('legs-');
  expect(await rows(page)).toContain('arms+');
  await page.getByTestId('timeline-group').click();
  await expect.poll(async () => (await rows(page)).some((r) => /[a-z]/.test(r))).toBe(false);
});

test('joint picker: the skeleton as a tree with a filter, by mouse and keyboard, for the selected joint and the override', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  const picker = page.getByTestId('joint-select');
  await picker.click();
  const tree = page.getByTestId('joint-select-tree');
  await expect(tree).toBeVisible();
  const items = tree.getByTestId('joint-tree-item');
  // Root translation and the 31 joints, each under its parent (LeftFoot four levels under Hips), all in the window.
  await expect(items).toHaveCount(32);
  await expect(tree.locator('[data-joint="4"]')).toHaveAttribute('aria-level', '5');
  const box = (await tree.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  await saveScreenshot('joint-tree-1280x800');

  // The filter keeps the matches and their ancestors; the first match is active: Enter picks it.
  await page.keyboard.type('foot');
  await expect(items.locator('.joint-tree-name')).toHaveText([
    '0 Hips',
    '1 LHipJoint',
    '2 LeftUpLeg',
    '3 LeftLeg',
    '4 LeftFoot',
    '6 RHipJoint',
    '7 RightUpLeg',
    '8 RightLeg',
    '9 RightFoot',
  ]);
  // LeftFoot is active; ↓ ↓ ↓ ↑ goes to RightUpLeg.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(tree).toHaveCount(0);
  await expect(page.getByTestId('timeline-selected')).toHaveText('RightUpLeg');
  await expect(picker).toHaveAttribute('data-value', '7');

  // Keyboard only: ↓ opens, ← folds the chosen joint's subtree, ← again goes to its parent, Enter picks it.
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await expect(tree).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(tree.locator('[data-joint="7"]')).toHaveAttribute('aria-expanded', 'false');
  await expect(items).toHaveCount(32 - 3);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('timeline-selected')).toHaveText('RHipJoint');
  // The fold is remembered when the picker opens again; a click on the twisty unfolds it.
  await picker.click();
  await expect(items).toHaveCount(32 - 3);
  await tree.locator('[data-joint="7"]').getByTestId('joint-tree-twisty').click();
  await expect(items).toHaveCount(32);
  await page.keyboard.press('Escape');
  await expect(tree).toHaveCount(0);
  await expect(picker).toBeFocused();

  // The tuning panel's override joint is the same picker (it selects the joint the override applies to).
  await page.getByTestId('override-joint').click();
  await page.getByTestId('override-joint-filter').fill('lefthand');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('timeline-selected')).toHaveText('LeftHand');
});

test("joint picker: an SE event's joint is picked from the skeleton tree", async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  await page.keyboard.press('Control+2');
  const row = page.getByTestId('sev-event-row').first();
  const eventJoint = row.getByTestId('sev-event-joint');
  await eventJoint.click();
  await page.getByTestId('sev-event-joint-filter').fill('head');
  await page.keyboard.press('Enter');
  const head = await page.getByTestId('sev-event-joint').first().getAttribute('data-value');
  expect(head).not.toBeNull();
  await expect(eventJoint).toContainText('Head');
  await saveScreenshot('event-joint-picked-1280x800');
});
