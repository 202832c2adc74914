/**
 * The setup the budget build tests share (build/budgetBuild.test.ts, build/seamsBudget.test.ts,
 * build/adversarialBuild.test.ts): a project written beside its motions with its outputs in a folder of its own and
 * a budget when one is given, its build in this process, and its motions compressed within the budget as the build
 * does before it writes (docs/formats.md#budget).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProject } from '../build/build';
import { compressWithinBudget } from '../build/budgetBuild';
import { inProcessCompressor, type MotionCompressor } from '../build/compressPool';
import { prepareBuild, type BuildReport } from '../../shared/project/plan';
import { parseProject } from '../../shared/project/validate';
import { builtOk } from './buildOutcome';

/**
 * `file` in `dir`: `project`'s keys (motions, aliases, fps), the outputs `<file>.out/stage.mar` and `.sar`, and
 * `budget.marBytes` when `budget` is given. Answers its path.
 */
export function writeBudgetProject(dir: string, file: string, project: object, budget?: number): string {
  writeFileSync(
    join(dir, file),
    JSON.stringify({
      version: 1,
      ...project,
      outputs: { mar: `${file}.out/stage.mar`, sar: `${file}.out/stage.sar` },
      ...(budget ? { budget: { marBytes: budget } } : {}),
    }),
  );
  return join(dir, file);
}

/** A build of `file` by `compressor` (closed after): its report and its files' bytes, the .mar, .sar and report. */
export async function buildFiles(
  file: string,
  compressor: MotionCompressor,
  cacheDir: string | null = null,
): Promise<{ report: BuildReport; mar: Buffer; files: Buffer[] }> {
  try {
    const report = builtOk(await buildProject(file, { compressor, cacheDir })).report!;
    const files = [report.outputs.mar.path, report.outputs.sar.path, report.outputs.report].map((p) => readFileSync(p));
    return { report, mar: files[0], files };
  } finally {
    await compressor.close();
  }
}

/** The motions of project `file` compressed within its budget in this thread, as a build does before it writes. */
export async function compressedWithinBudget(file: string) {
  const parsed = parseProject(readFileSync(file, 'utf8'), file);
  const prep = prepareBuild(parsed.resolved!, (p) => new Uint8Array(readFileSync(p)));
  if (!prep.ok) throw new Error(prep.errors.join('\n'));
  const done = await compressWithinBudget(prep.prepared, {
    compressor: inProcessCompressor(),
    inputBytes: (p) => new Uint8Array(readFileSync(p)),
  });
  if (!done.ok) throw new Error(done.errors.join('\n'));
  return done;
}
