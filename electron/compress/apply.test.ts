import { describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../../shared/compress/request';
import { readMt3Header } from '../../shared/mt3/read';
import { gvStrCode } from '../../shared/strcode';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { runCompressRequest } from './apply';

describe('runCompressRequest and motion names', () => {
  const motion = syntheticMotion({ frames: 12, joints: 2, seed: 3 });

  it('writes the hash of a valid document name (131_01) into an exported .mt3', () => {
    const r = runCompressRequest(
      motion,
      { ...compressRequestForMotion(motion, 'd1', 1), includeBytes: true },
      '131_01',
    );
    expect(readMt3Header(r.bytes!).name).toBe(gvStrCode('131_01'));
  });

  it('previews a document whose name is not a motion name, but refuses to export its bytes', () => {
    const preview = runCompressRequest(motion, compressRequestForMotion(motion, 'd2', 1), '歩');
    expect(preview.totalKeys).toBeGreaterThan(0);
    expect(preview.bytes).toBeUndefined();
    expect(() =>
      runCompressRequest(motion, { ...compressRequestForMotion(motion, 'd2', 2), includeBytes: true }, '歩'),
    ).toThrow(
      /cannot write the \.mt3: motion name "歩" has the non-ASCII character .*; rename the \.mtn to a valid motion name/,
    );
  });
});
