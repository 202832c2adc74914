/**
 * Edits do what the user meant: Ctrl+Z in a text field is the
 * field's own undo, unticking "Floors" hides the floor variants and ticking it
 * restores them, and an invalid tolerance says why it was not taken.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { waitForCompression, waitForDocument } from './ui';
import { parseSevStrict } from '../shared/sev/parse';

test('Ctrl+Z and Ctrl+Y inside a text field undo its typing, not a hidden app edit', async ({ page }) => {
  await waitForDocument(page);
  const position = page.getByTestId('tol-position');
  await position.fill('0.75');
  await position.press('Enter');
  await waitForCompression(page);
  await expect(position).toHaveValue('0.75');

  // Typing into another field, then Ctrl+Z there: the app's last edit (position 0.75) must stay.
  const rotation = page.getByTestId('tol-rotation');
  await rotation.click();
  await rotation.press('End');
  await page.keyboard.type('1');
  await expect(rotation).toHaveValue('0.51');
  await page.keyboard.press('Control+z');
  await expect(rotation).toHaveValue('0.5');
  await expect(position).toHaveValue('0.75');
  await page.keyboard.press('Control+y');
  await expect(rotation).toHaveValue('0.51');
  await expect(position).toHaveValue('0.75');
  // Escape reverts the field without committing what was typed.
  await rotation.press('Escape');
  await expect(rotation).toHaveValue('0.5');

  // Outside the field Ctrl+Z is the app's undo again.
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+z');
  await expect(position).toHaveValue('0.5');
});

test('a tolerance of 0 is refused with the reason shown at the field', async ({ page }) => {
  await waitForDocument(page);
  const field = page.getByTestId('tol-rotation');
  await field.fill('0');
  await field.press('Enter');
  const error = page.getByTestId('tol-rotation-error');
  await expect(error).toContainText('Rotation tolerance must be greater than 0');
  await expect(error).toContainText('"0" was not applied, it stays 0.5°');
  await expect(field).toHaveValue('0.5');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  // Typing again clears the complaint; a valid value is taken.
  await field.fill('0.4');
  await expect(error).toHaveCount(0);
  await field.press('Enter');
  await expect(field).toHaveValue('0.4');
  await expect(error).toHaveCount(0);
});

test('Remove floor variants hides the 8 variants and Restore brings them back; they go only when a save is confirmed by name', async ({
  page,
  workspace,
  electronApp,
}) => {
  await openSampleProject(page, workspace, electronApp);
  const row = page.locator('[data-testid="sev-se-row"][data-index="0"]');
  await row.getByTestId('sev-se-name').click();
  await expect(page.getByTestId('sev-se-variant-2')).toHaveValue('SE_FOOT_L_WATER');

  await page.getByTestId('sev-variants-remove').click();
  await expect(page.getByTestId('sev-variant')).toHaveCount(0);
  await expect(row.getByTestId('sev-se-variants-hidden')).toContainText('8 hidden');
  await page.getByTestId('sev-variants-add').click();
  await expect(page.getByTestId('sev-se-variant-2')).toHaveValue('SE_FOOT_L_WATER');
  await expect(page.getByTestId('sev-se-variant-7')).toHaveValue('SE_FOOT_L_GRATE');

  // Saved without them only when the question naming them is answered: the file loses them, and adding floors again starts from the base name.
  await page.getByTestId('sev-variants-remove').click();
  await page.getByTestId('sev-save').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(
    'Save will remove the 8 floor variants of SE 0 SE_FOOT_L',
  );
  await page.getByTestId('confirm-save').click();
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  const saved = parseSevStrict(readFileSync(workspace.path('walk.sev'), 'utf8'), 'walk.sev');
  expect(saved.ses.find((d) => d.index === 0)!.variants).toBeUndefined();
  await expect(row.getByTestId('sev-se-variants-hidden')).toHaveCount(0);
  await page.getByTestId('sev-variants-add').click();
  await expect(page.getByTestId('sev-se-variant-2')).toHaveValue('SE_FOOT_L');
});
