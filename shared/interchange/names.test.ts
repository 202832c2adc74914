/**
 * Names an imported file gives (joints, clips, a motion name derived from the
 * file name) reach messages and warnings printed to a terminal: every control
 * character in them is escaped, DEL and the C1 controls (U+009B is a
 * terminal's CSI) as well as C0 (docs/security.md).
 */
import { describe, expect, it } from 'vitest';
import { motionNameProblem } from '../motionName';
import { chooseClip, clipListing } from './clips';
import { sanitizeJointNames } from './names';
import type { InterchangeWarning } from './types';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('names from an imported file in messages', () => {
  it('a joint name with DEL or a C1 control is quoted escaped in the importer warning', () => {
    const warnings: InterchangeWarning[] = [];
    sanitizeJointNames(['Hips\u009b2J', 'Spine\u007f', 'Spine\u007f'], warnings);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0].message).toContain('"Hips\\u009b2J"');
    for (const w of warnings) expect(w.message).not.toMatch(CONTROL);
  });

  it('a clip name with a C1 control is quoted escaped in the clip listing and the no-such-clip message', () => {
    const clips = [
      { index: 0, name: 'Walk\u009b2J', duration: 1 },
      { index: 1, name: 'Run\u0085', duration: 2 },
    ];
    expect(clipListing(clips)).toBe('0 "Walk\\u009b2J" (1.00 s), 1 "Run\\u0085" (2.00 s)');
    let message = '';
    try {
      chooseClip(clips, 'Jump\u009b', 'GLTF', 'animations');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('no animation clip "Jump\\u009b"');
    expect(message).not.toMatch(CONTROL);
  });

  it('a motion name (a file name) with a C1 control is quoted escaped', () => {
    const problem = motionNameProblem('walk\u009b')!;
    expect(problem).toContain('"walk\\u009b"');
    expect(problem).toContain('the non-ASCII character "\\u009b" (U+009B)');
    expect(problem).not.toMatch(CONTROL);
  });
});
