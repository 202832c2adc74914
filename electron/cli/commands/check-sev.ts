import { FormatError, inFile } from '../../../shared/errors';
import { readMtn } from '../../../shared/mtn/read';
import { compileSevEntry } from '../../../shared/sar/compile';
import { checkedSevMotionName, checkSevAgainstMotion, sevWarnings } from '../../../shared/sev/validate';
import { gvStrCode } from '../../../shared/strcode';
import { loadSeTables, loadSev, printDiagnostics } from '../../build/inputs';
import { readInputFile } from '../../build/files';
import { parseArgs, stringOption, UsageError } from '../args';
import { EXIT_FAILED, EXIT_OK, type CliCommand } from '../command';
import { pushAll } from '../../../shared/pushAll';

export const checkSevCommand: CliCommand = {
  name: 'check-sev',
  usage: 'check-sev FILE.sev... [--sls default.sls] [--se-define se_define.h] [--mtn MOTION.mtn] [--quiet]',
  summary:
    'check .sev files: syntax, SE indices, SE names against the tables, frames and joints against the motion; every error as FILE:LINE:COL; warns about two SEs of one name and two events of one SE within 2 frames, and about bidirectional formatting characters (in comments too)',
  run(argv) {
    const args = parseArgs(argv, ['sls', 'se-define', 'mtn'], ['quiet']);
    const files = args.positionals;
    if (files.length === 0) throw new UsageError('expected at least one .sev file');
    const mtnPath = stringOption(args, 'mtn');
    if (mtnPath && files.length > 1)
      throw new UsageError('--mtn checks one .sev against one motion; give a single .sev');
    const slsPath = stringOption(args, 'sls');
    const defPath = stringOption(args, 'se-define');
    const useTables = slsPath !== undefined || defPath !== undefined;

    const errors: FormatError[] = [];
    const warnings: FormatError[] = [];
    const tables = useTables ? loadSeTables(slsPath, defPath) : undefined;
    if (tables) pushAll(errors, tables.errors);
    let motion: { frameCount: number; jointCount: number } | undefined;
    if (mtnPath) {
      try {
        const m = inFile(mtnPath, () => readMtn(readInputFile(mtnPath)));
        motion = { frameCount: m.frameCount, jointCount: m.joints.length };
      } catch (e) {
        if (e instanceof FormatError) errors.push(e);
        else errors.push(new FormatError('MTN', `cannot read: ${(e as Error).message}`, {}, mtnPath));
      }
    }
    let events = 0;
    for (const file of files) {
      const loaded = loadSev(file);
      pushAll(errors, loaded.errors);
      pushAll(warnings, loaded.warnings);
      const src = loaded.source;
      if (!src) continue;
      events += src.doc.events.length;
      pushAll(warnings, sevWarnings(src.doc, file));
      const checked = checkedSevMotionName(src.doc, src.baseName, file);
      if ('error' in checked) {
        errors.push(checked.error);
        continue;
      }
      const name = checked.name;
      if (motion) pushAll(errors, checkSevAgainstMotion(src.doc, { name, ...motion }, file));
      if (tables) pushAll(errors, compileSevEntry(src.doc, tables.table, gvStrCode(name), file).errors);
    }
    printDiagnostics(errors, [...(tables?.warnings ?? []), ...warnings]);
    if (errors.length) {
      console.error(`${errors.length} error${errors.length === 1 ? '' : 's'}`);
      return EXIT_FAILED;
    }
    if (!args.options.has('quiet')) {
      const checked = [useTables ? 'SE names' : '', motion ? 'frames and joints' : ''].filter(Boolean).join(', ');
      console.log(
        `ok: ${files.length} file${files.length === 1 ? '' : 's'}, ${events} event${events === 1 ? '' : 's'}${checked ? ` (checked ${checked})` : ''}`,
      );
    }
    return EXIT_OK;
  },
};
