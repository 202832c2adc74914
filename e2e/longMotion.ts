/**
 * Motions that take the app a while: a test that cancels running work, or must see it under way, needs work that
 * cannot end before its click on a fast machine (the sample's captures compress in a fraction of a second, and the
 * build cache makes a second build of them instant; docs/testing.md, "Tests under load", round 7).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { makeMotion } from '../shared/motion/types';

/** The .mtn at `file` replaced by its frames `times` over, in a row: the same skeleton, `times` as many frames. */
export function lengthenMtn(file: string, times: number): void {
  const b = readFileSync(file);
  const m = readMtn(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
  const tile = <T extends Float32Array | Uint32Array>(a: T, make: (length: number) => T): T => {
    const out = make(a.length * times);
    for (let r = 0; r < times; r++) out.set(a, r * a.length);
    return out;
  };
  const floats = (a: Float32Array) => tile(a, (l) => new Float32Array(l));
  const words = (a: Uint32Array) => tile(a, (l) => new Uint32Array(l));
  const long = makeMotion({
    ...m,
    frameCount: (m.frameCount + 1) * times - 1,
    translation: floats(m.translation),
    rotation: floats(m.rotation),
    offset: floats(m.offset),
    translationKeyInfo: words(m.translationKeyInfo),
    jointKeyInfo: words(m.jointKeyInfo),
  });
  writeFileSync(file, writeMtn(long));
}
