/**
 * Import rules checked in CI (`npm run lint:deps`): the layers of docs/architecture.md and no import
 * cycles. A rule nobody checks wears away; this file is the check.
 */
/** The app layer of shared/: every other file there is the core. */
const SHARED_APP =
  '^shared/ipc/|^shared/(shortcuts|shortcutSheet|menus|eventsMenu|unsaved|systemFiles|dropFiles)(\\.test)?\\.ts$|^shared/testing/rawIpcFrame\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules that import each other in a circle cannot be read, tested or moved one at a time.',
      from: { path: '^(shared|electron|renderer|scripts)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'shared-is-pure',
      severity: 'error',
      comment: 'shared/ runs unchanged in the main process, the workers, the renderer and tests.',
      from: { path: '^shared/' },
      to: { path: '^(electron|renderer|scripts|e2e)/' },
    },
    {
      name: 'shared-no-node',
      severity: 'error',
      comment: 'shared/ never touches Node (fs, path, worker_threads...).',
      from: { path: '^shared/', pathNot: '\\.test\\.ts$|^shared/testing/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      // The app layer of shared/ (docs/architecture.md): the API between the window and the main process and its
      // transport (ipc/, and the test helper that writes raw frames), and the shell both sides show (menus,
      // shortcuts, unsaved names, the files the OS opens).
      // Everything else in shared/ is the core: formats, math, motion, the compressor, interchange, the project.
      name: 'shared-core-not-app',
      severity: 'error',
      comment:
        'The core (formats, compressor, project) knows nothing of transport or UI; the app layer may use the core.',
      from: { path: '^shared/', pathNot: SHARED_APP },
      to: { path: SHARED_APP },
    },
    {
      name: 'renderer-not-electron',
      severity: 'error',
      comment: 'The page reaches the main process only through the typed API in shared/.',
      from: { path: '^renderer/' },
      to: { path: '^electron/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'electron-not-renderer',
      severity: 'error',
      comment: 'Tests of the loopback server drive it with the real page-side client; nothing else crosses.',
      from: { path: '^electron/', pathNot: '\\.test\\.ts$' },
      to: { path: '^renderer/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|e2e-output)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
