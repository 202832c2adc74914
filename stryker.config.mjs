// @ts-check
/**
 * Mutation testing of the safety-critical code (npm run mutate; not in CI: it takes long).
 * Every mutant is a single-line bug; the unit suite must notice it. Scope: the binary and text
 * readers/writers in shared/, the compressor's guarantees, the path policy, the file-system
 * helpers, the IPC handlers and the undo stores. Narrow it with
 *   npm run mutate -- --mutate electron/pathPolicy.ts
 * Reports: reports/mutation/index.html and reports/mutation/mutation.json; the clear-text table
 * printed at the end has the score per file.
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  mutate: [
    'shared/mtn/{read,write,validate}.ts',
    'shared/mt3/{read,write,bitstream,decode,validate}.ts',
    'shared/math/{half,s12}.ts',
    'shared/mar/{read,write,names}.ts',
    'shared/sar/{read,write,compile,pack}.ts',
    'shared/sev/{parse,serialize,edit,text,validate}.ts',
    'shared/se-tables/{define,sls,table}.ts',
    'shared/compress/{compress,greedy,keyList}.ts',
    'shared/strcode.ts',
    'electron/pathPolicy.ts',
    'electron/fsutil.ts',
    'electron/{handlers,invokeReply,workspaceListing,ipcArgs}.ts',
    'electron/project/projectHandlers.ts',
    'renderer/state/documentStore.ts',
    'renderer/sev/sevStore.ts',
    '!**/*.test.ts',
  ],
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 20000,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'html', 'json', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
