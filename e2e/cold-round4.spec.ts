/**
 * What a first-time user met following docs/user-guide.md, docs/tuner.md and docs/sound-events.md step by step at
 * 1280x800 (docs/user-guide.md "Tried cold", fourth round).
 */
import { expect, test } from './fixtures';
import { waitForDocument } from './ui';

test('Suggest footsteps keeps All, None, Add and Cancel together on one line at 1280x800', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  // docs/sound-events.md "Suggest footsteps", in the Sound events mode the guide sends a sound designer to.
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('sev-track')).toBeVisible();
  await page.getByRole('button', { name: 'Suggest footsteps' }).click();
  const panel = page.getByTestId('sev-footsteps');
  await expect(panel.getByTestId('sev-footsteps-count')).toContainText('already have their footstep');
  // The panel's actions read as one group: All / None untick or tick the list that Add then adds. The toolbar's
  // wrap put All at the right end of the first line and None at the left of the second, apart from each other.
  const middles = await Promise.all(
    [
      panel.getByRole('button', { name: 'All', exact: true }),
      panel.getByRole('button', { name: 'None', exact: true }),
      panel.getByTestId('sev-footsteps-accept'),
      panel.getByTestId('sev-footsteps-cancel'),
    ].map(async (b) => {
      const box = (await b.boundingBox())!;
      return box.y + box.height / 2;
    }),
  );
  await saveScreenshot('footsteps-actions-1280x800');
  // Their middles on one line (the small buttons are 2 px shorter than Add and Cancel).
  expect(
    Math.max(...middles) - Math.min(...middles),
    `middles of All, None, Add, Cancel: ${middles.join(', ')}`,
  ).toBeLessThan(2);
  expect(pageErrors).toEqual([]);
});
