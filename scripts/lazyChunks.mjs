// The lazily loaded chunks of the Node bundles (docs/compression.md#cli-start-up): each module here is reached
// only through one dynamic import() (its loader, e.g. shared/interchange/loadThreeLoaders.ts). scripts/build.mjs
// builds it as `file` beside every bundle that reaches it, and that bundle requires the file at the first call
// instead of carrying the module. The packaged app ships each chunk beside its workers (electron-builder.yml).
export const LAZY_CHUNKS = [
  { module: 'shared/interchange/threeLoaders.ts', file: 'threeLoaders.cjs' },
  // Every CLI command but compress (electron/cli/registry.ts loads it): a compress process parses none of them.
  { module: 'electron/cli/moreCommands.ts', file: 'cliCommands.cjs' },
];
