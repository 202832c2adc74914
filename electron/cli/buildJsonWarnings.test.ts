/**
 * `actguy build --json`: every warning of the document names the file it came from (docs/cli.md, "--json"). The
 * report's own warnings were given a file only when they began with a motion's name as the report listed it; any
 * other, and every one of an up-to-date build whose report could not be read back, had `file` and `place` null.
 *
 * Mutations, each failing this file: reportWarningProblem's input match removed (the SEV warning becomes the
 * project's, place null); its last fallback back to `file: null`; readBackReport's shape check removed (a report of
 * another shape threw a TypeError out of `actguy build --json`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('an up-to-date build whose report on disk has another shape: read as one that cannot be read back, no throw', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-report-shape-'));
    try {
      const report = join(dir, 'p.report.json');
      const outcome = {
        ok: true,
        upToDate: true,
        summary: { outputs: { mar: 'out/p.mar', sar: 'out/p.sar', report }, totals: {}, warnings: ['w60: resampled'] },
        written: [],
        warnings: [],
        notes: [],
        carried: 0,
      } as unknown as ProjectBuildOutcome;
      for (const text of [
        'null',
        '[]',
        '{}',
        '{"motions": 5}',
        '{"motions": [null]}',
        '{"motions": [7]}',
        '{"motions": [{"name": "w60", "mtn": "w.mtn"}]}',
        '{"motions": [{"name": "w60", "mtn": "w.mtn", "unmetTolerances": "x"}]}',
        '{"motions": [{"name": 60, "mtn": "w.mtn", "unmetTolerances": []}]}',
        '{"motions": [{"name": "w60", "mtn": "w.mtn", "unmetTolerances": [1]}]}',
      ]) {
        writeFileSync(report, text);
        const doc = buildJson('p.actguy.json', outcome) as Record<string, unknown>;
        expect({ text, motions: doc.motions, unmet: doc.unmetTolerances, warnings: doc.warnings }).toEqual({
          text,
          motions: null,
          unmet: [],
          warnings: [{ file: 'p.actguy.json', place: null, message: 'w60: resampled' }],
        });
      }
      // The shape the build writes is read back (the fields --json copies).
      writeFileSync(
        report,
        JSON.stringify({ motions: [{ index: 0, name: 'w60', mtn: 'w.mtn', unmetTolerances: ['position'] }] }),
      );
      const doc = buildJson('p.actguy.json', outcome) as Record<string, unknown>;
      expect(doc.unmetTolerances).toEqual([{ motion: 'w60', mtn: 'w.mtn', message: 'position' }]);
      expect(doc.warnings).toEqual([{ file: 'w.mtn', place: { motion: 'w60' }, message: 'w60: resampled' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
