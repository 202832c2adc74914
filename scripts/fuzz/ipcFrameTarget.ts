/**
 * Fuzz target `ipc-frame`: the loopback transport's frame decoder
 * (shared/ipc/codec.ts) as the loopback server meets it, with a decoded-size
 * bound. An input is rejected when the decoder throws its own error (a
 * message starting `ipc codec:`); anything else thrown is a crash; an
 * accepted frame must have kept to the bound and must decode again to the
 * same value after encoding (the decoder returns plain data the encoder takes).
 */
import { decodeIpcFrameSized, encodeIpcFrame } from '../../shared/ipc/codec';
import { rawIpcFrame, sparseBombFrame } from '../../shared/testing/rawIpcFrame';
import { choose, mutateBinary, mutateJson, pick, type Rng } from './mutate';
import { describeThrown, FuzzDefect, type FuzzTarget } from './judge';

/** The bound the fuzzer decodes under: small, so an input that ignores it shows up as an accepted value over it. */
const MAX_DECODED = 1 << 20;

/** Tags and sizes a hostile frame would try in its JSON. */
const HOSTILE_STRINGS = [
  '\u0000ta',
  '\u0000sp',
  '\u0000n',
  'Uint32Array',
  'Float64Array',
  'Uint8Array',
  'constructor',
  '__proto__',
  'NaN',
  '-Infinity',
  'length',
];

function seeds(): Uint8Array[] {
  const flags = new Uint32Array(512);
  flags[3] = 0x80000001;
  flags[400] = 7;
  return [
    encodeIpcFrame({
      documentId: 'd1',
      revision: 3,
      tolerances: { rotationDeg: 0.5, translation: NaN },
      flags,
      errors: new Float64Array([0, -0, 1.5, Infinity]),
    }),
    encodeIpcFrame([
      new Uint8Array([1, 2, 3]),
      new Int16Array([-1, 2]),
      { path: '/ws/walk.mtn', text: 'sev 1\n' },
      null,
      true,
    ]),
    encodeIpcFrame(undefined),
    sparseBombFrame(1, 4096),
  ];
}

/** The JSON text and blobs of a well-formed frame (null when the header does not hold). */
function split(frame: Uint8Array): { json: string; blobs: Uint8Array[] } | null {
  if (frame.byteLength < 12) return null;
  const dv = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const jsonLength = dv.getUint32(4, true);
  const count = dv.getUint32(8, true);
  const header = 12 + 4 * count;
  if (header + jsonLength > frame.byteLength) return null;
  const blobs: Uint8Array[] = [];
  let at = (header + jsonLength + 7) & ~7;
  for (let i = 0; i < count; i++) {
    const len = dv.getUint32(12 + 4 * i, true);
    if (at + len > frame.byteLength) return null;
    blobs.push(frame.slice(at, at + len));
    at += (len + 7) & ~7;
  }
  return { json: Buffer.from(frame.subarray(header, header + jsonLength)).toString('utf8'), blobs };
}

/** Either raw byte damage, or a structural change of the JSON (a tag's type, index or claimed size) in an intact frame. */
function mutate(rnd: Rng, seed: Uint8Array): Uint8Array {
  const parts = split(seed);
  if (!parts || rnd() < 0.3) {
    let b = seed;
    for (let k = 1 + pick(rnd, 3); k > 0; k--) b = mutateBinary(rnd, b, 1 << 16);
    return b;
  }
  // One edit per input: an edit may nest the text deeper than JSON.stringify here can walk again.
  const blobs = rnd() < 0.2 ? [...parts.blobs, new Uint8Array(8 * pick(rnd, 4))] : parts.blobs;
  return rawIpcFrame(mutateJsonOrClaim(rnd, JSON.parse(parts.json)), blobs);
}

/** mutateJson, or a sparse tag claiming a size around the bound (the decoded-size attack). */
function mutateJsonOrClaim(rnd: Rng, value: unknown): string {
  if (rnd() < 0.25) {
    const claim = choose(rnd, [MAX_DECODED - 8, MAX_DECODED, MAX_DECODED + 8, 256 * 1024 * 1024, 2 ** 32, 4096]);
    const copies = 1 + pick(rnd, 4);
    return JSON.stringify({
      value,
      claims: Array.from({ length: copies }, () => ({ '\u0000sp': ['Uint32Array', 0, claim] })),
    });
  }
  return mutateJson(rnd, value, HOSTILE_STRINGS);
}

function run(input: Uint8Array): 'accepted' | 'rejected' {
  let decoded: { value: unknown; decodedBytes: number };
  try {
    decoded = decodeIpcFrameSized(input, { maxDecodedBytes: MAX_DECODED });
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('ipc codec:')) return 'rejected';
    throw new FuzzDefect('crash', describeThrown(e));
  }
  if (decoded.decodedBytes > MAX_DECODED)
    throw new FuzzDefect(
      'invalid',
      `accepted a frame that decodes to ${decoded.decodedBytes} bytes, over the ${MAX_DECODED}-byte bound`,
    );
  let again: Uint8Array;
  try {
    again = encodeIpcFrame(decoded.value);
    const twice = encodeIpcFrame(decodeIpcFrameSized(again, { maxDecodedBytes: Infinity }).value);
    if (Buffer.compare(Buffer.from(again), Buffer.from(twice)) !== 0)
      throw new Error('a decoded value does not encode to the same frame twice');
  } catch (e) {
    throw new FuzzDefect('invalid', `accepted, then: ${describeThrown(e)}`);
  }
  return 'accepted';
}

export const ipcFrameTarget: FuzzTarget = { name: 'ipc-frame', ext: 'bin', seeds, mutate, run };
