/**
 * Builds an ipc-codec frame from JSON text and blobs as given, without the
 * encoder's checks: tests and the fuzz harness use it to write frames no
 * honest encoder makes (a tiny sparse array that claims 256 MiB, one blob
 * named by many typed arrays).
 */
import { packIpcFrame } from '../ipc/codec';

/** A frame of this JSON text and these blobs, whatever they say. */
export function rawIpcFrame(jsonText: string, blobs: readonly Uint8Array[] = []): Uint8Array {
  return packIpcFrame(jsonText, blobs);
}

/** The request of the report: two sparse Uint32Arrays of 256 MiB each, from one 8-byte blob, in about 300 bytes. */
export function sparseBombFrame(arrays = 2, claimedBytes = 256 * 1024 * 1024): Uint8Array {
  const tag = (i: number) => `"a${i}":{"\\u0000sp":["Uint32Array",0,${claimedBytes}]}`;
  const pair = new Uint8Array(8); // one (word index 0, word 0) pair
  return rawIpcFrame(`{"documentId":"d1",${Array.from({ length: arrays }, (_, i) => tag(i)).join(',')}}`, [pair]);
}
