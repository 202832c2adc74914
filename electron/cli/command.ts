/** One actguy subcommand. `run` returns the exit status; errors thrown are printed as one line. */
export interface CliCommand {
  name: string;
  /** One-line usage shown by `actguy help`. */
  usage: string;
  summary: string;
  run(argv: string[]): Promise<number> | number;
}
