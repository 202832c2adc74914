import { buildProject } from '../../build/build';
import { printDiagnostics } from '../../build/inputs';
import { parseArgs, singlePositional, stringOption } from '../args';
import type { CliCommand } from '../command';

export const buildCommand: CliCommand = {
  name: 'build',
  usage: 'build PROJECT.actguy.json [-o OUTDIR] [--quiet]',
  summary: 'validate a project, compress every motion and write the .mar, the .sar and a JSON build report (nothing is written on any error)',
  run(argv) {
    const args = parseArgs(argv, ['o'], ['quiet'], { out: 'o' });
    const quiet = args.options.has('quiet');
    const tty = Boolean(process.stdout.isTTY) && !quiet;
    const outcome = buildProject(singlePositional(args, 'project file'), {
      outDir: stringOption(args, 'o'),
      onProgress: tty
        ? (p) => {
            const r = p.result;
            console.log(`[${p.index + 1}/${p.count}] ${p.name}: ${r.totalKeys} keys, ${r.mt3Bytes} bytes (ratio ${r.ratio.toFixed(2)}), ${r.ms.toFixed(0)} ms`);
          }
        : undefined,
    });
    if (!outcome.ok) {
      printDiagnostics(outcome.errors, outcome.warnings);
      console.error(`${outcome.errors.length} error${outcome.errors.length === 1 ? '' : 's'}; nothing was written`);
      return 1;
    }
    printDiagnostics([], outcome.warnings);
    for (const n of outcome.notes) console.error(`note: ${n}`);
    for (const w of outcome.report.warnings.slice(outcome.warnings.length)) console.error(`warning: ${w}`);
    if (!quiet) {
      const { report } = outcome;
      const t = report.totals;
      console.log(
        `built ${t.motions} motion${t.motions === 1 ? '' : 's'}: ${report.outputs.mar.path} (${report.outputs.mar.bytes} bytes, ${t.keys} keys), ` +
          `${report.outputs.sar.path} (${report.outputs.sar.bytes} bytes, ${t.events} events), report ${report.outputs.report}`,
      );
    }
    return 0;
  },
};
