import { FormatError, inFile } from '../../../shared/errors';
import { readMar } from '../../../shared/mar/read';
import { packSarEntries, type SevSource } from '../../../shared/sar/pack';
import { writeSar } from '../../../shared/sar/write';
import { loadSeTables, loadSev, printDiagnostics } from '../../build/inputs';
import { commitOutputs } from '../../build/commit';
import { readInputFile } from '../../build/files';
import { parseArgs, stringOption, UsageError } from '../args';
import { EXIT_FAILED, EXIT_OK, type CliCommand } from '../command';
import { refuseOutputClashes } from '../../pathIdentity';
import { pushAll } from '../../../shared/pushAll';

export const packSarCommand: CliCommand = {
  name: 'pack-sar',
  usage: 'pack-sar -o OUT.sar --mar STAGE.mar [--sls default.sls] [--se-define se_define.h] FILE.sev... [--quiet]',
  summary:
    'compile .sev files into a .sar in the order of the paired .mar (pairing by motion name; motions without a .sev get empty entries)',
  run(argv) {
    const args = parseArgs(argv, ['o', 'mar', 'sls', 'se-define'], ['quiet'], { out: 'o' });
    const out = stringOption(args, 'o');
    if (!out) throw new UsageError('missing -o OUT.sar');
    const marPath = stringOption(args, 'mar');
    if (!marPath) throw new UsageError('missing --mar STAGE.mar (the .sar follows its order)');
    const sevPaths = args.positionals;
    const sls = stringOption(args, 'sls');
    const seDefine = stringOption(args, 'se-define');
    refuseOutputClashes(
      [
        { path: marPath, role: 'the --mar' },
        ...(sls ? [{ path: sls, role: 'the --sls' }] : []),
        ...(seDefine ? [{ path: seDefine, role: 'the --se-define' }] : []),
        ...sevPaths.map((path) => ({ path, role: 'the input' })),
      ],
      [{ path: out, role: '-o' }],
    );

    const errors: FormatError[] = [];
    const tables = loadSeTables(sls, seDefine);
    pushAll(errors, tables.errors);
    let mar: ReturnType<typeof readMar> | undefined;
    try {
      mar = inFile(marPath, () => readMar(readInputFile(marPath)));
    } catch (e) {
      if (e instanceof FormatError) errors.push(e);
      else errors.push(new FormatError('MAR', `cannot read: ${(e as Error).message}`, {}, marPath));
    }
    const sevs: SevSource[] = [];
    const sevWarnings: FormatError[] = [];
    for (const p of sevPaths) {
      const loaded = loadSev(p);
      pushAll(errors, loaded.errors);
      pushAll(sevWarnings, loaded.warnings);
      if (loaded.source) sevs.push(loaded.source);
    }
    if (mar) {
      const info = mar.entries.map((e) => ({
        name: e.name,
        frameCount: e.mt3.numFrames,
        jointCount: e.mt3.rotations.length,
      }));
      const packed = packSarEntries(info, sevs, tables.table, marPath);
      pushAll(errors, packed.errors);
      if (errors.length === 0) {
        const bytes = inFile(out, () =>
          writeSar(
            packed.entries,
            info.map((m) => m.name),
          ),
        );
        printDiagnostics([], [...tables.warnings, ...sevWarnings]);
        commitOutputs([{ path: out, bytes }]);
        if (!args.options.has('quiet')) {
          const events = packed.entries.reduce((s, e) => s + e.events.length, 0);
          const withSev = packed.paired.filter(Boolean).length;
          console.log(
            `${out}: ${packed.entries.length} entries (${withSev} from .sev files, ${packed.entries.length - withSev} empty), ${events} events, ${bytes.byteLength} bytes`,
          );
        }
        return EXIT_OK;
      }
    }
    printDiagnostics(errors, [...tables.warnings, ...sevWarnings]);
    console.error(`${errors.length} error${errors.length === 1 ? '' : 's'}; ${out} was not written`);
    return EXIT_FAILED;
  },
};
