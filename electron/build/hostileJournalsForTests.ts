/**
 * Planted commit journals for the refusal tests (CLI build, app build, MSH
 * export): each one a way a received folder could try to make the next run
 * overwrite or delete files that are not its outputs, or act on a journal it
 * did not write. Every case must leave every file byte-identical and refuse,
 * naming the journal. See docs/safety-journal.md.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface JournalScene {
  /** The outputs of the run under test, absolute, in commit order (the journal sits beside the first). */
  outputs: string[];
  /** Files the project reads (the .mtn, the .sev): a journal must never reach them. */
  inputs: string[];
  /** A folder outside the project, with files a journal must never reach. */
  outside: string;
}

interface HostileJournal {
  name: string;
  /** Plants the journal (and whatever files it points at). */
  plant(scene: JournalScene): void;
}

export const journalOf = (outputs: readonly string[]) => `${outputs[0]}.actguy-commit`;
const json = (v: unknown) => `${JSON.stringify(v, null, 1)}\n`;
/** A name of the tool's own temp naming beside `path`. */
const own = (path: string, kind: 'new' | 'old', tag = 'a1') => `${path}.actguy-${kind}.otherhost.4242.${tag}.tmp`;

/** Files outside the outputs for the journal to aim at; returns their paths. */
function bait(s: JournalScene): { keep: string; payload: string; gone: string } {
  const keep = join(s.outside, 'keep.txt');
  const payload = join(s.outside, 'payload.txt');
  const gone = join(s.outside, 'gone.txt');
  writeFileSync(keep, 'the user keeps this\n');
  writeFileSync(payload, 'attacker bytes\n');
  writeFileSync(gone, 'must not be deleted\n');
  return { keep, payload, gone };
}

/** A journal in the shape this tool writes, for exactly the scene's outputs (legitimate but for what `edit` changes). */
function ours(
  s: JournalScene,
  edit: (j: {
    state: string;
    outputs: string[];
    entries: { path: string; temp: string; backup: string | null }[];
  }) => void = () => {},
) {
  const j = {
    tool: 'actguy commit',
    version: 2,
    state: 'forward',
    outputs: [...s.outputs],
    entries: s.outputs.map((path) => ({ path, temp: own(path, 'new'), backup: own(path, 'old') as string | null })),
  };
  edit(j);
  return j;
}

