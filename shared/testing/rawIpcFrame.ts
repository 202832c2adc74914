/**
 * Builds an ipc-codec frame from JSON text and blobs as given, without the
 * encoder's checks: tests and the fuzz harness use it to write frames no
 * honest encoder makes (a tiny sparse array that claims 256 MiB, one blob
 * named by many typed arrays).
 */
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };

const pad8 = (n: number): number => (n + 7) & ~7;

export function rawIpcFrame(jsonText: string, blobs: readonly Uint8Array[] = []): Uint8Array {
  const json = new TextEncoder().encode(jsonText);
  const header = 12 + 4 * blobs.length;
  let size = pad8(header + json.byteLength);
  for (const b of blobs) size += pad8(b.byteLength);
  const frame = new Uint8Array(size);
  const dv = new DataView(frame.buffer);
  dv.setUint32(0, 0x31464741, true); // "AGF1"
  dv.setUint32(4, json.byteLength, true);
  dv.setUint32(8, blobs.length, true);
  blobs.forEach((b, i) => dv.setUint32(12 + 4 * i, b.byteLength, true));
  frame.set(json, header);
  let at = pad8(header + json.byteLength);
  for (const b of blobs) {
    frame.set(b, at);
    at += pad8(b.byteLength);
  }
  return frame;
}

/** The request of the report: two sparse Uint32Arrays of 256 MiB each, from one 8-byte blob, in about 300 bytes. */
export function sparseBombFrame(arrays = 2, claimedBytes = 256 * 1024 * 1024): Uint8Array {
  const tag = (i: number) => `"a${i}":{"\\u0000sp":["Uint32Array",0,${claimedBytes}]}`;
  const pair = new Uint8Array(8); // one (word index 0, word 0) pair
  return rawIpcFrame(`{"documentId":"d1",${Array.from({ length: arrays }, (_, i) => tag(i)).join(',')}}`, [pair]);
}
