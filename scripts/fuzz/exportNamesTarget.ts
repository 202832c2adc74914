/**
 * Fuzz target `export-names` (added 2026-12-06): what Export All says it writes before it writes (the folder picker's
 * "Writes N files here", `willWrite`: renderer/project/projectExport.ts exportFileNames of the names the page resolved)
 * against what it then writes. The browser build's picker answers a folder, and the loopback transport names main the
 * first of those files in it (renderer/transport/loopback.ts, joinPath); main exports into that name's folder, and the
 * export's thread plans the files from the project text (electron/build/projectExportParse.ts planProjectExport).
 * Inputs are the `project` target's, in a scratch folder, as MSH and as glTF. Judged:
 * - the page lists files only for a project that resolves, and the plan is made exactly then;
 * - every name listed is one file name (no separator, no `.` or `..`), each once, letter case aside (unless main's
 *   commit refuses the names: refusedOutputs, said when the export starts);
 * - the folder main exports into is the folder chosen, and the files the plan writes are those listed, in that order,
 *   in that folder: the picker never names a file that is not written, nor leaves one out.
 * Accepted: a project that resolves and whose names main takes; rejected: one that does not (the page lists nothing,
 * the plan fails, or main refuses the names).
 */
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ProjectExportFormat } from '../../shared/ipc/project';
import { joinPath } from '../../shared/project/paths';
import { parseProject } from '../../shared/project/validate';
import { decodeUtf8Text } from '../../shared/sev/text';
import { planProjectExport } from '../../electron/build/projectExportParse';
import { refusedOutputs } from '../../electron/build/projectExportPlan';
import { exportFileNames } from '../../renderer/project/projectExport';
import { FuzzDefect, describeThrown, type Outcome } from './judge';
import { withScratch } from './scratch';

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

/** The page's side: the names the picker shows for this project text (none while it does not resolve). */
function namesShown(text: string, projectFile: string, format: ProjectExportFormat): string[] | undefined {
  const r = parseProject(text, projectFile);
  if (!r.resolved) return undefined;
  return exportFileNames(format, [...r.resolved.motions.map((m) => m.name), ...r.resolved.aliases.map((a) => a.name)]);
}

function exportOne(text: string, root: string, format: ProjectExportFormat): Outcome {
  const projectFile = join(root, 'p.actguy.json');
  const chosen = join(root, 'out');
  let shown: string[] | undefined;
  let planned: ReturnType<typeof planProjectExport>;
  let folder: string;
  try {
    shown = namesShown(text, projectFile, format);
    // The loopback transport's answer (the first name, or a stand-in when there is none) and main's folder of it.
    folder = dirname(joinPath(chosen, shown?.[0] ?? `motion.${format === 'gltf' ? 'glb' : 'res8'}`));
    planned = planProjectExport(projectFile, format, folder, text);
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  must(folder === chosen, `exports into ${folder}, not the folder chosen (${chosen})`);
  if (!shown) {
    must(!planned.ok, 'the page lists no file, but the export plans some');
    return 'rejected';
  }
  must(planned.ok, `the page lists ${shown.length} files, but the export refuses the project`);
  if (!planned.ok) return 'rejected';
  // Names main's commit refuses (two of one folded spelling, a device name) are said after the folder is chosen.
  if (refusedOutputs(planned.plan).length) return 'rejected';
  for (const n of shown)
    must(
      n !== '' && n !== '.' && n !== '..' && !/[/\\]/.test(n),
      `lists ${JSON.stringify(n)}, which is not one file name`,
    );
  must(new Set(shown.map((n) => n.toLowerCase())).size === shown.length, 'lists one file twice');
  const writes = planned.plan.writes;
  must(
    writes.map((w) => basename(w)).join('\n') === shown.join('\n'),
    `lists ${shown.length} files, writes ${writes.length}: ${shown.slice(0, 3).join(', ')} / ${writes
      .slice(0, 3)
      .map((w) => basename(w))
      .join(', ')}`,
  );
  for (const w of writes) must(dirname(w) === chosen, `writes ${w}, outside the folder chosen`);
  return 'accepted';
}

/** The project text `b` exported as MSH and as glTF: accepted only when both are. */
export function runExportNames(b: Uint8Array): Outcome {
  let text: string;
  try {
    text = decodeUtf8Text(b, 'PROJECT', '/w/p.actguy.json');
  } catch {
    return 'rejected'; // never reaches the page as a project (the project target judges the refusal)
  }
  return withScratch('export-names', (s) => {
    mkdirSync(join(s.state, 'out'));
    const msh = exportOne(text, s.state, 'msh');
    const gltf = exportOne(text, s.state, 'gltf');
    must(msh === gltf, `as MSH ${msh}, as glTF ${gltf}`);
    return msh;
  });
}
