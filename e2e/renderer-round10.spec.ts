/**
 * Renderer review, round 10 (docs/architecture.md): a click on an event row renders the rows whose selection changed,
 * not every row of the list (each row a memo of its own event; the order and the SE lookups read once for each array,
 * renderer/sev/eventRows.ts). ./renderCounter.ts counts the renders of each row's frame field, SE picker and joint
 * picker (one each per row rendered).
 * Mutations that fail: EventRow not a memo (10 rows rendered at the first click, walk.sev's ten events, against 1);
 * NumberField setting its text in an effect again (the frame field of a row rendered twice at its first click).
 * A joint pick armed for an event stays armed at an Escape in a text field (the field's own: it reverts the frame typed)
 * and the pick button says it is armed (`aria-pressed`). Mutations: SevEditor's Escape not asking isTypingTarget (the
 * pick cancelled), the button's `aria-pressed` taken out.
 */
import { expect, test } from './fixtures';
import { waitForDocument } from './ui';
import { reloadCountingRenders, renders } from './renderCounter';

const FIELDS = ['sev-event-frame', 'sev-event-se', 'sev-event-joint'];
const WATCHED = [...FIELDS, 'sev-event-list'];

test('a click, a Ctrl+click and a Shift+click on event rows render the rows whose selection changed', async ({
  page,
  pageErrors,
  electronApp,
}) => {
  test.skip(!!electronApp, 'the render counter is given to the browser page before it loads');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await reloadCountingRenders(page, WATCHED);
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  const rows = page.getByTestId('sev-event-row');
  await expect(rows).toHaveCount(10);
  const row = (frame: number) => page.locator(`[data-testid="sev-event-row"][data-frame="${frame}"]`);
  // A click on the row's "plays" cell (no control): walk.sev's events at frames 0, 5, 21, ... 120.
  const cell = (frame: number) => row(frame).getByTestId('sev-event-resolved');

  /** The renders of each watched testid while `act` runs and its selection shows. */
  async function rendersOf(act: () => Promise<void>, selected: number[]): Promise<Record<string, number>> {
    const before = await renders(page);
    await act();
    for (const f of [0, 5, 21, 38, 54, 66, 71, 87, 104, 120])
      await expect(row(f), `row at frame ${f}`).toHaveAttribute('aria-selected', String(selected.includes(f)));
    const after = await renders(page);
    return Object.fromEntries(WATCHED.map((id) => [id, after[id] - before[id]]));
  }
  /** What `act` rendered: each row rendered renders its SE and joint pickers once. */
  async function rowsRenderedBy(act: () => Promise<void>, selected: number[]): Promise<number> {
    const n = await rendersOf(act, selected);
    expect(n['sev-event-se']).toBe(n['sev-event-joint']);
    // And its frame field once: it rendered twice at its first render after its mount (its mount's effect).
    expect(n['sev-event-frame']).toBe(n['sev-event-se']);
    // Nor the list itself since round 11 (it reads no selection, ./renderer-round11.spec.ts).
    expect(n['sev-event-list']).toBe(0);
    return n['sev-event-se'];
  }

  // The counter counts: every row's controls were drawn.
  const first = await renders(page);
  for (const id of FIELDS) expect(first[id], id).toBeGreaterThanOrEqual(10);

  // Nothing selected to the event at 21: its row alone (round 9 rendered the ten).
  expect(await rowsRenderedBy(() => cell(21).click(), [21])).toBe(1);
  // To the event at 71: its row and the one it leaves.
  expect(await rowsRenderedBy(() => cell(71).click(), [71])).toBe(2);
  // Ctrl+click adds the event at 104, now the current one: its row and 71's, no longer current.
  expect(await rowsRenderedBy(() => cell(104).click({ modifiers: ['Control'] }), [71, 104])).toBe(2);
  // Shift+click from 104 (the anchor, current still) to 38: 38 to 104 selected; the rows of 38, 54, 66 and 87 came in.
  expect(await rowsRenderedBy(() => cell(38).click({ modifiers: ['Shift'] }), [38, 54, 66, 71, 87, 104])).toBe(4);
  // A click on a selected row of several selects it alone: five leave (38, 54, 66, 87 and 104, the current one) and
  // 71 becomes current.
  expect(await rowsRenderedBy(() => cell(71).click(), [71])).toBe(6);
  expect(pageErrors).toEqual([]);
});

test("an Escape in a field is the field's: a joint pick armed stays armed, and its button says so", async ({
  page,
  pageErrors,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await waitForDocument(page);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  const pick = page.getByRole('button', { name: 'Pick the joint of event 2 (SE 1)', exact: true });
  await expect(pick).toHaveAttribute('aria-pressed', 'false');
  await pick.click();
  await expect(page.getByTestId('sev-picking')).toBeVisible();
  await expect(pick).toHaveAttribute('aria-pressed', 'true');
  // A frame typed in the event's own field, then Escape: the field goes back to 21, the pick stays armed.
  const frame = page.getByRole('textbox', { name: 'Frame of event 2 (SE 1)', exact: true });
  await frame.fill('30');
  await frame.press('Escape');
  await expect(frame).toHaveValue('21');
  await expect(page.getByTestId('sev-picking')).toBeVisible();
  await expect(pick).toHaveAttribute('aria-pressed', 'true');
  // Out of the field (the list has the keyboard now), Escape cancels the pick as before.
  await expect(frame).not.toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('sev-picking')).toHaveCount(0);
  await expect(pick).toHaveAttribute('aria-pressed', 'false');
  expect(pageErrors).toEqual([]);
});
