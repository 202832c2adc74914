/**
 * Fuzz target `build-report`: the report an up-to-date `actguy build --json` reads back from the project's output
 * folder (electron/cli/commands/build.ts buildJson; docs/architecture.md, Electron round 6), as another program may
 * have left it there. Each input is written to a scratch folder as the report of an up-to-date build.
 *
 * Judged: any throw is a crash. The document lists the report's motions only when it read them: then one entry per
 * motion of the report, each unmet tolerance listed with its motion; else `motions` null and no unmet tolerance.
 * Every warning names a file (a string). Nothing is written.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectBuildOutcome } from '../../electron/build/build';
import { buildJson } from '../../electron/cli/commands/build';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import { withScratch } from './scratch';

const TOKENS = ['null', '1e309', '[]', '{}', '"motions"', '"unmetTolerances": 1', '"name": null', '[null]'];
const STRINGS = ['walk', 'walk: resampled', '', '__proto__', 'constructor', '\u202e', 'x'.repeat(5000)];
const WARNINGS = ['walk: resampled from 60 fps', 'cmu: something else', 'a warning of the project'];

function seeds(): Uint8Array[] {
  const motion = (index: number, name: string, unmet: string[]) => ({
    index,
    name,
    hash: '0x00abcd',
    mtn: `${name}.mtn`,
    keys: 10,
    mt3Bytes: 100,
    mtnBytes: 1000,
    ratio: 10,
    maxError: { translation: 0.1, rotationDeg: 0.1, offset: 0 },
    tolerances: { position: 0.5, rotationDeg: 0.5, offset: 0.5 },
    rotationOverridesDeg: {},
    unmetTolerances: unmet,
    events: 2,
  });
  return [
    { tool: 'actguy build', motions: [motion(0, 'walk', []), motion(1, 'cmu', ['position of joint 3'])] },
    { motions: [] },
  ].map((r) => new TextEncoder().encode(`${JSON.stringify(r, null, 2)}\n`));
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

function runIn(dir: string, input: Uint8Array): Outcome {
  const report = join(dir, 'stage.report.json');
  writeFileSync(report, input);
  const outcome = {
    ok: true,
    upToDate: true,
    summary: {
      outputs: { mar: join(dir, 'stage.mar'), sar: join(dir, 'stage.sar'), report },
      totals: {},
      warnings: WARNINGS,
    },
    written: [],
    warnings: [],
    notes: [],
    carried: 0,
  } as unknown as ProjectBuildOutcome;
  let doc: Record<string, unknown>;
  try {
    doc = buildJson(join(dir, 'p.actguy.json'), outcome);
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  const warnings = doc.warnings as { file: unknown }[];
  must(warnings.length === WARNINGS.length, `${warnings.length} warnings for ${WARNINGS.length}`);
  must(
    warnings.every((w) => typeof w.file === 'string'),
    'a warning without a file',
  );
  const unmet = doc.unmetTolerances as unknown[];
  if (doc.motions === null) {
    must(unmet.length === 0, 'unmet tolerances of a report not read');
    return 'rejected';
  }
  const read = JSON.parse(new TextDecoder().decode(input)) as { motions: { unmetTolerances: unknown[] }[] };
  must(Array.isArray(doc.motions) && (doc.motions as unknown[]).length === read.motions.length, 'motions lost');
  must(unmet.length === read.motions.reduce((n, m) => n + m.unmetTolerances.length, 0), 'unmet tolerances lost');
  return 'accepted';
}

export const buildReportTarget: FuzzTarget = {
  name: 'build-report',
  ext: 'json',
  seeds,
  mutate,
  run: (input) => withScratch('build-report', ({ state }) => runIn(state, input)),
};
