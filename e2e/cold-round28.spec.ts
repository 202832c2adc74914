/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * twenty-eighth round).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { makeKeyEdit, pickerNewFolder, undoLabel, untilExportEnds } from './ui';
import { markerFrames, openSampleProjectAt1280, trackX } from './sev-ui';

/**
 * File › Export All as MSH with the tuned walk unsaved asks first (round 20); answered "Export the saved file", the
 * result listed walk's files and said nothing of the edits left out, while the tuner still marked walk modified
 * (Build's dialog says so since round 27). It now says the files hold walk.mtn as saved, and so does the message
 * after it; answered "Save and export", nothing of the kind. Mutation that fails: exportAllMotions dropping the name
 * that settleUnsavedMotion answers (no line in the dialog).
 */
test('Export All from the saved file says the unsaved changes are not in the files', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the folder is chosen in the browser build’s picker here');
  await openSampleProjectAt1280(page, workspace, electronApp);
  const saved = readFileSync(workspace.path('walk.mtn'));
  await page.keyboard.press('Control+1');
  await makeKeyEdit(page, 'LeftFoot');
  const picker = page.getByTestId('file-picker');
  const dialog = page.getByTestId('project-export-dialog');
  const exportInto = async (answer: string, folder: string) => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-export-all-msh').click();
    await page.getByRole('button', { name: answer }).click();
    await pickerNewFolder(picker, folder);
    await picker.getByTestId('picker-ok').click();
    await untilExportEnds(dialog);
  };

  await exportInto('Export the saved file', 'saved');
  await expect(dialog.getByTestId('project-export-saved-motion')).toHaveText(
    'These files hold walk.mtn as saved: the unsaved changes in the tuner are not in them. Save it and export ' +
      'again to take them in.',
  );
  await saveScreenshot('round28-export-saved-file-1280x800');
  await expect(page.getByTestId('message-list')).toContainText(
    "15 files. They hold walk.mtn as saved, without the tuner's unsaved changes.",
  );
  await dialog.getByTestId('project-export-close').click();
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  expect(readFileSync(workspace.path('walk.mtn')).equals(saved)).toBe(true);

  // Saved first, the export takes the edits: nothing is left out.
  await exportInto('Save and export', 'tuned');
  await expect(dialog.getByTestId('project-export-written')).toBeVisible();
  await expect(dialog.getByTestId('project-export-saved-motion')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

/**
 * In the Project mode at 1280x800 the event list's "Plays on floor 0" column (about 114 px) showed "…_CONC" and
 * "same" where the whole name fits ("SE_FOOT_L_CONC"). It shows the whole name now, cut at its start where longer;
 * the SE table's narrower "Floor 0" column keeps "…_CONC". Mutation that fails: the event list's narrow form shown
 * again under 1100 px (the column reads "…_CONC").
 */
test('the event list’s floor column shows whole names in the Project mode at 1280x800', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+3');
  const shown = () =>
    page.getByTestId('sev-event-resolved').evaluateAll((cells) =>
      cells.slice(0, 3).map((cell) => {
        const parts = Array.from(cell.querySelectorAll('span')).filter(
          (s) => getComputedStyle(s).display !== 'none' && s.getClientRects().length > 0,
        );
        // Cut (an ellipsis drawn over it) where its text is wider than its box.
        return parts.map((s) => `${s.textContent?.trim()}${s.scrollWidth > s.clientWidth ? ' (cut)' : ''}`).join('|');
      }),
    );
  await expect.poll(shown).toEqual(['SE_CLOTH_SWISH', 'SE_FOOT_L_CONC', 'SE_FOOT_R_CONC']);
  const seFloor = page.getByTestId('sev-se-on-floor').first().locator('.sev-narrow-only');
  await expect(seFloor).toBeVisible();
  await expect(seFloor).toHaveText('…_CONC');
  await saveScreenshot('round28-project-floor-names-1280x800');
  expect(pageErrors).toEqual([]);
});

/**
 * A sound designer drags a footstep to the frame where the foot is seen to land: the viewport kept the frame of
 * before for the whole drag (the press's, frame 5), and the playhead came to the event only at the drop, so the pose
 * could not be watched while dragging. The playhead (and the pose) now follow the dragged marker, frame by frame; the drag is still one
 * undo step. Mutation that fails: onMarkerMove not setting the playhead (the scrub stays at 5 until the drop).
 */
test('the pose follows an event marker while it is dragged', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+2');
  const scrub = page.getByTestId('scrub');
  await expect(scrub).toHaveValue('0');
  // Event 1: SE_FOOT_L at frame 5.
  const marker = page.locator('[data-testid="sev-marker"][data-index="1"]');
  const box = (await marker.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(await trackX(page, 9), y, { steps: 4 });
  await expect(scrub).toHaveValue('9');
  await page.mouse.move(await trackX(page, 12), y, { steps: 4 });
  // Still held: the pose is at the frame the marker is over.
  await expect(scrub).toHaveValue('12');
  await saveScreenshot('round28-drag-follows-1280x800');
  await page.mouse.up();
  expect((await markerFrames(page))[1]).toBe(12);
  expect(await undoLabel(page)).toBe('Undo Move SE_FOOT_L from frame 5 to 12');
  expect(pageErrors).toEqual([]);
});

/**
 * The project list's keys, sizes and errors are from the last check (on open, on save, on Check). After Tolerances →
 * project with walk's rotation tolerance at 0.8°, walk's row still read "602 keys … max 0.50°" while the tuner said
 * 535 keys, and nothing said the figures were of the project before the edit. A note now says so, the figures dimmed,
 * until Check (or Undo back to the checked project). Mutation that fails: ProjectPanel not comparing the checked text
 * with the project's (no note).
 */
test('the project list says its figures are from before a project edit, until Check', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+3');
  const walkStats = page.getByTestId('project-motion-stats').first();
  await expect(walkStats).toContainText('602 keys');
  const old = page.getByTestId('project-figures-old');
  await expect(old).toHaveCount(0);
  await page.keyboard.press('Control+1');
  const rotation = page.getByTestId('tol-rotation');
  await rotation.fill('0.8');
  await rotation.press('Enter');
  await page.keyboard.press('Control+3');
  await page.getByTestId('project-store-tolerances').click();
  await expect(old).toHaveText('The keys and sizes below are from before your last project edits: Check updates them.');
  await saveScreenshot('round28-figures-old-1280x800');
  await page.getByTestId('project-check').click();
  await expect(old).toHaveCount(0);
  await expect(walkStats).not.toContainText('602 keys');
  expect(pageErrors).toEqual([]);
});
