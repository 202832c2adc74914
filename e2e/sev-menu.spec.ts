/**
 * The Events menu: every action of the SEV editor (add at the playhead, suggest footsteps, cut, copy,
 * paste, delete, select all, nudge, add an SE, save the .sev) is a menu item, greyed out while it cannot run,
 * and runs the editor's own action as one undo step. Driven through the in-app menu bar, which lists the same
 * items (shared/eventsMenu.ts) as the native menu; the saved .sev shows the edits, Undo takes them back.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { markerFrames } from './sev-ui';
import { waitForDocument } from './ui';

/** Runs an Events menu item (its test id is menu-events-<name>), after checking it is enabled. */
async function eventsMenu(page: Page, name: string): Promise<void> {
  await page.getByTestId('menu-events').click();
  await expect(page.getByTestId(`menu-events-${name}`)).toBeEnabled();
  await page.getByTestId(`menu-events-${name}`).click();
}

/** Which Events items are greyed out now. */
async function disabledItems(page: Page): Promise<string[]> {
  await page.getByTestId('menu-events').click();
  const out = await page
    .locator('[data-testid^="menu-events-"]')
    .evaluateAll((els) =>
      els
        .filter((e) => (e as HTMLButtonElement).disabled)
        .map((e) => (e as HTMLElement).dataset.testid!.replace('menu-events-', '')),
    );
  await page.getByTestId('menu-events').click();
  return out;
}

async function undoLabel(page: Page): Promise<string> {
  await page.getByTestId('menu-edit').click();
  const label = (await page.getByTestId('menu-undo').textContent()) ?? '';
  await page.getByTestId('menu-edit').click();
  return label.replace(/Ctrl\+Z$/, '').trim();
}

async function undo(page: Page): Promise<void> {
  await page.getByTestId('menu-edit').click();
  await page.getByTestId('menu-undo').click();
}

async function gotoFrame(page: Page, frame: number): Promise<void> {
  await page.getByTestId('frame-number').fill(String(frame));
  await page.getByTestId('frame-number').press('Enter');
  await expect(page.getByTestId('sev-playhead')).toHaveText(String(frame));
}

const WALK_FRAMES = [0, 5, 21, 38, 54, 66, 71, 87, 104, 120];

