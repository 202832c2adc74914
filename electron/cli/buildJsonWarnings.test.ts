/**
 * `actguy build --json`: every warning of the document names the file it came from (docs/cli.md, "--json"). The
 * report's own warnings were given a file only when they began with a motion's name as the report listed it; any
 * other, and every one of an up-to-date build whose report could not be read back, had `file` and `place` null.
 *
 * Mutations, each failing this file: reportWarningProblem's input match removed (the SEV warning becomes the
 * project's, place null); its last fallback back to `file: null`.
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../shared/errors';
import type { ProjectBuildOutcome } from '../build/build';
import { buildJson, reportWarningProblem } from './commands/build';

const sevWarning = new FormatError(
  'SEV',
  'two SE_FOOT_L events 1 frame apart at frame 5 and 6 (SE 0): the sound plays twice',
  { line: 27, column: 1 },
  'walk.sev',
);
const tableWarning = new FormatError(
  'SLS',
  'SE_CLOTH_SWISH is listed again with the same code (first at line 10)',
  { line: 13, column: 1 },
  'default.sls',
);

describe('build --json: each warning with its file and place', () => {
  it("an input's warning as the report words it is that input's, at its place", () => {
    expect(reportWarningProblem('p.actguy.json', [tableWarning, sevWarning], undefined, sevWarning.message)).toEqual({
      file: 'walk.sev',
      place: { line: 27, column: 1 },
      message: sevWarning.message,
    });
  });

  it('a motion warning is its .mtn, at the motion; one no motion names is the project file', () => {
    const report = { motions: [{ name: 'w60', mtn: 'walk_60fps.mtn' }] } as never;
    expect(reportWarningProblem('p.actguy.json', [], report, 'w60: resampled from 60 fps')).toEqual({
      file: 'walk_60fps.mtn',
      place: { motion: 'w60' },
      message: 'w60: resampled from 60 fps',
    });
    expect(reportWarningProblem('p.actguy.json', [], report, 'something the report says')).toEqual({
      file: 'p.actguy.json',
      place: null,
      message: 'something the report says',
    });
  });

  it('an up-to-date build whose report cannot be read back: no warning without a file', () => {
    const outcome = {
      ok: true,
      upToDate: true,
      summary: {
        outputs: { mar: 'out/p.mar', sar: 'out/p.sar', report: join(tmpdir(), 'actguy-no-such-report.json') },
        totals: {},
        warnings: [tableWarning.message, sevWarning.message, 'w60: resampled from 60 fps (frames 0..264) to 30 fps'],
      },
      written: [],
      warnings: [tableWarning, sevWarning],
      notes: [],
      carried: 0,
    } as unknown as ProjectBuildOutcome;
    const doc = buildJson('p.actguy.json', outcome) as { warnings: { file: string | null; place: unknown }[] };
    expect(doc.warnings.map((w) => [w.file, w.place])).toEqual([
      ['default.sls', { line: 13, column: 1 }],
      ['walk.sev', { line: 27, column: 1 }],
      ['p.actguy.json', null],
    ]);
  });
});
