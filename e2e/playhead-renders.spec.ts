import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { waitForCompression, waitForProjectFigures } from './ui';
import { reloadCountingRenders, renders } from './renderCounter';
import { recordTexts, textsShown } from './textRecord';

/**
 * The playhead moving re-renders what shows it (the status bar's frame, the SEV toolbar's frame, the event row's
 * playhead line), not the SEV editor, its event list and event row, nor the project panel (docs/architecture.md,
 * "Renderer review, round 3"); ./renderCounter.ts counts the renders.
 */
const WATCHED = ['status-frame', 'sev-playhead', 'sev-editor', 'sev-event-list', 'sev-track', 'project-panel'];

test('playing the motion re-renders the frame readouts, not the SEV editor, its lists nor the project panel', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  test.skip(!!electronApp, 'the render counter is given to the browser page before it loads');
  await reloadCountingRenders(page, WATCHED);
  await openSampleProject(page, workspace, electronApp);
  // No sound is played as the playhead passes the events (a sound played is shown in the toolbar).
  const audition = page.getByTestId('sev-audition');
  if (await audition.isChecked()) await audition.uncheck();
  await expect(page.getByTestId('sev-event-list')).toBeVisible();
  // The project's first figures and the motion's compression are in: nothing else is on its way to the panels.
  await waitForProjectFigures(page);
  await waitForCompression(page);

  const before = await renders(page);
  // The counter counts: the editor, its list and the panel were drawn once at least.
  for (const id of WATCHED) expect(before[id], id).toBeGreaterThan(0);
  const start = Number(await page.getByTestId('status-frame').textContent());
  const readouts = ['status-frame', 'sev-playhead'];
  await recordTexts(page, readouts);
  await page.getByTestId('play-toggle').click();
  await expect
    .poll(async () => Number(await page.getByTestId('status-frame').textContent()))
    .toBeGreaterThan(start + 30);
  await page.getByTestId('play-toggle').click();
  const after = await renders(page);

  // What shows the playhead re-rendered as it moved: it showed more than one frame on the way, each by a render. The
  // renders are as many as the animation frames, not a number of its own: each moves the playhead by the time since
  // the last (up to a quarter of a second), and a loaded machine has fewer (this asked for more than 20 renders over
  // the 30 frames, and had 18 at load 15).
  for (const id of readouts) {
    const shown = await textsShown(page, id);
    expect(shown.length, `${id} showed ${shown.join(', ')}`).toBeGreaterThan(1);
    expect(after[id] - before[id], id).toBeGreaterThanOrEqual(shown.length);
  }
  // ...and nothing else did (the play button's own click re-renders none of them).
  const still = ['sev-editor', 'sev-event-list', 'sev-track', 'project-panel'];
  expect(Object.fromEntries(still.map((id) => [id, after[id] - before[id]]))).toEqual(
    Object.fromEntries(still.map((id) => [id, 0])),
  );
  expect(pageErrors).toEqual([]);
});
