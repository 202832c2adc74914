import { expect, test } from './fixtures';
import { waitForCompression, waitForDocument } from './ui';

test('the refined result replaces the greedy one; the classic checkbox and the object-space bound change what is compressed', async ({
  page,
}) => {
  await waitForDocument(page);
  await waitForCompression(page);
  const stage = page.getByTestId('compress-stage');
  const bytes = page.getByTestId('stat-mt3-bytes');
  // Refined by default: the final result is on screen and says what refining saved.
  await expect(stage).toHaveAttribute('data-stage', 'final');
  await expect(stage).toHaveAttribute('data-method', 'refined');
  await expect(stage).toHaveText(/refined: \d+ bytes saved vs greedy/);
  const refinedBytes = Number(await bytes.innerText());

  // Classic: more bytes, and the label says so.
  await page.getByTestId('method-classic').check();
  await waitForCompression(page);
  await expect(stage).toHaveAttribute('data-method', 'classic');
  await expect(stage).toHaveText('On screen: classic rule');
  await expect.poll(async () => Number(await bytes.innerText())).toBeGreaterThan(refinedBytes);
  await page.getByTestId('method-classic').uncheck();
  await waitForCompression(page);
  await expect.poll(async () => Number(await bytes.innerText())).toBe(refinedBytes);

  // The object-space readout: the worst joint and frame, a per-joint table, a jump to the worst frame.
  const worst = page.getByTestId('object-error-worst');
  await expect(worst).toHaveText(/max object-space: [\d.]+u at \S+ frame (\d+)/);
  const worstFrame = Number(/frame (\d+)/.exec(await worst.innerText())![1]);
  await worst.click();
  await expect(page.getByTestId('frame-number')).toHaveValue(String(worstFrame));
  await page.getByTestId('object-error-toggle').click();
  await expect(page.getByTestId('object-error-table').locator('tbody tr')).toHaveCount(23);

  // A skeleton-aware bound: met, and the worst object-space error within it.
  const field = page.getByTestId('tol-object');
  await field.fill('2');
  await field.press('Enter');
  await waitForCompression(page);
  await expect(page.getByTestId('skeleton-status')).toHaveText(/Object bound 2 u met/);
  const bounded = Number(/max object-space: ([\d.]+)u/.exec(await worst.innerText())![1]);
  expect(bounded).toBeLessThanOrEqual(2);
  // A bound below what the format can hold this motion to: the readout says what was asked and the floor it held.
  await field.fill('0.0001');
  await field.press('Enter');
  await waitForCompression(page);
  await expect(page.getByTestId('skeleton-status')).toHaveText(
    /^Object bound 0\.0001 u is below this motion's floor: held to [\d.]+ u, met \(\d+ rounds?\)$/,
  );
  await expect(page.getByTestId('skeleton-status')).toHaveAttribute('title', /below .*held to/);
  await page.keyboard.press('Control+z');
  await waitForCompression(page);
  await expect(page.getByTestId('skeleton-status')).toHaveText(/Object bound 2 u met/);
  // Undo turns the bound off again (with the keyboard back on the app, not in the field).
  await field.blur();
  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+z');
  await waitForCompression(page);
  await expect(page.getByTestId('skeleton-status')).toHaveCount(0);
  await expect(field).toHaveValue('');
});
