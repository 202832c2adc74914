/**
 * The SEV editor shows the bidirectional-formatting-character warnings the CLI and the Build give (shared/bidiText.ts
 * bidiWarnings): each placed by line:column and naming the character, above the event track of a readable file and
 * beside the errors of one that does not read; editing and saving go on. Mutations that fail it: `textWarnings` left
 * empty in sevStore.load (no warnings shown), the <SevTextWarnings> of SevEditor.tsx removed (the readable file), the
 * one in BrokenSevView.tsx removed (the broken file), markSaved not recomputing them (the lines after Save).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { bidiWarnings } from '../shared/bidiText';
import type { Page } from '@playwright/test';

const RLO = '\u202e';
const LRI = '\u2066';

/** Opens another motion and walk again, so the editor reads walk.sev from disk. */
async function reopenWalk(page: Page) {
  await page.locator('[data-testid="project-motion"][data-name="cmu_01_01"]').click();
  await expect(page.getByTestId('sev-file')).toContainText('cmu_01_01.sev');
  await page.locator('[data-testid="project-motion"][data-name="walk"]').click();
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
}

/** The warnings shown, as `line:column` strings. */
async function shownPlaces(page: Page): Promise<string[]> {
  return page
    .getByTestId('sev-text-warning')
    .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.line}:${(e as HTMLElement).dataset.column}`));
}

test('the SEV editor shows its text bidi warnings by line:column, naming the character, and still edits and saves', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  await expect(page.getByTestId('sev-text-warnings')).toHaveCount(0);
  const good = readFileSync(workspace.path('walk.sev'), 'utf8');
  const lines = good.split('\n');
  const at = lines.findIndex((l) => l.startsWith('event 38 0 17'));
  expect(at, 'the sample has event 38').toBeGreaterThan(0);
  // A comment line whose RLO reorders the event line's look elsewhere, and an isolate in an event's trailing note.
  lines.splice(at, 0, `# see ${RLO}event 21 0 -`);
  lines[at + 1] = `${lines[at + 1]} # ${LRI}x`;
  const tricky = lines.join('\n');
  writeFileSync(workspace.path('walk.sev'), tricky);
  await reopenWalk(page);

  const expected = bidiWarnings(tricky, 'SEV', 'walk.sev');
  expect(expected).toHaveLength(2);
  const box = page.getByTestId('sev-text-warnings');
  await expect(box).toBeVisible();
  await expect(box).toContainText('2 warnings');
  await expect(page.getByTestId('sev-text-warning')).toHaveCount(2);
  expect(await shownPlaces(page)).toEqual(expected.map((w) => `${w.place.line}:${w.place.column}`));
  await expect(page.getByTestId('sev-text-warning').nth(0)).toContainText(`line ${at + 1}:7`);
  await expect(page.getByTestId('sev-text-warning').nth(0)).toContainText('U+202E RIGHT-TO-LEFT OVERRIDE');
  await expect(page.getByTestId('sev-text-warning').nth(1)).toContainText('U+2066 LEFT-TO-RIGHT ISOLATE');
  await saveScreenshot('sev-bidi-warnings-1280x800');

  // Not blocking: an event is added and the file saved; the warnings now place the characters in the text written.
  await expect(page.getByTestId('sev-marker')).toHaveCount(10);
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-marker')).toHaveCount(11);
  await expect(page.getByTestId('sev-save')).toBeEnabled();
  await page.getByTestId('sev-save').click();
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  const saved = readFileSync(workspace.path('walk.sev'), 'utf8');
  expect(saved).toContain(RLO);
  const after = bidiWarnings(saved, 'SEV', 'walk.sev');
  expect(after).toHaveLength(2);
  expect(await shownPlaces(page)).toEqual(after.map((w) => `${w.place.line}:${w.place.column}`));

  // A file that does not read shows them beside its errors, and a click goes to the character in the text.
  const broken = tricky.replace('event 54 1 21', 'event fifty-four 1 21');
  expect(broken).not.toBe(tricky);
  writeFileSync(workspace.path('walk.sev'), broken);
  await reopenWalk(page);
  await expect(page.getByTestId('sev-broken')).toBeVisible();
  await expect(page.getByTestId('sev-parse-error')).not.toHaveCount(0);
  await expect(page.getByTestId('sev-text-warning')).toHaveCount(2);
  await page.getByTestId('sev-text-warning').nth(0).getByRole('button').click();
  const selected = await page
    .getByTestId('sev-source')
    .evaluate((el) => (el as HTMLTextAreaElement).value.slice((el as HTMLTextAreaElement).selectionStart)[0]);
  expect(selected).toBe(RLO);
  await saveScreenshot('sev-bidi-warnings-broken-1280x800');
  expect(pageErrors).toEqual([]);
});

/**
 * The warnings follow the document as edited, from the text Save would write: a U+202E typed into an event's note
 * shows before any save, and undoing the note takes it away. Mutation that fails it: SevEditor.tsx showing
 * `file.textWarnings` (the file's, recomputed only on open and Save) instead of useSevTextWarnings().
 */
test('a bidi character typed into a note shows in the warnings before any save', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  const onDisk = readFileSync(workspace.path('walk.sev'), 'utf8');
  await expect(page.getByTestId('sev-text-warnings')).toHaveCount(0);
  await page.locator('[data-testid="sev-event-row"][data-frame="38"] td').first().click();
  const note = page.getByTestId('sev-event-note');
  await expect(note).toBeVisible();
  await note.fill('');
  await note.pressSequentially(`see ${RLO}here`);
  await note.press('Enter');
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  const box = page.getByTestId('sev-text-warnings');
  await expect(box).toBeVisible();
  await expect(box).toContainText('1 warning');
  await expect(page.getByTestId('sev-text-warning')).toHaveCount(1);
  await expect(page.getByTestId('sev-text-warning')).toContainText('U+202E RIGHT-TO-LEFT OVERRIDE');
  // Nothing was saved: the file is as it was, and the place is that of the text Save would write.
  expect(readFileSync(workspace.path('walk.sev'), 'utf8')).toBe(onDisk);
  const before = await shownPlaces(page);
  await saveScreenshot('sev-bidi-warnings-typed-1280x800');

  // Undo the note: the document is the file's again, and so are its (no) warnings.
  await page.locator('body').click({ position: { x: 5, y: 790 } });
  await page.getByTestId('menu-edit').click();
  await page.getByTestId('menu-undo').click();
  await expect(page.getByTestId('sev-text-warnings')).toHaveCount(0);
  // Redo and save: the file written has its warning where the strip showed it before the save.
  await page.getByTestId('menu-edit').click();
  await page.getByTestId('menu-redo').click();
  await expect(page.getByTestId('sev-text-warning')).toHaveCount(1);
  await page.getByTestId('sev-save').click();
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  const saved = readFileSync(workspace.path('walk.sev'), 'utf8');
  expect(saved).toContain(`see ${RLO}here`);
  expect(before).toEqual(bidiWarnings(saved, 'SEV', 'walk.sev').map((w) => `${w.place.line}:${w.place.column}`));
  expect(await shownPlaces(page)).toEqual(before);
  expect(pageErrors).toEqual([]);
});
