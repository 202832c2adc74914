/** One actguy subcommand. `run` returns the exit status; errors thrown are printed as one line. */
export interface CliCommand {
  name: string;
  /** One-line usage shown by `actguy help`. */
  usage: string;
  summary: string;
  run(argv: string[]): Promise<number> | number;
  /** Takes --json: an error it throws is then printed as a JSON document on stdout too (json.ts). */
  json?: true;
}

/**
 * Exit statuses (docs/cli.md, "Exit status"): 0 success, warnings included; 1 bad input or a failed write, nothing of
 * the failed work written; 2 bad usage; 3 part of the work written and part failed, each said (a batch `import`
 * where some files failed and the others were written, a `build --watch` whose last build failed after an earlier
 * one of the watch was written); 130 / 143 interrupted by SIGINT / SIGTERM (interrupt.ts).
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_PARTIAL = 3;
