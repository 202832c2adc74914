/**
 * A commit with pinned folders makes every call in them through the folder checked (commit.ts throughPinned,
 * docs/security.md round 41): its lock, temps written whole, in pieces or off the main thread, the journal, the
 * backups, the renames, the roll-back and the sweep. folderSwap.test.ts swaps the folder at the lock, the temps and
 * the renames; a call of another kind made by name went unseen. Here every path the commit hands its file-system
 * calls is recorded, in a commit that meets a journal a killed commit left, replaces outputs that are there (their
 * backups, made as links or, without hard links, as copies) and writes one output in pieces, and in one off the main
 * thread: none names a file in the folder by its name. Mutation audit, round 3 (docs/testing.md): each call of throughPinned taken by name fails this.
 */
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { pinFolder, readSmallFile } from '../fsutil';
import { canonicalPath } from '../pathPolicy';
import { commitOutputs, commitOutputsAsync, type CommitFs } from './commit';

let dir: string;
let out: string;
beforeEach(() => {
  dir = canonicalPath(mkdtempSync(join(tmpdir(), 'actguy-through-pinned-')));
  out = join(dir, 'out');
  mkdirSync(out);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Node's calls, each recording the paths it is given under the method's name, from the commit's first write (its
 * lock, taken once the folders are opened): the outputs' names are looked at by name before, to make their folders.
 */
function recordingFs(seen: Map<string, string[]>): Partial<CommitFs> {
  let pinned = false;
  const note = (method: string, ...paths: string[]) => {
    if (method === 'writeFileSync') pinned = true;
    if (pinned) seen.set(method, [...(seen.get(method) ?? []), ...paths]);
  };
  const write = (p: string, d: Uint8Array | string, o?: { flag?: string; mode?: number }) =>
    writeFileSync(p, d, { flag: o?.flag ?? 'w', mode: o?.mode });
  return {
    writeFileSync: (p, d, o) => (note('writeFileSync', p), write(p, d, o)),
    writePiecesSync: (p, d, o) => (note('writePiecesSync', p), write(p, Buffer.concat(d), o)),
    writeAsync: async (p, d, o) => {
      note('writeAsync', p);
      write(p, d instanceof Uint8Array ? d : Buffer.concat(d), o);
    },
    renameSync: (a, b) => (note('renameSync', a, b), renameSync(a, b)),
    linkSync: (a, b) => (note('linkSync', a, b), linkSync(a, b)),
    copyFileSync: (a, b) => (note('copyFileSync', a, b), copyFileSync(a, b)),
    unlinkSync: (p) => (note('unlinkSync', p), unlinkSync(p)),
    lstatSync: (p) => (note('lstatSync', p), lstatSync(p)),
    readdirSync: (p) => (note('readdirSync', p), readdirSync(p)),
    readSmallFile: (p, max) => (note('readSmallFile', p), readSmallFile(p, max)),
  };
}

const outputs = (text: string) => [
  { path: join(out, 'a.res8'), bytes: new TextEncoder().encode(text) },
  {
    path: join(out, 'a.res19'),
    bytes: new TextEncoder().encode(`${text}!`),
    pieces: [new TextEncoder().encode(text), new TextEncoder().encode('!')],
  },
];

it.runIf(process.platform === 'linux')(
  'every file-system call of a pinned commit in its folder goes through the folder checked',
  async () => {
    const folder = pinFolder(out)!;
    // A commit killed at its first install: its journal, temps and backups are the next commit's to finish.
    commitOutputs(outputs('one'), { folders: [folder] });
    const killed = Object.assign(new Error('killed'), { name: 'CommitKilled' });
    expect(() =>
      commitOutputs(outputs('two'), {
        folders: [folder],
        onStep: (_, label) => {
          if (label === 'install 1') throw killed;
        },
      }),
    ).toThrow('killed');
    const seen = new Map<string, string[]>();
    commitOutputs(outputs('three'), { folders: [folder], fs: recordingFs(seen) });
    await commitOutputsAsync(outputs('four'), { folders: [folder], fs: recordingFs(seen) });
    // A file system without hard links: the backups are copies.
    const noLinks = recordingFs(seen);
    noLinks.linkSync = () => {
      throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    };
    commitOutputs(outputs('five'), { folders: [folder], fs: noLinks });
    expect(readFileSync(join(out, 'a.res8'), 'utf8')).toBe('five');
    expect(readFileSync(join(out, 'a.res19'), 'utf8')).toBe('five!');
    // Each kind of call was made, so each was looked at.
    expect([...seen.keys()].sort()).toEqual(
      [
        'copyFileSync',
        'linkSync',
        'lstatSync',
        'readSmallFile',
        'readdirSync',
        'renameSync',
        'unlinkSync',
        'writeAsync',
        'writeFileSync',
        'writePiecesSync',
      ].sort(),
    );
    const byName = [...seen].flatMap(([method, paths]) =>
      paths.filter((p) => p === out || p.startsWith(`${out}/`)).map((p) => `${method} ${p}`),
    );
    expect(byName).toEqual([]);
  },
);
