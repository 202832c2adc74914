/**
 * `actguy import`'s single import in a worker thread (importOffThread.ts, dist/cli/importWorker.cjs): the same motion
 * as on the CLI's own thread, the same errors made again as their classes with their messages, the source's bytes
 * handed over, and `stop` ending the thread with an answer rather than a promise left waiting.
 *
 * Mutations, each failing this file: errorFromWire always a plain Error (the FormatError is lost; the clips, the
 * message and the other kinds are wireError.test.ts's); the transfer list dropped (the bytes stay);
 * stop() no longer aborting (the result never settles: the test times out).
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../shared/errors';
import { spineBvh } from '../../shared/testing/bvhFixtures';
import { importOffThread, importSource, type SourceImport } from './importOffThread';
import { errorFromWire } from '../wireError';

const worker = join(__dirname, '..', '..', 'dist', 'cli', 'importWorker.cjs');
const options = { fps: 30, scale: 1, offsets: false };
const request = (text: string, input = 'take.bvh'): SourceImport => ({
  bytes: new Uint8Array(Buffer.from(text)).slice(),
  input,
  options,
});
const take = spineBvh(Array.from({ length: 90 }, (_, f) => `${f % 7} 90 0 ${f % 360} 0 0 ${(f * 2) % 360} 0 0`));
const broken =
  'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3\n1 2 3 4\n';

describe('one import in a worker thread', () => {
  it('gives the motion the CLI thread makes, byte for byte, and hands the source over', async () => {
    const here = await importSource(request(take));
    const req = request(take);
    const off = importOffThread(req, worker)!;
    expect(off).toBeDefined();
    // Handed over, not copied: the command's copy is gone.
    expect(req.bytes.byteLength).toBe(0);
    const there = await off.result;
    expect(there.ok && here.ok).toBe(true);
    if (!('imported' in there) || !here.ok) return;
    expect(Buffer.from(there.imported.mtn).equals(Buffer.from(here.imported.mtn))).toBe(true);
    expect({ ...there.imported, mtn: null }).toEqual({ ...here.imported, mtn: null });
  });

  it('a bad file is the FormatError the CLI thread throws, file and place in its message', async () => {
    const reply = await importOffThread(request(broken, '/in/broken.bvh'), worker)!.result;
    expect(reply.ok).toBe(false);
    if (!('error' in reply)) return;
    const e = errorFromWire(reply.error);
    expect(e).toBeInstanceOf(FormatError);
    expect(e.message).toBe('/in/broken.bvh:11:7: frame 1 has more values than the 3 channels the hierarchy declares');
    const here = await importSource(request(broken, '/in/broken.bvh'));
    expect(!here.ok && errorFromWire(here.error).message).toBe(e.message);
  });

  it('stop ends the thread and the result says so', async () => {
    const off = importOffThread(request(take), worker)!;
    off.stop();
    expect(await off.result).toEqual({ ok: false, stopped: true });
  });

  it('no worker bundle: undefined, for the caller to import on its own thread', () => {
    expect(importOffThread(request(take), join(__dirname, 'no-such-worker.cjs'))).toBeUndefined();
  });
});
