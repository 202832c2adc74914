import { expect, test } from './fixtures';
import { animationFrames, waitForDocument } from './ui';

test('playback: space plays and pauses, arrows step, Home/End jump, loop and speed apply', async ({ page }) => {
  await waitForDocument(page);
  const frame = page.getByTestId('status-frame');
  const frameOf = async () => Number(await frame.innerText());
  await expect(frame).toHaveText('0');

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(frame).toHaveText('2');
  await page.keyboard.press('ArrowLeft');
  await expect(frame).toHaveText('1');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(frame).toHaveText('11');

  // Space plays: the playhead advances on its own; Space again pauses it.
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(frameOf).toBeGreaterThan(14);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play-toggle')).toHaveAttribute('aria-pressed', 'false');
  const stopped = await frameOf();
  await animationFrames(page, 12);
  expect(await frameOf()).toBe(stopped);

  // End, then a step forward wraps to 0 with loop on, and stays at N with loop off.
  await page.keyboard.press('End');
  const last = await frameOf();
  expect(last).toBeGreaterThan(100);
  await page.keyboard.press('ArrowRight');
  await expect(frame).toHaveText('0');
  await page.getByTestId('loop').uncheck();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowRight');
  await expect(frame).toHaveText(String(last));
  await page.keyboard.press('Home');
  await expect(frame).toHaveText('0');

  // Speed: 4x plays through the motion and stops at N without loop. Its rate is checked on a clock of the test's own
  // (renderer/app/playback.test.ts): here it was "N within 5 s", which a loaded machine's slow frames could miss.
  await page.getByTestId('speed').selectOption('4');
  await page.getByTestId('play-toggle').click();
  await expect(frame).toHaveText(String(last));
  await expect(page.getByTestId('play-toggle')).toHaveAttribute('aria-pressed', 'false');

  // The scrub slider moves the playhead.
  await page.getByTestId('scrub').fill('40');
  await expect(frame).toHaveText('40');
});