export const HOSTILE_JOURNALS: HostileJournal[] = [
  {
    name: 'forward: entries outside the outputs and at a project input (the old format)',
    plant(s) {
      const b = bait(s);
      writeFileSync(
        journalOf(s.outputs),
        json({
          tool: 'actguy commit',
          version: 1,
          state: 'forward',
          entries: [
            { path: b.keep, temp: b.payload, backup: b.gone },
            { path: s.inputs[0], temp: b.payload, backup: null },
          ],
        }),
      );
    },
  },
  {
    name: 'back: deletes an outside file and a project input (the old format)',
    plant(s) {
      const b = bait(s);
      writeFileSync(
        journalOf(s.outputs),
        json({
          tool: 'actguy commit',
          version: 1,
          state: 'back',
          entries: [
            { path: b.keep, temp: join(s.outside, 'none'), backup: null },
            { path: s.inputs[s.inputs.length - 1], temp: join(s.outside, 'none2'), backup: null },
          ],
        }),
      );
    },
  },
  {
    name: 'relative entries (resolved against the working folder)',
    plant(s) {
      bait(s);
      writeFileSync(
        journalOf(s.outputs),
        json(
          ours(s, (j) => {
            j.outputs = j.outputs.map((p) => basename(p));
            j.entries = j.entries.map((e) => ({ path: basename(e.path), temp: basename(s.inputs[0]), backup: null }));
          }),
        ),
      );
    },
  },
  {
    name: 'absolute entries naming the project inputs as the outputs',
    plant(s) {
      bait(s);
      writeFileSync(
        journalOf(s.outputs),
        json(
          ours(s, (j) => {
            j.state = 'back';
            j.outputs = s.outputs.map((_, k) => s.inputs[k % s.inputs.length]);
            j.entries = j.outputs.map((path) => ({ path, temp: own(path, 'new'), backup: null }));
          }),
        ),
      );
    },
  },
  {
    name: 'the right outputs listed, an entry pointing outside',
    plant(s) {
      const b = bait(s);
      writeFileSync(
        journalOf(s.outputs),
        json(
          ours(s, (j) => {
            j.entries[0] = { path: b.keep, temp: b.payload, backup: b.gone };
          }),
        ),
      );
    },
  },
  {
    name: 'a temp of the right name, but not beside its output',
    plant(s) {
      bait(s);
      const elsewhere = join(s.outside, basename(own(s.outputs[0], 'new')));
      writeFileSync(elsewhere, 'attacker bytes\n');
      writeFileSync(journalOf(s.outputs), json(ours(s, (j) => (j.entries[0].temp = elsewhere))));
    },
  },
  {
    name: 'a temp beside its output that is a project input (not of the temp naming)',
    plant(s) {
      bait(s);
      writeFileSync(
        journalOf(s.outputs),
        json(ours(s, (j) => (j.entries[0].temp = join(dirname(s.outputs[0]), basename(s.inputs[0]))))),
      );
    },
  },
  {
    name: 'a backup that is another output',
    plant(s) {
      writeFileSync(
        journalOf(s.outputs),
        json(
          ours(s, (j) => {
            j.state = 'back';
            j.entries[0].backup = s.outputs[1];
          }),
        ),
      );
    },
  },
  {
    name: 'a journal of our shape that is a symbolic link',
    plant(s) {
      const b = bait(s);
      for (const p of s.outputs) writeFileSync(own(p, 'new'), 'attacker bytes\n');
      const target = join(s.outside, 'journal.json');
      writeFileSync(target, json(ours(s)));
      symlinkSync(target, journalOf(s.outputs));
      void b;
    },
  },
  {
    name: 'a temp of the right name beside its output that is a symbolic link to an outside file',
    plant(s) {
      const b = bait(s);
      symlinkSync(b.keep, own(s.outputs[0], 'new'));
      writeFileSync(journalOf(s.outputs), json(ours(s, (j) => j.entries.forEach((e) => (e.backup = null)))));
    },
  },
  {
    name: 'written for other outputs (one output missing from the list)',
    plant(s) {
      writeFileSync(
        journalOf(s.outputs),
        json(
          ours(s, (j) => {
            j.state = 'back';
            j.outputs.pop();
            j.entries.pop();
          }),
        ),
      );
    },
  },
  {
    // The files are the outputs, and a journal naming them so passed the check by identity (folder and name) while
    // its writer needs to know nothing of where they lie: `/proc/self/cwd/out/stage.mar` is the .mar of whoever
    // builds from the project folder (round 13, docs/security.md). Rolled back, it deleted every output, an MSH
    // export's files too, which the build checks are its own before replacing them.
    name: 'the right outputs, spelled through a link to their folder (state back: deletes them)',
    plant(s) {
      const aliases = new Map<string, string>();
      const spelled = s.outputs.map((o) => {
        let alias = aliases.get(dirname(o));
        if (!alias) {
          alias = join(s.outside, `alias-${aliases.size}`);
          symlinkSync(dirname(o), alias);
          aliases.set(dirname(o), alias);
        }
        return join(alias, basename(o));
      });
      writeFileSync(
        journalOf(s.outputs),
        json({
          tool: 'actguy commit',
          version: 2,
          state: 'back',
          outputs: spelled,
          entries: spelled.map((path) => ({ path, temp: own(path, 'new'), backup: null })),
        }),
      );
    },
  },
  {
    name: 'malformed JSON',
    plant(s) {
      writeFileSync(journalOf(s.outputs), '{"tool": "actguy commit" "state": "forward"}\n');
    },
  },
  {
    name: 'a huge journal',
    plant(s) {
      writeFileSync(journalOf(s.outputs), `${' '.repeat(8 << 20)}${json(ours(s))}`);
    },
  },
  {
    name: 'a FIFO in place of the journal (reading it must not block)',
    plant(s) {
      const r = spawnSync('mkfifo', [journalOf(s.outputs)]);
      if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
    },
  },
];

/**
 * Every file under `root` with a SHA-256 of its bytes (a link: its target
 * text; a FIFO or other special file: its kind), folders left out: two equal
 * results mean no file was changed, added or removed.
 */
export function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isSymbolicLink()) out[p] = `link ${readlinkSync(p)}`;
      else if (st.isFile()) out[p] = createHash('sha256').update(readFileSync(p)).digest('hex');
      else out[p] = 'special';
    }
  };
  walk(root);
  return out;
}

/** Makes `outside` (a folder beside the project) for a scene. */
export function outsideFolder(root: string): string {
  const d = join(root, 'outside');
  mkdirSync(d, { recursive: true });
  return d;
}
