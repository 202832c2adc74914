/**
 * Every invoke member given hostile arguments, as a compromised page could send them (docs/architecture.md, Electron
 * round 6): no argument, null, a number, a string, an array, an empty object, a `__proto__` key, and objects with every
 * field named anywhere in the IPC contract (shared/ipc) set to one wrong value: a number, NaN, a 1 MiB string, a
 * boolean, null, an array, an object, bytes. Each call answers a value or a deliberate error (an Error, a
 * FormatError, an API error, a path refusal: what dispatchInvoke words as raised), never a TypeError or other fault of
 * the handler's own, and in a few words: no error message quotes the page's 1 MiB back.
 *
 * Mutations that fail: buildRunner.ts unknownBuild quoting the id whole (JSON.stringify, as before round 6):
 * getBuildStatus and cancelBuild answered 16 KiB (the reply's cap) of a page's 1 MiB build id; importOptions' `found`
 * back to String(req.fps) (importMotionDialog and importMotion answered 16 KiB of a 1 MiB fps); the compression
 * check's tolerance `found` back to String (compressMotion, exportMt3), and each other `found` of a field's value.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FormatError } from '../shared/errors';
import { ACTGUY_INVOKE_MEMBERS } from '../shared/ipc/api';
import { ActGuyApiError } from '../shared/ipc/transport';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { PathNotAllowedError } from './pathPolicy';
import { inProcessTextChecker } from './project/textCheckJob';
import {
  SAMPLE_MTN,
  scriptedDialogs,
  tempWorkspace,
  openedMotion,
  testHandlers,
  useCompressClientPerTest,
} from './testing/handlerHarness';

const compress = useCompressClientPerTest();
let dir: string;
let workspace: string;
let handlers: ApiHandlers;
beforeEach(() => {
  const ws = tempWorkspace('actguy-hostile-args-', { walkOutside: true });
  dir = ws.dir;
  workspace = ws.workspace;
  handlers = testHandlers({
    app: { samplePath: SAMPLE_MTN, startupPath: join(ws.workspace, 'walk.mtn'), workspaceRoot: ws.workspace },
    recentDir: dir,
    compress: compress(),
    // No answer queued: a member that gets as far as its dialog fails there, with a plain Error.
    dialogs: scriptedDialogs(),
    checkText: inProcessTextChecker,
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every property name the IPC contract's files declare (requests and answers alike: more names do no harm). */
const IPC_FOLDER = join(__dirname, '..', 'shared', 'ipc');
const FIELDS = [
  ...new Set(
    readdirSync(IPC_FOLDER)
      .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
      .flatMap((n) =>
        [...readFileSync(join(IPC_FOLDER, n), 'utf8').matchAll(/^\s+(?:readonly )?([a-zA-Z]+)\??:/gm)].map((m) => m[1]),
      ),
  ),
];
const MIB = 'x'.repeat(1 << 20);
const WRONG_VALUES: [string, unknown][] = [
  ['0', 0],
  ['-1', -1],
  ['1e308', 1e308],
  ['NaN', NaN],
  ['"x"', 'x'],
  ['1 MiB string', MIB],
  ['true', true],
  ['null', null],
  ['[]', []],
  ['[1, 2]', [1, 2]],
  ['{}', {}],
  ['bytes', new Uint8Array(3)],
];
function everyField(v: unknown): Record<string, unknown> {
  return Object.fromEntries(FIELDS.map((f) => [f, v]));
}
const ARGUMENTS: [string, unknown][] = [
  ['undefined', undefined],
  ['null', null],
  ['0', 0],
  ['a string', 'x'],
  ['an array', []],
  ['{}', {}],
  ['a __proto__ key', JSON.parse('{"__proto__": {"path": "/etc/passwd", "documentId": "x", "buildId": "x"}}')],
  ...WRONG_VALUES.map(([label, v]): [string, unknown] => [`every field ${label}`, everyField(v)]),
  // One level down too: a request's objects (a compression's tolerances, an export's options) with every field wrong.
  ...WRONG_VALUES.map(([label, v]): [string, unknown] => [
    `every field's every field ${label}`,
    everyField(everyField(v)),
  ]),
];
/** Longer than any message a handler words itself (a path quoted at most once, 4,096 characters). */
const MESSAGE_MAX = 9000;

describe('every invoke member with hostile arguments', () => {
  it('the contract names the fields the requests take', () => {
    for (const f of ['path', 'documentId', 'buildId', 'mtnBytes', 'compress', 'text', 'defaultName', 'paths'])
      expect(FIELDS).toContain(f);
  });

  it('answers a value or a deliberate error, in a few words', async () => {
    const faults: string[] = [];
    const long: string[] = [];
    for (const member of ACTGUY_INVOKE_MEMBERS) {
      for (const [label, arg] of ARGUMENTS) {
        try {
          await (handlers[member] as (a: unknown) => Promise<unknown>)(arg);
        } catch (e) {
          const deliberate =
            e instanceof FormatError ||
            e instanceof ActGuyApiError ||
            e instanceof PathNotAllowedError ||
            (e instanceof Error && e.constructor === Error);
          if (!deliberate) faults.push(`${member} (${label}): ${String(e).slice(0, 200)}`);
        }
        const reply = await dispatchInvoke(handlers, member, arg);
        if (!reply.ok && reply.error.message.length > MESSAGE_MAX)
          long.push(`${member} (${label}): ${reply.error.message.length} characters`);
      }
    }
    expect(faults).toEqual([]);
    expect(long).toEqual([]);
  }, 300_000);

  it('a request right but for one field quotes that field in a few words', async () => {
    const doc = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    const compress = (change: (t: Record<string, unknown>, r: Record<string, unknown>) => void) => {
      const tolerances: Record<string, unknown> = { positionTolerance: 1, rotationToleranceDeg: 1, offsetTolerance: 1 };
      const r: Record<string, unknown> = { documentId: doc.documentId, revision: 1, motionFlags: 0, waistJoint: 0 };
      change(tolerances, r);
      return { ...r, tolerances };
    };
    const cases: [string, unknown][] = [
      ['compressMotion', compress((t) => (t.positionTolerance = MIB))],
      ['compressMotion', compress((t) => (t.shell = MIB))],
      ['compressMotion', compress((t) => (t.method = MIB))],
      ['compressMotion', compress((_, r) => (r.knownRevision = MIB))],
      ['exportMt3', { path: join(workspace, 'x.mt3'), compress: compress((t) => (t.offsetTolerance = MIB)) }],
      ['importMotionDialog', { fps: MIB }],
      ['importMotionDialog', { scale: MIB }],
      ['importMotionDialog', { bvhPositions: MIB }],
      ['exportGltf', { documentId: doc.documentId, source: MIB }],
      ['exportGltf', { documentId: doc.documentId, source: 'source', path: join(workspace, 'x.glb'), scale: MIB }],
      ['exportMshDialog', { documentId: doc.documentId, positionTolerance: MIB, rotationToleranceDeg: 1 }],
    ];
    for (const [member, arg] of cases) {
      const reply = await dispatchInvoke(handlers, member, arg);
      expect(reply.ok).toBe(false);
      const message = reply.ok ? '' : reply.error.message;
      expect({
        member,
        quoted: message.includes(`(${MIB.length + 2} characters)`),
        short: message.length < 300,
      }).toEqual({
        member,
        quoted: true,
        short: true,
      });
    }
  });
});