test('the Events menu runs the SEV editor actions, greyed out while they cannot run, one undo step each', async ({
  page,
  workspace,
  pageErrors,
  electronApp,
  saveScreenshot,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await expect.poll(() => markerFrames(page)).toEqual(WALK_FRAMES);

  // The event rows' buttons and the SE and lock lists' ✕ are hit areas of at least 24 × 24 px, apart from each other.
  const small = [
    page.getByTestId('sev-event-floors-toggle').first(),
    page.getByTestId('sev-event-play').first(),
    page.getByTestId('sev-pick-joint').first(),
    page.getByTestId('sev-event-delete').first(),
    page.getByTestId('sev-se-delete').first(),
    page
      .getByTestId('lock-item')
      .first()
      .getByRole('button', { name: /^Remove lock of/ }),
  ];
  for (const b of small) {
    const box = (await b.boundingBox())!;
    expect(box, `${b}`).not.toBeNull();
    expect(Math.min(box.width, box.height), `${b}`).toBeGreaterThanOrEqual(24);
  }
  const rowTools = await page
    .getByTestId('sev-event-row')
    .first()
    .locator('.sev-row-tools button')
    .evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect()).map((r) => [r.left, r.right]));
  for (let k = 1; k < rowTools.length; k++) expect(rowTools[k][0]).toBeGreaterThanOrEqual(rowTools[k - 1][1]);
  const deletes = await page.getByTestId('sev-event-delete').evaluateAll((bs) =>
    bs
      .slice(0, 3)
      .map((b) => b.getBoundingClientRect())
      .map((r) => [r.top, r.bottom]),
  );
  for (let k = 1; k < deletes.length; k++) expect(deletes[k][0]).toBeGreaterThanOrEqual(deletes[k - 1][1]);

  // Nothing selected, nothing copied, nothing edited: only the commands on the whole .sev can run.
  expect(await disabledItems(page)).toEqual([
    'cut',
    'copy',
    'paste',
    'delete',
    'nudgeEarlier',
    'nudgeLater',
    'saveSev',
  ]);
  await page.getByTestId('menu-events').click();
  await expect(page.getByTestId('menu-events-copy')).toContainText('Ctrl+C');
  await expect(page.getByTestId('menu-events-nudgeLater')).toContainText('Alt+→');
  await page.getByTestId('menu-events').click();

  // Add at the playhead (SE 0 on its last event's joint, LeftFoot), then nudge it: each one step, named.
  await gotoFrame(page, 30);
  // The joint it will take (LeftFoot, SE_FOOT_L's last; the curves select Hips) is named before and after the click.
  await expect(page.getByTestId('sev-add-event')).toHaveAttribute(
    'title',
    /^Add SE_FOOT_L at frame 30 on joint 17 LeftFoot: the joint of SE_FOOT_L's last event/,
  );
  await eventsMenu(page, 'addAtPlayhead');
  // By its text, not the bar's last message (the oldest shown: the bar lists the newest first).
  await expect(page.getByTestId('message-info').filter({ hasText: 'Added SE_FOOT_L at frame 30' })).toContainText(
    'Added SE_FOOT_L at frame 30 on joint 17 LeftFoot',
  );
  if (!electronApp) await saveScreenshot('sev-add-names-joint-1280');
  await expect.poll(() => markerFrames(page)).toEqual([...WALK_FRAMES, 30]);
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  expect(await undoLabel(page)).toBe('Undo Add SE_FOOT_L at frame 30 on joint 17 LeftFoot');
  expect(await disabledItems(page)).toEqual(['paste']);
  await eventsMenu(page, 'nudgeLater');
  await eventsMenu(page, 'nudgeLater');
  await eventsMenu(page, 'nudgeEarlier');
  await expect.poll(() => markerFrames(page)).toEqual([...WALK_FRAMES, 31]);
  expect(await undoLabel(page)).toBe('Undo Nudge SE_FOOT_L from frame 32 to 31');

  // Copy, paste at another frame, delete the pasted one; Undo brings it back.
  await eventsMenu(page, 'copy');
  await gotoFrame(page, 100);
  await eventsMenu(page, 'paste');
  await expect.poll(() => markerFrames(page)).toEqual([...WALK_FRAMES, 31, 100]);
  expect(await undoLabel(page)).toBe('Undo Paste SE_FOOT_L at frame 100');
  await eventsMenu(page, 'delete');
  await expect.poll(() => markerFrames(page)).toEqual([...WALK_FRAMES, 31]);
  expect(await undoLabel(page)).toBe('Undo Delete SE_FOOT_L at frame 100');
  await undo(page);
  await expect.poll(() => markerFrames(page)).toEqual([...WALK_FRAMES, 31, 100]);

  // Select all, then cut: one step; Undo restores all twelve.
  await eventsMenu(page, 'selectAll');
  await expect(page.getByTestId('sev-selection')).toHaveText('12 events selected');
  await eventsMenu(page, 'cut');
  await expect.poll(() => markerFrames(page)).toEqual([]);
  expect(await undoLabel(page)).toBe('Undo Cut 12 events (frames 0–120)');
  await undo(page);
  await expect.poll(() => markerFrames(page)).toEqual([...WALK_FRAMES, 31, 100]);

  // Suggest footsteps shows its proposals (accepting them is the panel's own button); Add SE defines SE 3.
  await eventsMenu(page, 'suggestFootsteps');
  await expect(page.getByTestId('sev-footsteps')).toBeVisible();
  await page.getByTestId('sev-footsteps-cancel').click();
  await eventsMenu(page, 'addSe');
  await expect(page.getByTestId('sev-se-row')).toHaveCount(4);
  expect(await undoLabel(page)).toMatch(/^Undo Define SE 3 as \w+$/);

  // Save .sev writes the edits; after it Save .sev is greyed out until the next edit, which Undo takes back.
  await eventsMenu(page, 'saveSev');
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  const saved = readFileSync(workspace.path('walk.sev'), 'utf8');
  expect(saved).toContain('event 31 0 17');
  expect(saved).toContain('event 100 0 17');
  expect(saved).toMatch(/^se 3 /m);
  expect(await disabledItems(page)).toContain('saveSev');
  await undo(page);
  await expect(page.getByTestId('sev-se-row')).toHaveCount(3);
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  expect(await disabledItems(page)).not.toContain('saveSev');
  expect(pageErrors).toEqual([]);
});
