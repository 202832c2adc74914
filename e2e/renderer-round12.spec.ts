/**
 * Renderer review, round 12 (docs/architecture.md). The SEV editor reads no selection: its toolbar's parts that show
 * it (the SE and joint "+ Add event" uses, the selection count or the note, the pick status, Paste) each read their
 * own, so a click on an event row, a Ctrl+click and the joint pick's button render neither the editor nor the parts of
 * it that do not show the selection (the body, the add button, the track's host), and the editor's checks of the .sev
 * (unknown SE names, events outside the motion) are not run again at each click. ./renderCounter.ts counts them.
 * Mutations that fail: the editor reading `selectedEvent` again (1 editor render a click); NoteField setting its text
 * in an effect again (2 note renders at a click on another event); the store's selection a new array at each select
 * (1 track render at the pick button's click). The pick's status is a live region (role="status", there before the pick
 * is armed); mutation: the role taken out.
 *
 * The file picker's up-a-folder key in its filter field: ⌘↑ (Meta) is the field's (the caret to its start on macOS)
 * and goes up no folder from it; Alt+↑ still does (cold-round18). Mutation: the key listener not asking
 * `isTypingTarget` (⌘↑ in the filter went up).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { waitForDocument } from './ui';
import { reloadCountingRenders, renders } from './renderCounter';

const WATCHED = [
  'sev-editor',
  'sev-body',
  'sev-add-event',
  'sev-add-se',
  'sev-event-note',
  'sev-track',
  'sev-se-table',
  'sev-event-se',
];

test('clicks on rows and on the pick button render the rows, the note, the track and the SE table, not the editor', async ({
  page,
  pageErrors,
  electronApp,
}) => {
  test.skip(!!electronApp, 'the render counter is given to the browser page before it loads');
  await page.setViewportSize({ width: 1280, height: 800 });
  await reloadCountingRenders(page, WATCHED);
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await expect(page.getByTestId('sev-event-row')).toHaveCount(10);
  const row = (frame: number) => page.locator(`[data-testid="sev-event-row"][data-frame="${frame}"]`);
  const cell = (frame: number) => row(frame).getByTestId('sev-event-resolved');

  async function rendered(act: () => Promise<void>, done: () => Promise<void>): Promise<Record<string, number>> {
    const before = await renders(page);
    await act();
    await done();
    const after = await renders(page);
    return Object.fromEntries(WATCHED.map((id) => [id, after[id] - before[id]]));
  }
  const selected = (frame: number) => () => expect(row(frame)).toHaveAttribute('aria-selected', 'true');
  // Each click's renders: none of the editor and its body; the add controls where the SE changed with the event (21
  // and 71 hold other SEs than the first); the note once where it shows another event's; the track and the SE table,
  // which show the selection; the rows whose selection changed (round 11).
  const only = (shown: Partial<Record<string, number>>) => ({
    'sev-editor': 0,
    'sev-body': 0,
    'sev-add-event': 0,
    'sev-add-se': 0,
    'sev-event-note': 0,
    'sev-track': 1,
    'sev-se-table': 1,
    ...shown,
  });
  expect(await rendered(() => cell(21).click(), selected(21))).toEqual(
    only({ 'sev-add-event': 1, 'sev-add-se': 1, 'sev-event-note': 1, 'sev-event-se': 1 }),
  );
  expect(await rendered(() => cell(71).click(), selected(71))).toEqual(
    only({ 'sev-add-event': 1, 'sev-add-se': 1, 'sev-event-note': 1, 'sev-event-se': 2 }),
  );
  // Two selected: the count replaces the note (unmounted, no render).
  expect(await rendered(() => cell(104).click({ modifiers: ['Control'] }), selected(104))).toEqual(
    only({ 'sev-event-se': 2 }),
  );
  await expect(page.getByTestId('sev-selection')).toHaveText('2 events selected');
  expect(await rendered(() => cell(71).click(), selected(71))).toEqual(
    only({ 'sev-event-note': 1, 'sev-event-se': 2 }),
  );
  // The pick armed: its row and the status in the toolbar. The button selects its row again: the same selection, so not
  // the track nor the SE table (they rendered, the selection a new array of the same event).
  const pick = row(71).getByTestId('sev-pick-joint');
  expect(
    await rendered(
      () => pick.click(),
      () => expect(pick).toHaveAttribute('aria-pressed', 'true'),
    ),
  ).toEqual(only({ 'sev-track': 0, 'sev-se-table': 0, 'sev-event-se': 1 }));
  // Said by a screen reader: a live region, there (empty) before the pick was armed.
  await expect(page.getByRole('status').filter({ hasText: 'Pick a joint for event 6… (Esc: stop)' })).toBeVisible();
  await pick.click();
  await expect(page.getByTestId('sev-picking')).toHaveCount(0);
  await expect(page.getByTestId('sev-picking-status')).toHaveAttribute('role', 'status');
  await expect(page.getByTestId('sev-picking-status')).toBeEmpty();
  expect(pageErrors).toEqual([]);
});

test("the picker's ⌘↑ in its filter field is the field's; Alt+↑ there and ⌘↑ from the list go up a folder", async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the native open dialog has keys of its own');
  mkdirSync(workspace.path('takes/day2'), { recursive: true });
  copyFileSync(workspace.path('walk.mtn'), workspace.path('takes/day2/walk_b.mtn'));
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const picker = page.getByTestId('file-picker');
  const where = picker.getByTestId('picker-folder');
  const rows = picker.getByTestId('picker-folder-row');
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-open').click();
  await expect(picker).toBeVisible();
  await rows.filter({ hasText: /^takes\// }).click();
  await rows.filter({ hasText: /^day2\// }).click();
  await expect(where).toHaveText('Look in: workspace/takes/day2');
  const filter = picker.getByRole('textbox', { name: 'Filter files' });
  await filter.fill('walk');
  await filter.press('Meta+ArrowUp');
  await expect(filter).toBeFocused();
  await expect(filter).toHaveValue('walk');
  await expect(where).toHaveText('Look in: workspace/takes/day2');
  await filter.press('Alt+ArrowUp');
  await expect(where).toHaveText('Look in: workspace/takes');
  await rows.first().focus();
  await page.keyboard.press('Meta+ArrowUp');
  await expect(where).toHaveText('Look in: workspace');
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  expect(pageErrors).toEqual([]);
});
