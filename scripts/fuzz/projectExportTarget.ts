/**
 * Fuzz target `project-export` (added 2026-12-05): the plan of File › Export All and `actguy export-msh|export-gltf
 * --project` made from a project text (electron/build/projectExportParse.ts planProjectExport), and what its commit
 * would refuse of it (projectExportPlan.ts refusedOutputs), on a scratch folder with an empty export folder. Inputs are
 * the `project` target's. Judged:
 * - rejected: the plan fails, or refusedOutputs refuses, with FormatErrors naming the project file;
 * - accepted: every file the plan writes lies right in the export folder, once (letter case aside), none an input of
 *   the project; each motion and alias is one entry, in that order, its files those of its name; the motions of the
 *   plan carry no .sev or SE table (they shape no MSH or glTF); every input is an absolute path, the project first.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FormatError } from '../../shared/errors';
import { isAbsolutePath } from '../../shared/project/paths';
import { decodeUtf8Text } from '../../shared/sev/text';
import { planProjectExport } from '../../electron/build/projectExportParse';
import { projectExportFiles, refusedOutputs } from '../../electron/build/projectExportPlan';
import { FuzzDefect, describeThrown, must, namesFile, type Outcome } from './judge';
import { withScratch } from './scratch';

/** Every refusal a FormatError naming the project file. */
function checkRefusals(errors: readonly unknown[], file: string): void {
  for (const e of errors) {
    if (!(e instanceof FormatError))
      throw new FuzzDefect('crash', `refused with a non-FormatError: ${describeThrown(e)}`);
    if (!namesFile(e.message, file))
      throw new FuzzDefect('unnamed', `refusal does not name ${file}: ${e.message.slice(0, 200)}`);
  }
}

function planOne(b: Uint8Array, root: string, format: 'msh' | 'gltf'): Outcome {
  const projectFile = join(root, 'p.actguy.json');
  const outDir = join(root, 'out');
  let text: string;
  try {
    text = decodeUtf8Text(b, 'PROJECT', projectFile);
  } catch (e) {
    checkRefusals([e], projectFile);
    return 'rejected';
  }
  let r: ReturnType<typeof planProjectExport>;
  let refused: FormatError[] = [];
  try {
    r = planProjectExport(projectFile, format, outDir, text);
    if (r.ok) refused = refusedOutputs(r.plan);
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  if (!r.ok) {
    must(r.errors.length > 0, 'the plan failed without an error');
    checkRefusals([...r.errors, ...r.warnings], projectFile);
    return 'rejected';
  }
  const { plan } = r;
  checkRefusals([...refused, ...plan.warnings], projectFile);
  if (refused.length) return 'rejected';
  try {
    const project = plan.motionsOnly;
    const names = [...project.motions.map((m) => m.name), ...project.aliases.map((a) => a.name)];
    must(
      plan.entries.map((e) => e.name).join('/') === names.join('/'),
      `entries ${plan.entries.length} for ${names.length} motions and aliases`,
    );
    for (const e of plan.entries) {
      must(!!project.motions[e.motion], `${e.name} exports motion ${e.motion}, which the project lacks`);
      must(
        e.of === undefined ? project.motions[e.motion].name === e.name : project.motions[e.motion].name === e.of,
        `${e.name} exports ${project.motions[e.motion].name}`,
      );
      must(
        e.files.join('\n') === projectExportFiles(format, outDir, e.name).join('\n'),
        `${e.name}'s files are ${e.files.join(', ')}`,
      );
    }
    must(
      plan.writes.join('\n') === plan.entries.flatMap((e) => e.files).join('\n'),
      'the writes are not the files of the entries',
    );
    must(new Set(plan.writes.map((w) => w.toLowerCase())).size === plan.writes.length, 'two writes are one file');
    for (const w of plan.writes) must(dirname(w) === outDir, `writes ${w}, outside ${outDir}`);
    const inputs = new Set(plan.inputs.map((i) => i.path));
    for (const w of plan.writes) must(!inputs.has(w), `writes the project's input ${w}`);
    must(plan.inputs[0]?.path === projectFile, 'the project file is not the first input');
    // Absolute as a project's paths are (a drive too: `C:\x` on Linux is read where the CLI runs, as a build reads it;
    // docs/testing.md, round 3, left open).
    for (const i of plan.inputs) must(isAbsolutePath(i.path), `input ${i.path} (${i.role}) is not an absolute path`);
    must(
      project.motions.every((m) => m.sevPath === undefined) && !project.slsPath && !project.seDefinePath,
      'the plan holds a .sev or an SE table',
    );
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    throw new FuzzDefect('invalid', `accepted, then: ${describeThrown(e)}`);
  }
  return 'accepted';
}

/** Plans the export of the project text `b` as MSH and as glTF: accepted only when both are. */
export function runProjectExport(b: Uint8Array): Outcome {
  return withScratch('export', (s) => {
    mkdirSync(join(s.state, 'out'));
    const msh = planOne(b, s.state, 'msh');
    const gltf = planOne(b, s.state, 'gltf');
    must(msh === gltf, `planned as MSH ${msh}, as glTF ${gltf}`);
    return msh;
  });
}
