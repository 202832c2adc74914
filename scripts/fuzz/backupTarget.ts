/**
 * Fuzz target `backup`: the copies of unsaved work that hot exit keeps in `<userData>/Backups/<part>.json`
 * (electron/unsavedBackups.ts, docs/install.md#unsaved-work-after-a-crash), as anyone who can write the user profile
 * could leave them. Each input is written as one part's file in a scratch Backups folder (the part its text names,
 * now and then another) and read back by the real store at start-up (createBackupStore).
 *
 * Judged: any throw is a crash; a copy kept must hold up as main checks a copy (checkBackup), name an absolute path
 * (a copy's path is the file main holds, never relative), list absolute inputs, and survive its own file: kept again
 * by the store and read by a fresh one, the same copy and inputs, without a word. A copy refused must be said with a
 * message naming the file and where its text goes wrong, and be moved aside (`<part>.json.bad-<time>`), never left
 * to be read again. Nothing may be written outside the Backups folder.
 */
import { writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { BackupPart, UnsavedBackup } from '../../shared/ipc/backups';
import { writeMtn } from '../../shared/mtn/write';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { BACKUP_PARTS, backupFileBytes, checkBackup, createBackupStore } from '../../electron/unsavedBackups';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import { mustLocate, namesIn, withScratchAsync } from './scratch';

const TOKENS = [
  '1e309',
  '-1',
  '0',
  'null',
  '"motion"',
  '"sev"',
  '"project"',
  '"AAAA"',
  '"=="',
  '"part": "sev", "part"',
];
const STRINGS = [
  'motion',
  'sev',
  'project',
  '/p/walk.mtn',
  '/p/walk.sev',
  'walk.sev',
  '../outside/sentinel.txt',
  '/p/../../etc/passwd',
  'C:\\p\\walk.sev',
  '\\\\host\\share\\walk.sev',
  '/p/wa\u0000lk.sev',
  '/p/\u202ewalk.sev',
  'refined',
  'classic',
  'AAAA',
  'TU9UTg==',
  '__proto__',
  '00000',
  '99999',
];

function seeds(): Uint8Array[] {
  const motion = syntheticMotion({ frames: 4, joints: 2, seed: 3, userKeys: 1, locks: 1, traceKeys: 1 });
  const copies: [unknown, string[]][] = [
    [
      {
        part: 'motion',
        documentId: 'doc-1',
        name: 'walk',
        path: '/p/walk.mtn',
        editedAt: 1_700_000_000_000,
        mtnBytes: writeMtn(motion),
        tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.1, method: 'classic' },
        rotationOverridesDeg: { 0: 1, 1: 2.5 },
      },
      ['/p/walk.mt3', '/p/walk.mtn'],
    ],
    [
      {
        part: 'sev',
        name: 'walk.sev',
        path: '/p/walk.sev',
        motionName: 'walk',
        editedAt: 5,
        text: 'sev 1\nmotion walk\n',
      },
      [],
    ],
    [
      {
        part: 'project',
        name: 'stage',
        path: '/p/stage.actguy.json',
        editedAt: 6.5,
        text: '{"version":1,"motions":[]}',
      },
      [],
    ],
  ];
  // The bytes the store writes for each copy (its put writes them off the main thread; seeds are made at once).
  return copies.map(([copy, inputs]) => {
    const b = checkBackup(copy, null);
    // A motion's copy keeps what its edits were made over (loadedFiles.ts LoadedPair): the fuzzer reaches its check too.
    return b.part === 'motion'
      ? backupFileBytes(b, inputs, {
          mtn: { kind: 'file', size: 152224, mtimeMs: 1.7e12, sha256: 'ab'.repeat(32) },
          tuning: { kind: 'absent' },
        })
      : backupFileBytes(b, []);
  });
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

/** The part file an input is written as: the part its text names, and now and then another. */
function partFor(input: Uint8Array): BackupPart {
  const named = /"part"\s*:\s*"(motion|sev|project)"/.exec(Buffer.from(input.subarray(0, 4096)).toString('latin1'));
  const k = named ? BACKUP_PARTS.indexOf(named[1] as BackupPart) : 0;
  return BACKUP_PARTS[(k + (input.byteLength % 11 === 0 ? 1 : 0)) % 3];
}

/** A copy as plain JSON, for comparing (the MTN bytes as a list). */
const plain = (b: UnsavedBackup) =>
  JSON.stringify(b.part === 'motion' ? { ...b, mtnBytes: Array.from(b.mtnBytes) } : b);

async function runIn(dir: string, input: Uint8Array): Promise<Outcome> {
  const part = partFor(input);
  const file = join(dir, `${part}.json`);
  writeFileSync(file, input);
  const warnings: string[] = [];
  let held: ReturnType<ReturnType<typeof createBackupStore>['held']>;
  let store: ReturnType<typeof createBackupStore>;
  try {
    store = createBackupStore(dir, (m) => warnings.push(m));
    held = store.held();
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  if (held.backups.length === 0) {
    must(held.setAside.length === 1 && warnings.length === 1, `refused with ${held.setAside.length} messages`);
    if (!held.setAside[0].startsWith(`The backup ${file} could not be used (`))
      throw new FuzzDefect('unnamed', `message not naming ${file}: ${held.setAside[0].slice(0, 200)}`);
    mustLocate(held.setAside[0]);
    const left = namesIn(dir);
    must(left.length === 1 && left[0].startsWith(`${part}.json.bad-`), `left in the folder: ${left.join(', ')}`);
    return 'rejected';
  }
  must(held.backups.length === 1 && held.setAside.length === 0 && warnings.length === 0, 'kept more than one file');
  const copy = held.backups[0];
  must(copy.part === part, `kept a ${copy.part} copy from ${part}.json`);
  try {
    checkBackup(copy, null);
  } catch (e) {
    throw new FuzzDefect('invalid', `kept a copy main refuses: ${describeThrown(e)}`);
  }
  if (copy.path !== null)
    must(
      isAbsolute(copy.path) && !copy.path.includes('\0'),
      `kept the path ${JSON.stringify(copy.path).slice(0, 100)}`,
    );
  const inputs = store.inputsOf(part);
  for (const p of inputs) must(isAbsolute(p) && !p.includes('\0'), `kept the input ${JSON.stringify(p).slice(0, 100)}`);
  // Kept again as the store keeps a copy, then read by a fresh store: the same copy, the same inputs, no word.
  await store.put(copy, null, inputs);
  const again = createBackupStore(dir, (m) => warnings.push(m));
  const back = again.held();
  must(warnings.length === 0 && back.setAside.length === 0, `the copy kept does not read back: ${warnings[0]}`);
  must(back.backups.length === 1 && plain(back.backups[0]) === plain(copy), 'the copy kept reads back as another');
  must(JSON.stringify(again.inputsOf(part)) === JSON.stringify(inputs), 'the inputs kept read back as others');
  const left = namesIn(dir);
  must(left.join() === `${part}.json`, `left in the folder: ${left.join(', ')}`);
  return 'accepted';
}

export const backupTarget: FuzzTarget = {
  name: 'backup',
  ext: 'json',
  seeds,
  mutate,
  run: (input) => withScratchAsync('backup', ({ state }) => runIn(state, input)),
};
