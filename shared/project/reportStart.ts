/**
 * Whether a file's first bytes are those of a build report: a JSON object whose first key is
 * `"tool": "actguy build"`, as every report starts (plan.ts writes `tool` first). A report cut short keeps them;
 * a file of anything else (a package.json, settings) does not. No imports: the main process reads it before it
 * replaces a report (electron/build/commit.ts), without the parsers.
 */
export function startsAsBuildReport(head: string): boolean {
  return /^\uFEFF?\s*\{\s*"tool"\s*:\s*"actguy build"/.test(head);
}
