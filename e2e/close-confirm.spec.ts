import { expect, test } from './fixtures';
import { openThroughPicker, waitForDocument } from './ui';

test('closing with unsaved changes asks first: cancel keeps, save writes, discard closes', async ({ page }) => {
  await waitForDocument(page);
  // Frame 30 (the first and last frames always have a trace key: their chips are fixed, e2e/cold-start.spec.ts).
  const traceAt30 = page.getByTestId('trace-item').filter({ hasText: /^30\D/ });
  const toFrame30 = async () => {
    await page.getByTestId('frame-number').fill('30');
    await page.getByTestId('frame-number').press('Enter');
  };
  const hadTrace30 = (await traceAt30.count()) === 1;
  await toFrame30();
  await page.keyboard.press('t'); // toggles the trace key at frame 30
  await expect(traceAt30).toHaveCount(hadTrace30 ? 0 : 1);
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page).toHaveTitle(/^● walk/);

  const close = async () => {
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-close').click();
  };
  await close();
  const question = page.getByTestId('confirm-dialog');
  await expect(question).toContainText('unsaved changes');
  await question.getByTestId('confirm-cancel').click();
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('doc-name')).toHaveText('walk');

  // Save from the question: the document is written, then closed.
  await close();
  await question.getByTestId('confirm-save').click();
  await expect(page.getByTestId('statusbar')).toHaveText('No motion open');
  await expect(page.getByTestId('viewport-empty')).toContainText('No motion open.');
  // The timeline is not left blank: it says what it shows and how to open a motion.
  await expect(page.getByTestId('timeline-empty')).toContainText('File › Open… (Ctrl+O)');
  await expect(page).toHaveTitle('ActGuy');

  // Reopen: the saved toggle is there. Toggle back, close, discard: the file keeps the saved state.
  await openThroughPicker(page, 'walk.mtn');
  await waitForDocument(page);
  await expect(page.getByTestId('timeline-empty')).toHaveCount(0);
  await expect(traceAt30).toHaveCount(hadTrace30 ? 0 : 1);
  await toFrame30();
  await page.keyboard.press('t');
  await expect(traceAt30).toHaveCount(hadTrace30 ? 1 : 0);
  await close();
  await question.getByTestId('confirm-discard').click();
  await expect(page.getByTestId('statusbar')).toHaveText('No motion open');
  await openThroughPicker(page, 'walk.mtn');
  await waitForDocument(page);
  await expect(traceAt30).toHaveCount(hadTrace30 ? 0 : 1);
});
