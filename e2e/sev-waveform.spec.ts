/**
 * The event track draws each event's sound (UE's notify track): where the audition folder has the SE's sound
 * file, its waveform lies under the event from its frame over the frames the sound lasts, in the SE's colour,
 * following the zoom; the floor shown picks which sound.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { repoRoot } from './electron-binary';
import { openSampleProject, trackX } from './sev-ui';

/** Seconds of a PCM .wav file: its data chunk's size over the format's bytes per second. */
function wavSeconds(path: string): number {
  const b = readFileSync(path);
  let byteRate = 0;
  for (let at = 12; at + 8 <= b.length; at += 8 + b.readUInt32LE(at + 4) + (b.readUInt32LE(at + 4) & 1)) {
    const id = b.toString('ascii', at, at + 4);
    if (id === 'fmt ') byteRate = b.readUInt32LE(at + 16);
    if (id === 'data') return b.readUInt32LE(at + 4) / byteRate;
  }
  throw new Error(`${path}: no data chunk`);
}

test("the event track draws the waveform of each event's sound over the frames it lasts", async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  await page.keyboard.press('Control+2');
  const markers = page.getByTestId('sev-marker');
  const waves = page.getByTestId('sev-waveform');
  // Every event of the sample plays a sound the bundled folder has.
  await expect.poll(() => waves.count()).toBe(await markers.count());
  const wave = page.locator('[data-testid="sev-waveform"][data-index="1"]');
  const fps = 30;
  const seconds = wavSeconds(join(repoRoot, 'assets', 'sounds', 'SE_FOOT_L_CONC.wav'));
  expect(Number(await wave.getAttribute('data-frames'))).toBeCloseTo(seconds * fps, 1);
  // A path through all 512 columns, in the SE's colour.
  const d = (await wave.locator('path').getAttribute('d'))!;
  expect(d.split('L').length).toBe(1024);
  const frame = Number(await page.locator('[data-testid="sev-marker"][data-index="1"]').getAttribute('data-frame'));
  const place = async () => {
    const b = (await wave.boundingBox())!;
    return {
      left: b.x,
      width: b.width,
      from: await trackX(page, frame),
      to: await trackX(page, frame + seconds * fps),
    };
  };
  let p = await place();
  expect(Math.abs(p.left - p.from)).toBeLessThanOrEqual(1);
  expect(Math.abs(p.width - (p.to - p.from))).toBeLessThanOrEqual(1);

  // Zoomed in around the event (Ctrl+wheel over the track): the waveform widens with the frames.
  const track = (await page.getByTestId('sev-track').boundingBox())!;
  await page.mouse.move(p.from, track.y + track.height / 2);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -900);
  await page.keyboard.up('Control');
  await expect.poll(async () => (await place()).width).toBeGreaterThan(p.width * 2);
  p = await place();
  expect(Math.abs(p.left - p.from)).toBeLessThanOrEqual(1);
  expect(Math.abs(p.width - (p.to - p.from))).toBeLessThanOrEqual(1);
  await saveScreenshot('event-waveforms-1280x800');

  // On floor 3 (metal) the step plays SE_FOOT_L_METAL: its own waveform.
  await page.getByTestId('sev-floor-3').click();
  await expect.poll(async () => (await wave.locator('path').getAttribute('d')) !== d).toBe(true);
});
