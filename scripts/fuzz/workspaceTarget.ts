/**
 * Fuzz target `workspace` (added 2026-12-05): what the browser build's picker asks of the workspace folder
 * (electron/workspaceListing.ts) — its listing (`listWorkspace`: fileExtensions, listFiles) and New Folder
 * (`makeWorkspaceFolder`: makeFolder) — on a scratch workspace the input builds: files, folders and links with any
 * names, links out of the workspace, to itself and in a loop. Each input is a JSON document: `ext` (the page's
 * extensions), `tree` (`"a/b.mtn"` a file, `"d/"` a folder, `"x -> target"` a link; `@O` in a target stands for a
 * folder beside the workspace), `parent` and `name` (New Folder's arguments). Judged:
 * - the listing never throws; every file it lists lies inside the workspace (links resolved), at its relative path,
 *   of an extension asked for, once, each folder's files under one spelling of it (however many links lead to it);
 *   every folder it offers is a folder of the workspace itself, not through a link;
 * - New Folder either makes exactly the one folder it answers, inside the workspace and new, or refuses in words
 *   naming New Folder (or the argument) and makes nothing; nothing beside the workspace changes (withScratch);
 * - accepted when the extensions and New Folder were taken, rejected when either was refused.
 */
import { lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { canonicalPath, isInside } from '../../electron/pathPolicy';
import { fileExtensions, listFiles, makeFolder, WORKSPACE_MAX_FILES } from '../../electron/workspaceListing';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import { withScratch } from './scratch';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

const TOKENS = ['"/"', '"\\\\"', '".."', '"."', '""', '"mtn"', '".MTN"', 'null', '[]', '"a/"', '"x -> @O"', '"y -> y"'];
const STRINGS = [
  'mtn',
  '.mtn',
  'MTN',
  'res8',
  'out',
  'out/',
  'out/msh/',
  'out/walk.mtn',
  '.hidden/x.mtn',
  'node_modules/x.mtn',
  'up -> @O',
  'in -> out',
  'loop -> loop',
  'a -> b',
  'b -> a',
  'root -> .',
  'abs -> /',
  'file -> out/walk.mtn',
  'deep/a/b/c/d/e/f/g/h/i/j.mtn',
  '..',
  '.',
  '',
  '/',
  'a/b',
  '\\',
  'new',
  'out/new',
  'x\u0000y',
  'x\u202ey',
  'é'.repeat(200),
  'a'.repeat(256),
  'WALK.MTN',
];

function seeds(): Uint8Array[] {
  return [
    { ext: ['mtn'], tree: ['walk.mtn', 'out/', 'out/run.mtn', 'out/msh/x.res8', 'up -> @O'], parent: '', name: 'new' },
    { ext: ['res8', 'glb'], tree: ['a/b/c.glb', 'in -> a', 'loop -> loop', '.hidden/x.glb'], parent: 'a', name: 'msh' },
    { ext: null, tree: ['x.mtn', 'file -> x.mtn', 'root -> .'], parent: 'out', name: 'n' },
  ].map((d) => utf8(JSON.stringify(d)));
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

/** Builds the tree inside `root` (nothing named with `..`, from the root up or deeper than 12); what cannot be made is left out. */
function buildTree(root: string, outside: string, tree: unknown): void {
  if (!Array.isArray(tree)) return;
  for (const entry of tree.slice(0, 40)) {
    if (typeof entry !== 'string') continue;
    const [at, target] = entry.split(' -> ');
    const parts = at.split('/');
    // At most 12 levels: the listing's own bound is 8, and a tree 2,000 folders deep overflows rmSync's stack.
    if (at.startsWith('/') || parts.length > 12 || parts.some((p) => p === '..' || p === '.')) continue;
    const path = join(root, ...parts.filter(Boolean));
    if (path === root) continue;
    try {
      if (target !== undefined) {
        mkdirSync(join(path, '..'), { recursive: true });
        symlinkSync(target.split('@O').join(outside), path);
      } else if (at.endsWith('/')) mkdirSync(path, { recursive: true });
      else {
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, 'x');
      }
    } catch {
      /* a name the file system refuses, or a path through a file: left out */
    }
  }
}

/** Every entry under `dir`, links not followed, with its kind. */
function entries(dir: string, out: Map<string, string> = new Map()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    out.set(p, st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'folder' : 'file');
    if (st.isDirectory() && !st.isSymbolicLink()) entries(p, out);
  }
  return out;
}

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

