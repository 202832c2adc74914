/**
 * Every export of electron/ is imported by another file (docs/architecture.md, Electron round 6: 81 exports used
 * only in their own file were made local). Mutation that fails: `export` put back on any of them, e.g.
 * build/build.ts `outputsOutsideFolder`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unusedExports } from './testing/unusedExports';

const ROOT = resolve(__dirname, '..');

/**
 * Exports left as they are, each for its reason. The loopback server's and the state folder's files are another
 * reader's (docs/security.md) in this round; cliGlobalSetup's `setup` is vitest's global setup, named by path in vitest.config.ts.
 */
const KEPT = [
  'electron/crashRecords.ts: CRASH_DUMPS_FOLDER',
  'electron/crashRecords.ts: RecoveryAction',
  'electron/crashRecords.ts: RecoveryQuestion',
  'electron/lastFolder.ts: LastFolder',
  'electron/lastFolder.ts: lastFolderProblem',
  'electron/loopback/server.ts: BODY_BUDGET_BYTES',
  'electron/loopback/server.ts: TOKEN_HEADER',
  'electron/tempFiles.ts: INPUTS_READ_MAX',
  'electron/tempFiles.ts: OwnWrite',
  'electron/tempFiles.ts: SweepFs',
  'electron/testing/cliGlobalSetup.ts: default',
  'electron/unsavedBackups.ts: BackupContext',
  'electron/unsavedBackups.ts: NOT_RESTORED_FOLDER',
  'electron/windowState.ts: InitialWindow',
  'electron/windowState.ts: PREFERRED_SIZE',
];

describe('exports of electron/', () => {
  it('are each imported by another file', () => {
    expect(unusedExports(ROOT, 'electron').filter((e) => !KEPT.includes(e))).toEqual([]);
    // Parsing every source of the repository: about 4 s of one core, more on a loaded machine.
  }, 120_000);
});

describe('unusedExports', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const tree = (files: Record<string, string>): string => {
    dir = mkdtempSync(join(tmpdir(), 'actguy-exports-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };

  it('counts each way a file takes another file’s names', () => {
    const root = tree({
      'src/a.ts': [
        'export function named() {}',
        'export const renamed = 1;',
        'export interface Typed {}',
        'export type Aliased = number;',
        'export default 3;',
        'export function local() {}',
        'export { local as alsoLocal };',
        'local();',
      ].join('\n'),
      'src/b.ts': 'export const viaReexport = 1;\nexport const notTaken = 2;',
      'src/c.ts': 'export const dynamicAll = 1;',
      'src/d.ts': 'export const requiredAll = 1;',
      'src/e.ts': 'export class QualifiedType {}\nexport class Other {}',
      'src/f.ts': 'export const spreadAll = 1;',
      'src/g.ts': 'export enum Namespaced { A }',
      'src/a.test.ts': 'export const inATest = 1;',
      'src/user.ts': [
        "import def, { named, renamed as r } from './a';",
        "import type { Typed, Aliased } from './a';",
        "export { viaReexport } from './b';",
        "export * from './f';",
        "import * as g from './g';",
        "const c = import('./c');",
        "type Q = import('./e').QualifiedType;",
      ].join('\n'),
      'other/user.cjs': "require('../src/d');",
      'outside/x.ts': 'export const outsideFolder = 1;',
    });
    expect(unusedExports(root, 'src')).toEqual([
      'src/a.ts: alsoLocal',
      'src/a.ts: local',
      'src/b.ts: notTaken',
      'src/e.ts: Other',
    ]);
  });
});
