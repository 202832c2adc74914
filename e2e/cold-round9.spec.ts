/**
 * What a sound designer and a technical animator who had never seen ActGuy met in the browser build at 1280x800
 * and 1920x1080 (docs/user-guide.md "Tried cold", ninth round): an SE was chosen from a drop-down that had to be
 * scrolled (hundreds of SE names in a game's .sev) and found names by their first letters only; the build dialog did
 * not say that the archives took the .sev's unsaved edits, which the file on disk lacked.
 * Mutations that fail: SePicker's filter not applied (filterSeDefs returning every SE), its Enter picking nothing or
 * its Escape not closing the list; buildArchives not recording what it took unsaved (the note gone).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProjectAt1280 } from './sev-ui';
import { buildArchives, goToFrame, waitForDocumentAt1280 } from './ui';
import { readSar } from '../shared/sar/read';
import { parseSevStrict } from '../shared/sev/parse';
import type { Page } from '@playwright/test';

/** The Undo item's label in the Edit menu, without its shortcut. */
async function undoLabel(page: Page): Promise<string> {
  await page.getByTestId('menu-edit').click();
  const label = (await page.getByTestId('menu-undo').textContent()) ?? '';
  await page.getByTestId('menu-edit').click();
  return label.replace(/Ctrl\+Z$/, '').trim();
}

test('an SE is found by any part of its name: type to filter, arrows and Enter pick, Escape leaves it as it was', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const row = page.locator('[data-testid="sev-event-row"][data-frame="0"]');
  const picker = row.getByTestId('sev-event-se');
  await expect(picker).toHaveAttribute('data-value', '2');
  const before = await undoLabel(page);

  // Part of a name, in any case, inside the name: the list keeps the SEs that hold it.
  await picker.click();
  const list = page.getByTestId('sev-event-se-list');
  const items = list.getByTestId('se-picker-item');
  await expect(items).toHaveCount(3);
  await expect(page.getByTestId('sev-event-se-filter')).toBeFocused();
  await page.keyboard.type('foot');
  await expect(items).toHaveText(['SE_FOOT_L 0', 'SE_FOOT_R 1']);
  await saveScreenshot('se-picker-filtered-1280x800');
  // Escape closes it and changes nothing.
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(picker).toBeFocused();
  await expect(picker).toHaveAttribute('data-value', '2');
  expect(await undoLabel(page)).toBe(before);
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');

  // Typed on the focused picker, the letters go to its filter; ↓ then Enter picks the second match.
  await picker.focus();
  await page.keyboard.type('Foot_');
  await expect(page.getByTestId('sev-event-se-filter')).toHaveValue('Foot_');
  await expect(items).toHaveCount(2);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(picker).toHaveAttribute('data-value', '1');
  await expect(row.getByTestId('sev-event-resolved')).toContainText('SE_FOOT_R');
  // One named step, undone at once.
  expect(await undoLabel(page)).toBe('Undo Change SE_CLOTH_SWISH at frame 0 to SE_FOOT_R');
  await page.keyboard.press('Control+z');
  await expect(picker).toHaveAttribute('data-value', '2');
  expect(await undoLabel(page)).toBe(before);

  // A text no SE holds says so; the toolbar's picker filters the same way, a click picks and hands the keyboard back.
  const add = page.getByTestId('sev-add-se');
  await add.click();
  await page.keyboard.type('door');
  await expect(page.getByTestId('sev-add-se-list').getByTestId('se-picker-none')).toHaveText(
    'No SE name holds “door”.',
  );
  await page.getByTestId('sev-add-se-filter').fill('swish');
  await page.getByTestId('sev-add-se-list').getByTestId('se-picker-item').click();
  await expect(add).toHaveAttribute('data-value', '2');
  await expect(add).not.toBeFocused();
  expect(pageErrors).toEqual([]);
});

test('the build dialog says the archives took the unsaved .sev edits, and saves them so the file matches', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await goToFrame(page, 33);
  await page.getByTestId('sev-add-event').click();
  await expect(page.getByTestId('sev-dirty')).toContainText('modified');
  const dialog = await buildArchives(page);
  const note = dialog.getByTestId('build-unsaved');
  await expect(note).toContainText('These archives hold walk.sev');
  await expect(note).toContainText('unsaved edits included');
  await expect(note).toContainText('not have them yet');
  await saveScreenshot('build-unsaved-sev-1280x800');
  // It is so: the event added unsaved is in the .sar, and not in walk.sev on disk.
  const sarBytes = readFileSync(workspace.path('out/stage.sar'));
  const sar = readSar(new Uint8Array(sarBytes.buffer, sarBytes.byteOffset, sarBytes.byteLength));
  expect(sar.entries[0].events.map((e) => e.frame)).toContain(33);
  const onDisk = () => parseSevStrict(readFileSync(workspace.path('walk.sev'), 'utf8')).events.map((e) => e.frame);
  expect(onDisk()).not.toContain(33);
  // Saving from the dialog goes through the usual save: the file then holds what the archives were built from.
  await dialog.getByTestId('build-save-unsaved').click();
  await expect(dialog.getByTestId('build-unsaved-saved')).toContainText('Saved walk.sev');
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  expect(onDisk()).toContain(33);
  await dialog.getByTestId('build-close').click();
  // Nothing unsaved, nothing said.
  await buildArchives(page);
  await expect(dialog.getByTestId('build-unsaved')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
