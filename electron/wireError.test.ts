/**
 * The one shape an error crosses a thread in (wireError.ts), each kind through structured clone as a worker's answer
 * goes: made again as its class with its fields and its message as thrown; and each of the three answers that carry
 * one (the pool's compressions, File › Open's load, `actguy import`) sends it so.
 *
 * Mutations, each failing this file: errorFromWire making a plain Error of every kind (the classes lost); the message
 * not carried (a ClipChoiceError's composed without its file); the code dropped; RangeError made as Error; the file
 * of a FormatError dropped (as the pool's own shape did); errorToWire throwing on a thrown value that is not an
 * Error (null); answerPoolRequest or answerMotionLoad answering in a shape of their own again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../shared/errors';
import { ClipChoiceError } from '../shared/interchange/clips';
import { answerPoolRequest } from './build/compressPool';
import { answerMotionLoad, outcomeOf } from './motionLoad';
import { importSource } from './cli/importOffThread';
import { errorFromWire, errorToWire } from './wireError';

/** `e` as a worker's answer carries it to the thread that reads it. */
const across = (e: unknown): Error => errorFromWire(structuredClone(errorToWire(e)));

describe('an error crossing a thread', () => {
  it('a FormatError keeps its class, kind, place, file and message', () => {
    const e = new FormatError('MTN', 'frame 3 is cut short', { offset: 96, where: 'rotation frame 3' }, '/in/a.mtn');
    const back = across(e) as FormatError;
    expect(back).toBeInstanceOf(FormatError);
    expect({ kind: back.kind, place: back.place, file: back.file, detail: back.detail, message: back.message }).toEqual(
      {
        kind: 'MTN',
        place: { offset: 96, where: 'rotation frame 3' },
        file: '/in/a.mtn',
        detail: 'frame 3 is cut short',
        message: e.message,
      },
    );
    const bare = across(new FormatError('MT3', 'no keys', { where: 'joint 2' }));
    expect([bare instanceof FormatError, (bare as FormatError).file, bare.message]).toEqual([
      true,
      undefined,
      'MT3 (joint 2): no keys',
    ]);
  });

  it('a clip choice keeps its clips and its file, its message naming the file', () => {
    const clips = [
      { index: 0, name: 'Walk', duration: 1.2 },
      { index: 1, name: 'Run', duration: 0.8 },
    ];
    const choice = new ClipChoiceError(clips, '2 clips', 'GLTF', 'animations').withFile('/in/hero.glb');
    const back = across(choice) as ClipChoiceError;
    expect(back).toBeInstanceOf(ClipChoiceError);
    expect({ message: back.message, clips: back.clips, file: back.file, kind: back.kind }).toEqual({
      message: choice.message,
      clips,
      file: '/in/hero.glb',
      kind: 'GLTF',
    });
    expect(back.message).toContain('/in/hero.glb');
  });

  it('any other error keeps its message and code; a RangeError stays one; a thrown non-Error becomes its text', () => {
    const io = across(Object.assign(new Error('cannot read x'), { code: 'EACCES' }));
    expect([io.constructor, io.message, (io as NodeJS.ErrnoException).code]).toEqual([
      Error,
      'cannot read x',
      'EACCES',
    ]);
    const big = across(new RangeError('Array buffer allocation failed'));
    expect([big instanceof RangeError, big.message]).toEqual([true, 'Array buffer allocation failed']);
    const type = across(new TypeError('x is not a function'));
    expect([type.constructor, type.message]).toEqual([Error, 'x is not a function']);
    expect(across('a string').message).toBe('a string');
    expect(across(null).message).toBe('null');
    expect(across(undefined).message).toBe('undefined');
    expect('code' in across(new Error('plain'))).toBe(false);
  });
});

describe('the answers that carry one', () => {
  it("the pool's compression answers a bad motion with the FormatError on the wire", () => {
    const reply = answerPoolRequest({ id: 3, mtn: new Uint8Array(8), options: { positionTolerance: 1 } as never });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.type).toBe('format');
    const e = errorFromWire(structuredClone(reply.error));
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).kind).toBe('MTN');
  });

  it("File › Open's load answers a bad file with the FormatError on the wire, its file named", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-wire-'));
    try {
      const bad = join(dir, 'bad.mtn');
      writeFileSync(bad, new Uint8Array(8));
      const reply = await answerMotionLoad({ path: bad, readableBeside: null });
      expect(reply.ok).toBe(false);
      if (reply.ok) return;
      expect(reply.error.type).toBe('format');
      const thrown = (() => {
        try {
          outcomeOf(structuredClone(reply));
        } catch (e) {
          return e;
        }
      })() as FormatError;
      expect(thrown).toBeInstanceOf(FormatError);
      expect([thrown.kind, thrown.file]).toEqual(['MTN', bad]);
      // A load's own words (not a motion file) cross as they are.
      const other = await answerMotionLoad({ path: join(dir, 'x.txt'), readableBeside: null });
      expect(!other.ok && other.error).toEqual({
        type: 'other',
        name: 'Error',
        message: `${join(dir, 'x.txt')}: not a motion file (expected .mtn, .mt3 or .mar)`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`actguy import` answers a bad file with the FormatError on the wire', async () => {
    const reply = await importSource({
      bytes: new Uint8Array(Buffer.from('HIERARCHY\nROOT Hips\n{\n')),
      input: '/in/cut.bvh',
      options: { fps: 30, scale: 1, offsets: false },
    });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.type).toBe('format');
    expect(errorFromWire(structuredClone(reply.error))).toBeInstanceOf(FormatError);
  });
});
