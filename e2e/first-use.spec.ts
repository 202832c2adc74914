/**
 * What a first-time user meets at 1280x800, each seen in a cold walk-through of the app:
 * - with no motion open, every panel says what it is for and how to open one (the timeline was blank), and the
 *   sound-event banner's "Open walk" button shows its name whole (it was squeezed onto two clipped lines).
 */
import { expect, test } from './fixtures';
import { waitForDocument } from './ui';

test('at 1280x800 with no motion open, the timeline says how to open one and the .sev banner button is whole', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.getByTestId('timeline-empty')).toHaveCount(0);
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-close').click();
  await expect(page.getByTestId('statusbar')).toHaveText('No motion open');

  const empty = page.getByTestId('timeline-empty');
  await expect(empty).toContainText('File › Open… (Ctrl+O)');
  const panel = (await page.getByTestId('timeline').boundingBox())!;
  const box = (await empty.boundingBox())!;
  expect(box.y + box.height, 'inside the timeline panel').toBeLessThanOrEqual(panel.y + panel.height);

  const open = page.getByTestId('sev-mismatch').getByTestId('sev-open-motion');
  await expect(open).toHaveText('Open walk');
  const cut = await open.evaluate(
    (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 || el.clientHeight > 24,
  );
  expect(cut, '"Open walk" on one line, not clipped').toBe(false);
  await saveScreenshot('first-use-no-motion-1280x800');
});
