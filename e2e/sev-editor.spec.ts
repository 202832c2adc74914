/**
 * The SEV sound-event editor: events on frames with undo, SE names
 * checked against the tables, floor variants, audition, and broken files.
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { dragMarker, markerFrames, openSampleProject, trackX } from './sev-ui';
import { pickJoint, selectJoint, screenshotOf } from './ui';
import { recordTexts, textsShown } from './textRecord';
import { parseSevStrict } from '../shared/sev/parse';

const WALK_EVENTS = [0, 5, 21, 38, 54, 66, 71, 87, 104, 120];

test('add an event at the playhead, drag it, change its SE and joint, undo and redo in order with a motion edit', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}, testInfo) => {
  await openSampleProject(page, workspace, electronApp);
  expect(await markerFrames(page)).toEqual(WALK_EVENTS);

  // playhead to frame 30 by clicking the event row there
  const track = page.getByTestId('sev-track');
  const tb = (await track.boundingBox())!;
  await page.mouse.click(await trackX(page, 30), tb.y + 4);
  await expect(page.getByTestId('sev-playhead')).toHaveText('30');
  // The SE found by its name's first letters, typed into the focused picker: they go to its filter, Enter picks
  // the first SE that holds them (an option read "2 SE_CLOTH_SWISH", and a select's type-ahead read from the
  // label's start: typing the name found nothing).
  await page.getByTestId('sev-add-se').focus();
  await page.keyboard.type('SE_CL');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sev-add-se')).toHaveAttribute('data-value', '2');
  await selectJoint(page, 'LeftHand');
  // The cloth swish is on no joint in walk.sev: the add takes its SE's last joint, not the selection (round 20).
  await expect(page.getByTestId('sev-add-joint')).toHaveText('no joint');
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  expect((await markerFrames(page))[10]).toBe(30);
  const row = page.locator('[data-testid="sev-event-row"][data-index="10"]');
  await expect(row.getByTestId('sev-event-se')).toHaveAttribute('data-value', '2');
  // The SE's whole name on hover: the column clips it when every panel shows at 1280x800.
  await expect(row.getByTestId('sev-event-se')).toHaveAttribute('title', 'SE_CLOTH_SWISH');
  await expect(row.getByTestId('sev-event-joint')).toHaveAttribute('data-value', '-1');
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');

  // drag its marker to frame 47 (snaps to whole frames)
  await dragMarker(page, 10, 47);
  await expect(page.locator('[data-testid="sev-marker"][data-index="10"]')).toHaveAttribute('data-frame', '47');
  await expect(row.getByTestId('sev-event-frame')).toHaveValue('47');
  await saveScreenshot('sev-editor-event-added');
  // The whole drag is one step, named after where it ended.
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText('Undo Move SE_CLOTH_SWISH from frame 30 to 47');
  await page.keyboard.press('Escape');

  // its SE and joint, from the list
  await row.getByTestId('sev-event-se').focus();
  await page.keyboard.type('SE_FOOT_L');
  await page.keyboard.press('Enter');
  await expect(row.getByTestId('sev-event-se')).toHaveAttribute('data-value', '0');
  await expect(row.getByTestId('sev-event-se')).toHaveAttribute('title', 'SE_FOOT_L');
  await pickJoint(page, row.getByTestId('sev-event-joint'), 21);
  await expect(row.getByTestId('sev-event-resolved')).toContainText('SE_FOOT_L_CONC');

  // a motion edit after the SEV edits: K toggles a user key at the playhead
  await page.getByTestId('sev-playhead').click();
  await page.keyboard.press('k');
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText(/^Undo (Add|Remove) user key \(\w+, frame \d+\)/);
  await page.keyboard.press('Escape');
  await page.getByTestId('menu-edit').click();

  // Ctrl+Z walks back through both kinds of edits, newest first
  const undo = () => page.keyboard.press('Control+z');
  const redo = () => page.keyboard.press('Control+y');
  await page.getByTestId('sev-playhead').click();
  await undo(); // the key
  await expect(row.getByTestId('sev-event-joint')).toHaveAttribute('data-value', '21');
  await undo(); // joint
  await expect(row.getByTestId('sev-event-joint')).toHaveAttribute('data-value', '-1');
  await expect(row.getByTestId('sev-event-se')).toHaveAttribute('data-value', '0');
  await undo(); // SE
  await expect(row.getByTestId('sev-event-se')).toHaveAttribute('data-value', '2');
  await undo(); // the whole drag is one step
  await expect(row.getByTestId('sev-event-frame')).toHaveValue('30');
  await undo(); // the event itself
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');

  for (let k = 0; k < 5; k++) await redo();
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  await expect(row.getByTestId('sev-event-frame')).toHaveValue('47');
  await expect(row.getByTestId('sev-event-se')).toHaveAttribute('data-value', '0');
  await expect(row.getByTestId('sev-event-joint')).toHaveAttribute('data-value', '21');
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText(/^Undo (Add|Remove) user key \(\w+, frame \d+\)/);
  await page.getByTestId('menu-edit').click();

  // picking a joint: arm it on the event, then select a joint (a click in the viewport selects the same way)
  await row.getByTestId('sev-pick-joint').click();
  await expect(page.getByTestId('sev-picking')).toBeVisible();
  await selectJoint(page, 'Head');
  await expect(row.getByTestId('sev-event-joint')).toHaveAttribute('data-value', '5');
  await expect(page.getByTestId('sev-picking')).toHaveCount(0);
  await page.getByTestId('sev-playhead').click();
  await undo();
  await expect(row.getByTestId('sev-event-joint')).toHaveAttribute('data-value', '21');

  // the selected event's note is the comment at the end of its line
  await page.locator('[data-testid="sev-event-row"][data-frame="5"] td').first().click();
  await expect(page.getByTestId('sev-event-note')).toHaveValue('left heel strike');
  await page.getByTestId('sev-event-note').fill('left heel strike, hard');
  await page.getByTestId('sev-event-note').press('Enter');

  // Ctrl+S saves the motion and the .sev, with the user's comments kept
  await page.getByTestId('sev-playhead').click();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  const saved = readFileSync(workspace.path('walk.sev'), 'utf8');
  expect(saved).toContain('event 5 0 17  # left heel strike, hard');
  expect(saved).toContain('event 0 2 -  # start of the cycle');
  expect(saved).toContain('# right heel, same floors');
  expect(parseSevStrict(saved).events.find((e) => e.frame === 47)).toMatchObject({ se: 0, joint: 21 });

  await page.locator('[data-testid="sev-marker"][data-frame="5"]').click();
  await screenshotOf(page.getByTestId('sev-editor'), testInfo.project.name, 'sev-editor-panel');

  // Delete removes the selected event
  await page.locator('[data-testid="sev-marker"][data-index="10"]').click();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);
  expect(pageErrors).toEqual([]);
});

test('an SE name no table defines shows the reason and the build is refused, writing nothing', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  await page.getByTestId('sev-add-se-def').click();
  const row = page.locator('[data-testid="sev-se-row"][data-index="3"]');
  await expect(row).toBeVisible();
  const name = row.getByTestId('sev-se-name');
  await name.fill('SE_NOT_IN_TABLES');
  await name.press('Enter');
  await expect(row.getByTestId('sev-se-error')).toContainText(
    /SE name SE_NOT_IN_TABLES is not defined in .*default\.sls or .*se_define\.h/,
  );
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('sev-issues')).toContainText('the build will refuse this SEV');
  await saveScreenshot('sev-editor-unknown-se');

  await page.getByTestId('project-build').click();
  const dialog = page.getByTestId('build-dialog');
  await expect(dialog.getByTestId('build-state')).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(dialog.getByTestId('build-error').first()).toContainText('SE name SE_NOT_IN_TABLES is not defined');
  await expect(dialog.getByTestId('build-error').first()).toContainText('walk.sev');
  await saveScreenshot('sev-editor-build-refused');
  expect(existsSync(workspace.path('out'))).toBe(false);
  // the error is clickable: it goes to the motion and closes the dialog
  await dialog.getByTestId('build-error').first().click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('[data-testid="project-motion"].selected')).toHaveAttribute('data-name', 'walk');
  expect(pageErrors).toEqual([]);
});

test('switching the floor attribute shows which SE each event plays; clicking an event auditions it', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  const heel = page.locator('[data-testid="sev-event-row"][data-frame="5"]');
  const cloth = page.locator('[data-testid="sev-event-row"][data-frame="0"]');
  await expect(heel.getByTestId('sev-event-resolved')).toHaveText('SE_FOOT_L_CONC 0x0200', { useInnerText: true });
  await page.getByTestId('sev-floor-2').click();
  await expect(page.getByTestId('sev-floor-name')).toHaveText('water');
  await expect(heel.getByTestId('sev-event-resolved')).toHaveText('SE_FOOT_L_WATER 0x0220', { useInnerText: true });
  await expect(cloth.getByTestId('sev-event-resolved')).toHaveText('SE_CLOTH_SWISH 0x0110', { useInnerText: true });
  await expect(page.locator('[data-testid="sev-se-row"][data-index="1"]').getByTestId('sev-se-on-floor')).toContainText(
    'SE_FOOT_R_WATER',
  );
  await page.getByTestId('sev-floor-3').click();
  await expect(heel.getByTestId('sev-event-resolved')).toHaveText('SE_FOOT_L_METAL 0x0230', { useInnerText: true });

  // the bundled sounds/ folder is the project's audition folder; clicking an event plays its SE on this floor
  await expect(page.getByTestId('sev-sound-folder')).toHaveText(/Sounds: \d+/);
  await page.locator('[data-testid="sev-marker"][data-frame="5"]').click();
  await expect(page.getByTestId('sev-last-played')).toHaveText('♪ SE_FOOT_L_METAL');
  // clicking an event also shows where it is attached: its joint is selected in the tuner and the playhead is on its frame
  await expect(page.getByTestId('timeline-selected')).toHaveText('LeftFoot');
  await expect(page.getByTestId('frame-number')).toHaveValue('5');
  // the WAV was fetched through the API, decoded by Web Audio and started
  await expect(page.getByTestId('sev-last-played')).toHaveAttribute('data-started', '1');
  // during playback each event plays at its frame: from frame 5 (whose left heel plays again as playback starts) the
  // next is the right heel at 21. The name shown is the latest played, and playback goes on past it (the left heel at
  // 38, ...): it read the right heel only about half the time, so a check of the text, polled within 5 s, could miss
  // it on a loaded machine. The names are recorded as they change from the press on, and the first new one is looked at.
  await recordTexts(page, ['sev-last-played']);
  await page.getByTestId('play-toggle').click();
  await expect.poll(() => textsShown(page, 'sev-last-played')).not.toEqual([]);
  expect((await textsShown(page, 'sev-last-played'))[0]).toBe('♪ SE_FOOT_R_METAL');
  await page.getByTestId('play-toggle').click();
  await expect
    .poll(async () => Number(await page.getByTestId('sev-last-played').getAttribute('data-started')))
    .toBeGreaterThan(1);
  await saveScreenshot('sev-editor-floor-metal');
  expect(pageErrors).toEqual([]);
});

test('a hand-broken .sev shows its errors with line:column, keeps the file, and can be fixed in place', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProject(page, workspace, electronApp);
  // break the file on disk while the project is open, then reopen it
  const good = readFileSync(workspace.path('walk.sev'), 'utf8');
  const broken = good.replace('event 38 0 17', 'event 38 0 seventeen');
  writeFileSync(workspace.path('walk.sev'), broken);
  const line = broken.split('\n').findIndex((l) => l.startsWith('event 38 0 seventeen')) + 1;
  await page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').click();
  await expect(page.getByTestId('sev-file')).toContainText('cmu_01_01.sev');
  await page.locator('[data-testid="project-motion"][data-name="walk"]').click();
  await expect(page.getByTestId('sev-broken')).toBeVisible();
  await expect(page.getByTestId('sev-parse-error').first()).toContainText(`line ${line}:12`);
  await expect(page.getByTestId('sev-source')).toHaveValue(broken);
  await saveScreenshot('sev-editor-broken-file');
  // saving is refused while it does not parse, and the file on disk is untouched
  await expect(page.getByTestId('sev-save')).toBeDisabled();
  expect(readFileSync(workspace.path('walk.sev'), 'utf8')).toBe(broken);

  // Text edited here and still broken is unsaved: Reload from disk asks before dropping it; Cancel keeps it.
  const edited = `${broken}# checked by hand\n`;
  await page.getByTestId('sev-source').fill(edited);
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  await expect(page.getByTestId('sev-save')).toHaveAttribute('title', 'walk.sev does not read: fix its text first');
  await page.getByTestId('sev-reload').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(
    'walk.sev has unsaved edits here. Reload it from disk and lose them?',
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  await expect(page.getByTestId('sev-source')).toHaveValue(edited);

  // fix it in place: the editor comes back with every event, and Save writes the fixed file
  await page.getByTestId('sev-source').fill(broken.replace('seventeen', '17'));
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);
  await page.getByTestId('sev-save').click();
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  expect(parseSevStrict(readFileSync(workspace.path('walk.sev'), 'utf8')).events.map((e) => e.frame)).toEqual(
    WALK_EVENTS,
  );
  expect(pageErrors).toEqual([]);
});