function checkListing(root: string, wanted: string[] | null): void {
  let listed: ReturnType<typeof listFiles>;
  try {
    listed = listFiles(root, wanted);
  } catch (e) {
    throw new FuzzDefect('crash', `the listing threw: ${describeThrown(e)}`);
  }
  must(listed.files.length <= WORKSPACE_MAX_FILES, `${listed.files.length} files listed`);
  must(new Set(listed.files.map((f) => f.path)).size === listed.files.length, 'a file listed twice');
  // Each folder is walked once: its files are listed under one spelling of it, however many links lead to it.
  const spelled = new Map<string, string>();
  for (const f of listed.files) {
    const folder = dirname(f.path);
    const real = canonicalPath(folder);
    must((spelled.get(real) ?? folder) === folder, `lists files of ${real} as in ${spelled.get(real)} and ${folder}`);
    spelled.set(real, folder);
  }
  for (const f of listed.files) {
    must(f.relativePath === relative(root, f.path).split(sep).join('/'), `${f.path} listed as ${f.relativePath}`);
    must(isInside(root, canonicalPath(f.path)), `listed ${f.path}, which lies outside the workspace`);
    must(f.extension === extname(f.path).slice(1).toLowerCase(), `${f.path} listed as a .${f.extension}`);
    must(wanted === null || wanted.includes(f.extension), `${f.path} is not of ${wanted?.join(', ')}`);
  }
  must(new Set(listed.folders).size === listed.folders.length, 'a folder offered twice');
  for (const folder of listed.folders) {
    const path = join(root, ...folder.split('/'));
    must(!folder.split('/').some((p) => p === '' || p === '.' || p === '..'), `offers the folder ${folder}`);
    let through = root;
    for (const p of folder.split('/')) {
      through = join(through, p);
      must(!lstatSync(through).isSymbolicLink(), `offers ${folder}, which goes through a link`);
    }
    must(lstatSync(path).isDirectory(), `offers ${folder}, which is no folder`);
  }
}

function run(input: Uint8Array): Outcome {
  return withScratch('workspace', (s) => {
    const root = canonicalPath(s.state);
    let doc: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(Buffer.from(input).toString('utf8'));
      doc = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      doc = {};
    }
    buildTree(root, s.outside, doc.tree);
    let outcome: Outcome = 'accepted';
    let wanted: string[] | null = null;
    if (doc.ext !== undefined && doc.ext !== null)
      try {
        wanted = fileExtensions(doc.ext);
      } catch (e) {
        must(e instanceof Error && e.message.startsWith('listWorkspace: '), `refused as ${describeThrown(e)}`);
        outcome = 'rejected';
      }
    checkListing(root, wanted);
    const before = entries(root);
    let made: ReturnType<typeof makeFolder> | undefined;
    try {
      made = makeFolder(root, doc.parent as string, doc.name as string);
    } catch (e) {
      if (e instanceof FuzzDefect) throw e;
      must(
        e instanceof Error && /^(New folder|makeWorkspaceFolder: )/.test(e.message),
        `refused as ${describeThrown(e)}`,
      );
      outcome = 'rejected';
    }
    const after = entries(root);
    const added = [...after.keys()].filter((p) => !before.has(p));
    const gone = [...before.keys()].filter((p) => !after.has(p));
    must(gone.length === 0, `New folder removed ${gone[0]}`);
    if (made) {
      must(added.length === 1 && added[0] === made.path, `New folder answered ${made.path}, made ${added.join(', ')}`);
      must(after.get(made.path) === 'folder', `${made.path} is no folder`);
      must(isInside(root, canonicalPath(made.path)), `made ${made.path}, outside the workspace`);
      must(
        made.relativePath === relative(root, made.path).split(sep).join('/'),
        `made ${made.path} as ${made.relativePath}`,
      );
    } else must(added.length === 0, `New folder refused, yet made ${added[0]}`);
    return outcome;
  });
}

export const workspaceTarget: FuzzTarget = { name: 'workspace', ext: 'json', seeds, mutate, run };
