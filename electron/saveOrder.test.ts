/**
 * Two saves of one file at once land in the order they were asked for (docs/security.md, round 35). The app's saves
 * write and flush in Node's thread pool (fsutil.ts writeFileAtomicAsync, build/commit.ts commitOutputsAsync), and the
 * page lets the user edit and save again while a save is written. The first save, ending last (a larger file, a slow
 * flush), renamed the older text over the newer: the page had marked the newer one saved and its copy of unsaved work
 * was removed, so the edits were gone without a word. With its tuning file, the second save was refused by the
 * first's commit lock as "another ActGuy run". The first write here is held at its open (asyncWriteIo) while the
 * second is asked for, then let go: never by timing.
 */
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMtn } from '../shared/mtn/read';
import { defaultTuning, serializeTuning, tuningPathOf } from '../shared/tuning/sidecar';
import type { ApiHandlers } from './handlers';
import { asyncWriteIo, writeFileAtomicAsync } from './fsutil';
import { writesInFlight } from './writeTurns';
import { ASSETS, openedMotion, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { holdFirstAsyncOpen } from './testing/holdAsyncOpen';
import { inProcessTextChecker } from './project/textCheckJob';
import { inProcessMotionChecker } from './motionCheckJob';

const compress = useCompressClientPerTest();
const realAsyncIo = { ...asyncWriteIo };

let ws: string;
let handlers: ApiHandlers;
/** How many checks (of a motion or a text) a save has had answered so far. */
let checked = 0;
let onChecked = (): void => undefined;

beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'actguy-save-order-'));
  cpSync(ASSETS, ws, { recursive: true });
  handlers = testHandlers({
    app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
    compress: compress(),
    checkMotion: async (req) => {
      const r = await inProcessMotionChecker(req);
      checked++;
      onChecked();
      return r;
    },
    checkText: async (req) => {
      const r = await inProcessTextChecker(req);
      checked++;
      onChecked();
      return r;
    },
  });
  checked = 0;
});
afterEach(() => {
  Object.assign(asyncWriteIo, realAsyncIo);
  rmSync(ws, { recursive: true, force: true });
});

/**
 * Waits until the second save's check is answered and the save has gone on to its write; then, if that write could
 * start while the first is held (it could before this round), lets it run to its end first, as a write of a smaller
 * file overtakes a larger one's flush.
 */
async function secondGoesOn(hold: { opens: string[] }, second: Promise<unknown>): Promise<void> {
  if (checked < 2) await new Promise<void>((r) => (onChecked = () => checked >= 2 && r()));
  for (let k = 0; k < 5; k++) await new Promise<void>((r) => setImmediate(r));
  if (hold.opens.length > 1) await second.catch(() => undefined);
}

const temps = (): string[] => readdirSync(ws).filter((n) => n.endsWith('.tmp'));

describe('two saves of one file at once', () => {
  // Mutations that fail: writeFileAtomicAsync without inTurn (the motion, the .sev and the mixed case end with the
  // first save's bytes); commitOutputsAsync without inTurn (the second save with its tuning is refused by the first's
  // lock, and the mixed case ends with the first's bytes).
  const cases: [string, boolean, boolean][] = [
    ['the motion alone, twice', false, false],
    ['the motion with its tuning file, twice', true, true],
    ['with its tuning file, then alone', true, false],
    ['alone, then with its tuning file', false, true],
  ];
  for (const [what, firstTuning, secondTuning] of cases)
    it(`${what}: the later save's bytes are on disk, and both say saved`, async () => {
      const path = join(ws, 'walk.mtn');
      const { documentId, mtnBytes: older } = await openedMotion(handlers, path);
      const newer = new Uint8Array(readFileSync(join(ws, 'walk_60fps.mtn')));
      const tuningText = serializeTuning(defaultTuning(), readMtn(older).joints);
      const tuningOf = (on: boolean) => (on ? { tuningText } : {});
      const hold = holdFirstAsyncOpen();
      const first = handlers.saveMotion({ documentId, path, mtnBytes: older, ...tuningOf(firstTuning) });
      await hold.reached;
      const second = handlers.saveMotion({ documentId, path, mtnBytes: newer, ...tuningOf(secondTuning) });
      await secondGoesOn(hold, second);
      hold.release();
      const outcomes = await Promise.allSettled([first, second]);
      expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.status : String(o.reason)))).toEqual([
        'saved',
        'saved',
      ]);
      expect(Buffer.from(readFileSync(path)).equals(Buffer.from(newer)), 'the newer save is on disk').toBe(true);
      if (firstTuning || secondTuning) expect(readFileSync(tuningPathOf(path), 'utf8')).toBe(tuningText);
      expect(writesInFlight.size).toBe(0);
      expect(temps()).toEqual([]);
    });

  it('a .sev saved twice: the later text is on disk', async () => {
    const path = join(ws, 'walk.sev');
    const text = readFileSync(path, 'utf8');
    const hold = holdFirstAsyncOpen();
    const first = handlers.saveSev({ path, text: `${text}# first\n` });
    await hold.reached;
    const second = handlers.saveSev({ path, text: `${text}# second\n` });
    await secondGoesOn(hold, second);
    hold.release();
    await Promise.all([first, second]);
    expect(readFileSync(path, 'utf8')).toBe(`${text}# second\n`);
    expect(temps()).toEqual([]);
  });

  it('a .sev saved by two spellings through a linked folder: the later text is on disk (round 37)', async () => {
    // `alias` leads to the workspace itself: alias/walk.sev is walk.sev. Writes were put in turn by the path as
    // spelled, so the second save, by the other spelling, ran beside the first and the first landed last.
    symlinkSync(ws, join(ws, 'alias'));
    const path = join(ws, 'walk.sev');
    const text = readFileSync(path, 'utf8');
    const hold = holdFirstAsyncOpen();
    const first = handlers.saveSev({ path, text: `${text}# first\n` });
    await hold.reached;
    const second = handlers.saveSev({ path: join(ws, 'alias', 'walk.sev'), text: `${text}# second\n` });
    await secondGoesOn(hold, second);
    hold.release();
    await Promise.all([first, second]);
    expect(readFileSync(path, 'utf8')).toBe(`${text}# second\n`);
    expect(lstatSync(join(ws, 'alias')).isSymbolicLink()).toBe(true);
    expect(temps()).toEqual([]);
  });

  it('writes of one file by two spellings through a linked folder go in turn, whoever calls (round 37)', async () => {
    symlinkSync(ws, join(ws, 'alias'));
    const hold = holdFirstAsyncOpen();
    const first = writeFileAtomicAsync(join(ws, 'notes.txt'), 'first');
    await hold.reached;
    const second = writeFileAtomicAsync(join(ws, 'alias', 'notes.txt'), 'second');
    for (let k = 0; k < 5; k++) await new Promise<void>((r) => setImmediate(r));
    if (hold.opens.length > 1) await second;
    hold.release();
    await Promise.all([first, second]);
    expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('second');
    expect(temps()).toEqual([]);
  });

  it('a first save that fails lets the second go, and the second lands', async () => {
    const path = join(ws, 'walk.sev');
    const text = readFileSync(path, 'utf8');
    let opens = 0;
    asyncWriteIo.open = async (p, flags, mode) => {
      if (++opens === 1) throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' });
      return realAsyncIo.open(p, flags, mode);
    };
    const first = handlers.saveSev({ path, text: `${text}# first\n` });
    const second = handlers.saveSev({ path, text: `${text}# second\n` });
    await expect(first).rejects.toThrow(/no space left/);
    await second;
    expect(readFileSync(path, 'utf8')).toBe(`${text}# second\n`);
  });
});
