/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * twenty-ninth round).
 */
import { expect, test } from './fixtures';
import { undoLabel } from './ui';
import { markerFrames, openSampleProjectAt1280, trackX } from './sev-ui';

/**
 * In the full layout at 1280x800 the event list's "Floor 0" column (56 px) read "…_CONC" and "same" (round 28 gave
 * the Project mode the whole name only), while its SE and joint columns were wider than their pickers. It shows the
 * whole name now, every column of the list inside the panel. Mutation that fails: the short form shown again under
 * 960 px (the column reads "…_CONC").
 */
test('the event list’s floor column shows whole names in the full layout at 1280x800', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  const cell = (frame: number) =>
    page.locator(`[data-testid="sev-event-row"][data-frame="${frame}"]`).getByTestId('sev-event-resolved');
  await expect(cell(5)).toHaveText('SE_FOOT_L_CONC', { useInnerText: true });
  await expect(cell(0)).toHaveText('SE_CLOTH_SWISH', { useInnerText: true });
  await expect(cell(21)).toHaveText('SE_FOOT_R_CONC', { useInnerText: true });
  const cut = () =>
    page
      .locator('[data-testid="sev-event-resolved"] .sev-wide-only')
      .evaluateAll((els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => (e as HTMLElement).innerText),
      );
  expect(await cut()).toEqual([]);
  // The longest of the sample's floors, whole too; the SE table keeps its short form.
  await page.getByTestId('sev-floor-2').click();
  await expect(cell(21)).toHaveText('SE_FOOT_R_WATER', { useInnerText: true });
  expect(await cut()).toEqual([]);
  await expect(page.locator('[data-testid="sev-se-row"][data-index="0"]').getByTestId('sev-se-on-floor')).toHaveText(
    '…_WATER',
    { useInnerText: true },
  );
  // Nothing of the list runs past its column: the row's Delete is inside it, and neither table scrolls sideways.
  const wraps = await page
    .locator('.sev-list-wrap')
    .evaluateAll((els) => els.map((e) => e.scrollWidth - e.clientWidth));
  expect(wraps).toEqual([0, 0]);
  await expect(page.getByTestId('sev-event-delete').first()).toBeInViewport({ ratio: 1 });
  // The SE names are whole in their fields.
  const names = await page
    .getByTestId('sev-se-name')
    .evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => (e as HTMLInputElement).value),
    );
  expect(names).toEqual([]);
  await saveScreenshot('round29-floor-column-full-1280x800');
  expect(pageErrors).toEqual([]);
});

/**
 * A sound designer drags a sound from the SE list onto the time line where it should play; there was no such drag
 * (round 28 left it: an event was added at the playhead or by a right-click, then dragged). The SE table's "#" cell
 * is a handle now: over the event row the playhead (and the pose) follows the pointer and a line names the SE and
 * frame; the drop adds the event there on the SE's joint, one undo step. Mutations that fail: the row not taking the
 * drop (no event added), and the dragover not moving the playhead (the scrub stays at 0).
 */
test('an SE dragged from the SE table onto the event row adds an event where it is dropped', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+2');
  const before = await markerFrames(page);
  const scrub = page.getByTestId('scrub');
  await expect(scrub).toHaveValue('0');
  const grip = page.locator('[data-testid="sev-se-row"][data-index="1"]').getByTestId('sev-se-grip');
  await expect(grip).toHaveAttribute('title', /^Drag SE_FOOT_R onto the event row/);
  const track = page.getByTestId('sev-track');
  const y = (await track.boundingBox())!.y + 30;
  const from = (await grip.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(await trackX(page, 40), y, { steps: 6 });
  await expect(scrub).toHaveValue('40');
  await page.mouse.move(await trackX(page, 46), y, { steps: 4 });
  // Still held: the pose is at the frame the SE would go to, and the row says what a drop adds.
  await expect(scrub).toHaveValue('46');
  await expect(page.getByTestId('sev-drop')).toHaveText('SE_FOOT_R at 46');
  await saveScreenshot('round29-se-drag-1280x800');
  await page.mouse.up();
  await expect(page.getByTestId('sev-drop')).toHaveCount(0);
  await expect.poll(() => markerFrames(page)).toEqual([...before, 46]);
  const added = page.locator('[data-testid="sev-event-row"][data-frame="46"]');
  await expect(added).toHaveAttribute('aria-selected', 'true');
  await expect(added.getByTestId('sev-event-joint')).toContainText('21 RightFoot');
  expect(await undoLabel(page)).toBe('Undo Add SE_FOOT_R at frame 46 on joint 21 RightFoot');
  await page.keyboard.press('Control+z');
  await expect.poll(() => markerFrames(page)).toEqual(before);
  expect(pageErrors).toEqual([]);
});

/**
 * The project list's figures are from the last check; after a project edit a note says so (round 28) and sent the
 * user to the toolbar's Check, a row above it and across the panel. Recomputing them at each edit would compress
 * every motion again for each tolerance typed: the note keeps them as they were, and now holds its own Check.
 * Mutation that fails: the note's Check doing nothing (the note stays).
 */
test('the note over old project figures has its own Check', async ({ page, workspace, electronApp, pageErrors }) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+1');
  const rotation = page.getByTestId('tol-rotation');
  await rotation.fill('0.8');
  await rotation.press('Enter');
  await page.keyboard.press('Control+3');
  await page.getByTestId('project-store-tolerances').click();
  const old = page.getByTestId('project-figures-old');
  await expect(old).toHaveText('The keys and sizes below are from before your last project edits: Check updates them.');
  await old.getByTestId('project-figures-check').click();
  await expect(old).toHaveCount(0);
  await expect(page.getByTestId('project-motion-stats').first()).not.toContainText('602 keys');
  expect(pageErrors).toEqual([]);
});
