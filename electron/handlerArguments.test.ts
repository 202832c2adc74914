/**
 * One way every invoke member checks its argument (docs/architecture.md#electron, "Maintainer's read, round 5"): a
 * member that takes a request (its ActGuyApi signature names one) refuses anything but an object first, with
 * ipcArgs.ts requireObject's words, before it looks at a field, a document or a dialog; a member that takes none
 * ignores whatever the page sends. A handler added without the check fails here (a field read from a string is
 * undefined, not an error, so the fuzz test's "no TypeError" does not always catch it).
 *
 * Mutations that fail: closeDocument's requireObject taken out (`raw as { documentId }`: a string closed nothing and
 * answered undefined); getBuildStatus's requireObject taken out.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTGUY_INVOKE_MEMBERS } from '../shared/ipc/api';
import type { ApiHandlers } from './handlers';
import { inProcessTextChecker } from './project/textCheckJob';
import {
  SAMPLE_MTN,
  scriptedDialogs,
  tempWorkspace,
  testHandlers,
  useCompressClientPerTest,
} from './testing/handlerHarness';

const compress = useCompressClientPerTest();
let dir: string;
let handlers: ApiHandlers;
beforeEach(() => {
  const ws = tempWorkspace('actguy-arguments-', { walkOutside: true });
  dir = ws.dir;
  handlers = testHandlers({
    app: { samplePath: SAMPLE_MTN, startupPath: join(ws.workspace, 'walk.mtn'), workspaceRoot: ws.workspace },
    recentDir: dir,
    compress: compress(),
    // No answer queued: a member that shows its dialog fails there, in words of its own.
    dialogs: scriptedDialogs(),
    checkText: inProcessTextChecker,
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

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
