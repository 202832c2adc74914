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

test('unticking Floors hides the 8 variants and ticking restores them; they go only when saved unticked', async ({ page, workspace, electronApp }) => {
  await openSampleProject(page, workspace, electronApp);
  const row = page.locator('[data-testid="sev-se-row"][data-index="0"]');
  const box = row.getByTestId('sev-se-variants-on');
  await row.getByTestId('sev-se-name').click();
  await expect(page.getByTestId('sev-se-variant-2')).toHaveValue('SE_FOOT_L_WATER');

  await box.uncheck();
  await expect(page.getByTestId('sev-variant')).toHaveCount(0);
  await expect(row.getByTestId('sev-se-variants-hidden')).toContainText('hidden');
  await box.check();
  await expect(page.getByTestId('sev-se-variant-2')).toHaveValue('SE_FOOT_L_WATER');
  await expect(page.getByTestId('sev-se-variant-7')).toHaveValue('SE_FOOT_L_GRATE');

  // Saved unticked: the file loses them, and ticking again starts from the base name.
  await box.uncheck();
  await page.getByTestId('sev-save').click();
  await expect(page.getByTestId('sev-dirty')).not.toContainText('modified');
  const saved = parseSevStrict(readFileSync(workspace.path('walk.sev'), 'utf8'), 'walk.sev');
  expect(saved.ses.find((d) => d.index === 0)!.variants).toBeUndefined();
  await expect(row.getByTestId('sev-se-variants-hidden')).toHaveCount(0);
  await box.check();
  await expect(page.getByTestId('sev-se-variant-2')).toHaveValue('SE_FOOT_L');
});
