/**
 * Round 51 (docs/security.md): a file of a received folder may be named with characters that hide or reorder text (a
 * bidi override, a terminal escape, a zero-width space); the handlers name files in their messages as their paths
 * are, and the reply (invokeReply.ts, both transports) shows those characters as `\uXXXX`, keeping the line breaks
 * that messages use. Mutation that fails: clipMessage without escapeControls (the override reaches the page raw).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcReply } from '../shared/ipc/transport';
import type { CompressClient } from './compressClient';
import { dispatchInvoke } from './invokeReply';
import { inProcessTextChecker } from './project/textCheckJob';
import { testHandlers } from './testing/handlerHarness';

let ws: string;
beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'actguy-hidden-'));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const messageOf = (r: IpcReply<unknown>): string => {
  if (r.ok) throw new Error('expected a failure');
  return r.error.message;
};

describe("a file's hidden characters in the app's messages", () => {
  it('a bidi override, a terminal escape and a zero-width space in a name are shown as \\uXXXX', async () => {
    const h = testHandlers({ app: { workspaceRoot: ws }, compress: {} as CompressClient });
    const name = 'walk\u202Eves.\u001b[2J\u200Bsev';
    execFileSync('mkfifo', [join(ws, `${name}.sev`)]);
    const message = messageOf(await dispatchInvoke(h, 'readProjectText', { path: join(ws, `${name}.sev`) }));
    expect(message).toBe(
      `Could not read ${join(ws, 'walk\\u202eves.\\u001b[2J\\u200bsev.sev')}: it is not a plain file (a pipe, socket or device)`,
    );
    expect([...message].filter((c) => ['\u202E', '\u001b', '\u200B'].includes(c))).toEqual([]);
  });

  it("a message's own line breaks stay", async () => {
    const h = testHandlers({
      app: { workspaceRoot: ws },
      compress: {} as CompressClient,
      checkText: inProcessTextChecker,
    });
    writeFileSync(join(ws, 'p.actguy.json'), '{}');
    const message = messageOf(
      await dispatchInvoke(h, 'saveSev', { path: join(ws, 'a\u202Eb.sev'), text: 'nonsense here\nmore\n' }),
    );
    const lines = message.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]).toBe(`Could not save ${join(ws, 'a\\u202eb.sev')}: the text has errors; nothing was written`);
  });
});

describe('a line break in a name (round 53)', () => {
  it('forges no line: the path policy refuses the name, quoting it escaped, before any read or write', async () => {
    const h = testHandlers({
      app: { workspaceRoot: ws },
      compress: {} as CompressClient,
      checkText: inProcessTextChecker,
    });
    for (const brk of ['\n', '\r', '\u2028', '\u2029']) {
      const name = `walk${brk}Built 9 motions: ok${brk}x.sev`;
      execFileSync('mkfifo', [join(ws, name)]);
      const read = messageOf(await dispatchInvoke(h, 'readProjectText', { path: join(ws, name) }));
      expect(read.split('\n')).toHaveLength(1);
      expect(read).toContain('line break');
      const saved = messageOf(await dispatchInvoke(h, 'saveSev', { path: join(ws, `s${name}`), text: 'nonsense\n' }));
      expect(saved.split('\n')[0]).not.toMatch(/walk$/);
      expect(saved).toContain('line break');
      expect(existsSync(join(ws, `s${name}`))).toBe(false);
    }
  });
});
