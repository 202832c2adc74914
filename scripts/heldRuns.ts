/**
 * Round 19 (docs/compression.md#round-19-2026-12-07-held-runs-measured-on-the-held-out-clips-and-the-rebuild-sweeps):
 * what keying held runs minimally could gain on the held-out captures (`npm run held-runs`; not part of the test
 * suite). Each clip that imports (as `npm run cli-sweep`: runImportJob, every clip) at each rate, compressed at each
 * level of the sweep (electron/testing/cliSweep.ts, levelsOf / optionsOf) in each mode, and per channel:
 *
 * - a held run: a run of at least 3 frames whose source holds the first one's values exactly (a channel held on
 *   every frame is a constant channel, counted apart);
 * - the keys strictly inside held runs, against the fewest any keying needs there (one a 255 frames, the stream's
 *   8-bit frame delta: ceil(length / 255) - 1), and those of them over their channel's tolerance (a hold whose own
 *   rounding is over it: every frame of it a key, keyed or not, round 18's skeleton-aware case);
 * - a constant channel's keys over the fewest segments of 255 frames (round 11's end segments could save at most
 *   those).
 *
 *   npm run held-runs [-- --fps 30,120] [--levels 0.005,floor] [--only SUBSTRING]
 */
import { relative } from 'node:path';
import { compressMotion } from '../shared/compress/compress';
import { offsetSource, rotationSource, translationSource } from '../shared/compress/sources';
import { MotionFlag, type Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { runImportJob } from '../electron/interchange/importJob';
import { levelsOf, MODES, optionsOf } from '../electron/testing/cliSweep';
import { heldOutFiles } from './heldoutFiles';

const HELD_OUT = '/usr/share/assimp/models';
const MAX_GAP = 255;

/** Every clip of a held-out file at `fps` that imports, as read back from its .mtn bytes. */
async function importAll(path: string, fps: number, clip?: number): Promise<Motion[]> {
  const res = await runImportJob({ path, fps, scale: 1, clip });
  if (res.status === 'chooseClip') {
    const out: Motion[] = [];
    for (const c of res.clips) out.push(...(await importAll(path, fps, c.index)));
    return out;
  }
  return res.status === 'imported' ? [readMtn(res.mtnBytes)] : [];
}

/** The maximal runs [a, b] (b - a >= 2) of frames that hold frame a's `width` values exactly. */
function heldRuns(source: Float64Array, width: number, frames: number): [number, number][] {
  const out: [number, number][] = [];
  let a = 0;
  for (let f = 1; f <= frames; f++) {
    let same = f < frames;
    for (let c = 0; same && c < width; c++) same = source[f * width + c] === source[a * width + c];
    if (same) continue;
    if (f - 1 - a >= 2) out.push([a, f - 1]);
    a = f;
  }
  return out;
}

function channelSource(m: Motion, kind: string, joint: number): [Float64Array, number] {
  if (kind === 'translation') return [translationSource(m), 3];
  return kind === 'offset' ? [offsetSource(m, joint), 3] : [rotationSource(m, joint), 4];
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const rates = arg('--fps', '30,120').split(',').map(Number);
  const labels = arg('--levels', '0.005,floor').split(',');
  const only = arg('--only', '');
  for (const fps of rates)
    for (const file of heldOutFiles(HELD_OUT)) {
      if (only && !file.includes(only)) continue;
      let clips: Motion[];
      try {
        clips = await importAll(file, fps);
      } catch (e) {
        console.log(`skip ${relative(HELD_OUT, file)} @${fps}: the import threw ${(e as Error).message}`);
        continue;
      }
      for (const [ci, m] of clips.entries()) {
        const S = m.frameCount + 1;
        const channels: [string, number][] = [['translation', -1]];
        for (let j = 0; j < m.joints.length; j++) channels.push(['rotation', j]);
        if (m.flags & MotionFlag.OFFSETS) for (let j = 0; j < m.joints.length; j++) channels.push(['offset', j]);
        const runs = new Map<string, [number, number][]>();
        const constant = new Set<string>();
        let heldFrames = 0;
        for (const [kind, joint] of channels) {
          const [source, width] = channelSource(m, kind, joint);
          const held = heldRuns(source, width, S);
          if (held.length === 1 && held[0][0] === 0 && held[0][1] === S - 1) constant.add(`${kind}${joint}`);
          else runs.set(`${kind}${joint}`, held);
          for (const [a, b] of held) if (!constant.has(`${kind}${joint}`)) heldFrames += b - a - 1;
        }
        const fewestConstant = Math.ceil((S - 1) / MAX_GAP) + 1;
        for (const level of levelsOf(m, labels))
          for (const mode of MODES) {
            const r = compressMotion(m, optionsOf('held', level, mode));
            let inside = 0;
            let fewest = 0;
            let over = 0;
            let constantExtra = 0;
            for (const ch of r.channels) {
              const id = `${ch.kind}${ch.joint}`;
              if (constant.has(id)) constantExtra += ch.keyFrames.length - fewestConstant;
              const keys = new Set(ch.keyFrames);
              for (const [a, b] of runs.get(id) ?? []) {
                fewest += Math.ceil((b - a) / MAX_GAP) - 1;
                for (let f = a + 1; f < b; f++)
                  if (keys.has(f)) {
                    inside++;
                    if (ch.errors[f] > ch.tolerance) over++;
                  }
              }
            }
            console.log(
              `${relative(HELD_OUT, file)}#${ci} @${fps} (${S} frames, ${m.joints.length} joints, ${heldFrames} ` +
                `frames inside held runs, ${constant.size} constant channels) ${level.label} ${mode}: ${r.totalKeys} ` +
                `keys, ${inside} inside held runs (the fewest ${fewest}, ${over} over their tolerance), constant ` +
                `channels ${constantExtra} over the fewest`,
            );
          }
      }
    }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 2;
});
