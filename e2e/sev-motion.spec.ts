/**
 * A .sev is always edited against its own motion: the SEV
 * editor follows the tuner's motion, hides another motion's unsaved events
 * instead of showing them on the wrong skeleton, opens a .sev with its motion
 * without a project, flags out-of-range events and says what is wrong before
 * saving a file the build would refuse. The header's greyed Save SEV says why (beside "● modified" it gave no
 * reason while another motion hid the edited .sev).
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { chooseFile, markerFrames, openSampleProject } from './sev-ui';
import { openThroughPicker, selectJoint, waitForCapture, waitForDocument } from './ui';
import { parseSevStrict } from '../shared/sev/parse';

test('edited walk.sev is hidden, not re-targeted, while another motion is open; Ctrl+S leaves it alone; joints carry by name', async ({
  page,
  workspace,
  electronApp,
}) => {
  test.skip(electronApp !== null, 'opens motions through the in-app picker of the loopback transport');
  await openSampleProject(page, workspace);
  const original = readFileSync(workspace.path('walk.sev'), 'utf8');
  await selectJoint(page, 'LeftFoot');
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');

  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  // Joint selection follows the name: LeftFoot is joint 17 in walk and 4 in the CMU skeleton.
  await expect(page.getByTestId('timeline-selected')).toHaveText('LeftFoot');
  const banner = page.getByTestId('sev-mismatch');
  await expect(banner).toContainText('holds the sound events of walk and has unsaved edits');
  await expect(page.getByTestId('sev-event-row')).toHaveCount(0);
  await expect(page.getByTestId('sev-marker')).toHaveCount(0);
  await expect(page.getByTestId('sev-add-event')).toHaveCount(0);
  // The header's Save SEV is greyed beside "● modified": its title says why and where the save is.
  await expect(page.getByTestId('sev-save')).toBeDisabled();
  await expect(page.getByTestId('sev-save')).toHaveAttribute(
    'title',
    `walk.sev holds walk's events, hidden while the tuner shows another motion: save it with "Save walk.sev" above the list, or open walk`,
  );
  await expect(banner.getByTestId('sev-save-parked')).toHaveText('Save walk.sev');

  // Ctrl+S on the CMU motion must not write walk's events.
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  expect(readFileSync(workspace.path('walk.sev'), 'utf8')).toBe(original);

  // Back to walk: its events show again, against walk's joints.
  await banner.getByTestId('sev-open-motion').click();
  await waitForDocument(page, 'walk');
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  await expect(
    page.locator('[data-testid="sev-event-row"][data-index="10"]').getByTestId('sev-event-joint'),
  ).toHaveAttribute('data-value', '17');
  await expect(page.getByTestId('timeline-selected')).toHaveText('LeftFoot');
  await expect(page.getByTestId('sev-save')).toBeEnabled();
  await page.getByTestId('sev-save').click();
  await expect(page.getByTestId('sev-save')).toBeDisabled();
  await expect(page.getByTestId('sev-save')).toHaveAttribute('title', 'walk.sev has no unsaved changes');
});

test('a clean .sev follows the tuner: the motion’s own .sev, or none with Create; File › Open .sev works without a project', async ({
  page,
  workspace,
  electronApp,
}) => {
  test.skip(electronApp !== null, 'opens motions through the in-app picker of the loopback transport');
  copyFileSync(workspace.path('walk.mtn'), workspace.path('run.mtn'));
  await waitForDocument(page);
  // No project: walk.mtn came with walk.sev beside it.
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);

  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);
  await expect(page.getByTestId('sev-file')).toContainText('cmu_01_01.sev');
  await expect(page.getByTestId('sev-mismatch')).toHaveCount(0);

  await openThroughPicker(page, 'run.mtn');
  await waitForDocument(page, 'run');
  await expect(page.getByTestId('sev-file')).toHaveCount(0);
  await expect(page.getByTestId('sev-none')).toContainText('run has no .sev');
  await page.getByTestId('sev-create').click();
  await expect(page.getByTestId('sev-file')).toContainText('run.sev (new)');
  await page.getByTestId('sev-add-se-def').click();
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(1);
  await page.getByTestId('sev-save').click();
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  const run = parseSevStrict(readFileSync(workspace.path('run.sev'), 'utf8'), 'run.sev');
  expect(run.events.map((e) => e.frame)).toEqual([0]);

  // File › Open .sev… opens walk.sev with walk.mtn beside it.
  await page.getByTestId('menu-file').click();
  await chooseFile(page, null, workspace, 'walk.sev', 'open', () => page.getByTestId('menu-open-sev').click());
  await waitForDocument(page, 'walk');
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  expect(await markerFrames(page)).toEqual([0, 5, 21, 38, 54, 66, 71, 87, 104, 120]);
});

test('out-of-range events are flagged in place, cannot be typed in, and Save names them before writing', async ({
  page,
  workspace,
  electronApp,
}) => {
  const path = workspace.path('walk.sev');
  writeFileSync(path, readFileSync(path, 'utf8').replace('event 120 1 21', 'event 120 1 21\nevent 900 0 30'));
  await openSampleProject(page, workspace, electronApp);
  const bad = page.locator('[data-testid="sev-event-row"][data-frame="900"]');
  await expect(bad.getByTestId('sev-event-frame')).toHaveClass(/bad/);
  await expect(bad.getByTestId('sev-event-joint')).toHaveClass(/bad/);
  await expect(page.getByTestId('sev-issues')).toContainText('2 problems');

  // Typing a frame past the end is refused with the reason.
  const first = page.locator('[data-testid="sev-event-row"][data-frame="5"]').getByTestId('sev-event-frame');
  await first.fill('500');
  await first.press('Enter');
  await expect(first).toHaveValue('5');
  await expect(
    page.getByTestId('message-warning').filter({ hasText: 'Event frame (walk) 500 is outside 0..132' }),
  ).toHaveCount(1);

  // An edit, then Save: the problems are named and nothing is written on Cancel.
  await page.locator('[data-testid="sev-event-row"][data-frame="0"]').getByTestId('sev-event-frame').fill('1');
  await page.locator('[data-testid="sev-event-row"][data-frame="0"]').getByTestId('sev-event-frame').press('Enter');
  // The next SEV edit that works: the refusal has had its say and goes (2026-12-02), as a refused lock does.
  await expect(page.getByTestId('message-warning').filter({ hasText: 'Event frame (walk) 500' })).toHaveCount(0);
  const before = readFileSync(path, 'utf8');
  await page.getByTestId('sev-save').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('2 problems the build will refuse');
  await expect(dialog).toContainText('event frame 900 is past the end of motion walk (frames 0..132)');
  await expect(dialog).toContainText('event joint 30 does not exist in motion walk (joints 0..22)');
  await page.getByTestId('confirm-cancel').click();
  expect(readFileSync(path, 'utf8')).toBe(before);
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
});
