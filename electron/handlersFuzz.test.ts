/**
 * Every invoke member given hostile arguments, as a compromised page could send them (docs/architecture.md, Electron
 * round 6): no argument, null, a number, a string, an array, an empty object, a `__proto__` key, and objects with every
 * field named anywhere in the IPC contract (shared/ipc) set to one wrong value: a number, NaN, a 1 MiB string, a
 * boolean, null, an array, an object, bytes. Each call answers a value or a deliberate error (an Error, a
 * FormatError, an API error, a path refusal: what dispatchInvoke words as raised), never a TypeError or other fault of
 * the handler's own, and in a few words: no error message quotes the page's 1 MiB back.
 *
 * One way every member checks its argument (docs/architecture.md#electron, "Maintainer's read, round 5"): a member
 * that takes a request (its ActGuyApi signature names one) refuses anything but an object first, with ipcArgs.ts
 * requireObject's words, before it looks at a field, a document or a dialog; a member that takes none ignores whatever
 * the page sends. A handler added without the check fails there (a field read from a string is undefined, not an
 * error, so "no TypeError" alone does not always catch it). Mutations that fail: closeDocument's requireObject taken
 * out (a string closed nothing and answered undefined); requireBuildId's requireObject taken out (getBuildStatus).
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

/** Each invoke member's parameter as ActGuyApi declares it (shared/ipc/api.ts): its name, or null for none. */
const API_SOURCE = readFileSync(join(__dirname, '..', 'shared', 'ipc', 'api.ts'), 'utf8');
function parameterOf(member: string): string | null {
  const m = new RegExp(`^\\s+${member}\\((\\w*)`, 'm').exec(API_SOURCE);
  if (!m) throw new Error(`ActGuyApi declares no ${member}(...)`);
  return m[1] === '' ? null : m[1];
}

/** What a call answers, as the page would compare it: its value, or its error's class and message. */
async function outcome(member: string, arg: unknown): Promise<unknown> {
  try {
    return { value: await (handlers[member as keyof ApiHandlers] as (a: unknown) => Promise<unknown>)(arg) };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}

describe('every invoke member checks its argument the one way', () => {
  it('the contract declares members of both kinds', () => {
    const taking = ACTGUY_INVOKE_MEMBERS.filter((m) => parameterOf(m) !== null);
    expect(taking).toContain('openMotion');
    expect(taking.length).toBeGreaterThan(25);
    expect(ACTGUY_INVOKE_MEMBERS.filter((m) => parameterOf(m) === null)).toEqual(
      expect.arrayContaining(['getAppInfo', 'cancelOpenMotion', 'restoreBackups']),
    );
  });

  it("a member that takes a request refuses anything but an object first, in requireObject's words", async () => {
    const wrong: string[] = [];
    for (const member of ACTGUY_INVOKE_MEMBERS.filter((m) => parameterOf(m) !== null))
      for (const arg of ['x', 7, true, [], [{ path: SAMPLE_MTN }]]) {
        const got = await outcome(member, arg);
        const expected = { error: `Error: ${member}: expected an object argument` };
        if (JSON.stringify(got) !== JSON.stringify(expected))
          wrong.push(`${member}(${JSON.stringify(arg)}): ${JSON.stringify(got).slice(0, 200)}`);
      }
    expect(wrong).toEqual([]);
  });

  it('a member that takes no request answers the same whatever the page sends', async () => {
    const wrong: string[] = [];
    for (const member of ACTGUY_INVOKE_MEMBERS.filter((m) => parameterOf(m) === null)) {
      const plain = JSON.stringify(await outcome(member, undefined));
      for (const arg of ['x', 7, {}, { path: '/etc/passwd' }]) {
        const got = JSON.stringify(await outcome(member, arg));
        if (got !== plain) wrong.push(`${member}(${JSON.stringify(arg)}): ${got.slice(0, 200)} (with none: ${plain})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
