/**
 * What an existing file at one of an MSH export's three names (`PREFIX.res8`, `.res19`, `.nodes.json`) must be
 * for a build's `outputs.msh`, File > Export MSH or `actguy export-msh` to replace it (docs/security.md). Those
 * names are also what people's own files are called -- a received project naming `outputs.msh` onto a folder of
 * the user's files, an export's prefix beside another tool's key pool -- so each is recognised before it goes:
 *
 * - a `.nodes.json` starts as every export's does (`{"format": "actguy msh-anim nodes"`);
 * - a `.res8` or `.res19` is raw payload with no mark of its own (docs/formats.md, MSH-ANIM): it is an export's
 *   when the export's node list beside it (same prefix) names it as its payload (`res8.file`, `res19.file`: the
 *   same file) and its size is the one that list's attributes give (`attr1` keys of 24 bytes, `attr1` words of 2).
 *   Every export commits the three together, so an export's payload always has that list beside it; another
 *   file of that name does not, or has another size.
 */
import { dirname, join } from 'node:path';
import { statSync } from 'node:fs';
import { MSH_KEY_BYTES } from '../../shared/msh/constants';
import { MSH_FILE_SUFFIXES } from '../../shared/msh/files';
import { MSH_NODES_FORMAT, parseMshNodesJson } from '../../shared/msh/nodesJson';
import { readSmallFile } from '../fsutil';
import { sameFile } from '../pathIdentity';
import type { OutputKind } from './commit';

/** The largest node list read to recognise a payload beside it (an export's is about 250 bytes a node). */
export const MSH_NODES_READ_LIMIT = 16 * 1024 * 1024;

const MSH_NODES_START = new RegExp(`^\\uFEFF?\\s*\\{\\s*"format"\\s*:\\s*"${MSH_NODES_FORMAT}"`);

/** Whether `at` is the `which` payload the export's node list beside it names, of the size that list gives. */
export function namedByNodeList(at: string, which: 'res8' | 'res19'): boolean {
  const suffix = MSH_FILE_SUFFIXES[which];
  if (!at.endsWith(suffix)) return false;
  const listPath = `${at.slice(0, -suffix.length)}${MSH_FILE_SUFFIXES.nodes}`;
  const list = readSmallFile(listPath, MSH_NODES_READ_LIMIT);
  if (list === undefined || 'problem' in list) return false;
  let parsed: ReturnType<typeof parseMshNodesJson>;
  try {
    parsed = parseMshNodesJson(list.text, listPath);
  } catch {
    return false;
  }
  const file = which === 'res8' ? parsed.res8File : parsed.res19File;
  // A payload is named by its file name alone, beside the list.
  if (/[\\/]/.test(file) || file === '.' || file === '..') return false;
  const size = which === 'res8' ? parsed.attrs.res8.attr1 * MSH_KEY_BYTES : parsed.attrs.res19.attr1 * 2;
  try {
    return statSync(at).size === size && sameFile(join(dirname(at), file), at);
  } catch {
    return false;
  }
}

/**
 * The kind an MSH export's file at `path` must be to be replaced, told by its name's ending; undefined for a path
 * that is none of the three. `instead` says what the user can do when it is not.
 */
export function mshOutputKind(path: string, instead: string): OutputKind | undefined {
  if (path.endsWith(MSH_FILE_SUFFIXES.nodes))
    return {
      name: 'the node list of an ActGuy MSH export',
      told: `those start {"format": "${MSH_NODES_FORMAT}"`,
      headBytes: 256,
      accepts: (head) => MSH_NODES_START.test(new TextDecoder().decode(head)),
      instead,
    };
  for (const which of ['res8', 'res19'] as const)
    if (path.endsWith(MSH_FILE_SUFFIXES[which]))
      return {
        name: `the ${which === 'res8' ? 'key pool' : 'frame map'} of an ActGuy MSH export`,
        told: `an export's .nodes.json beside it names it, with its size`,
        headBytes: 1,
        accepts: (_head, at) => namedByNodeList(at, which),
        instead,
      };
  return undefined;
}

/** The three files of an MSH export (or any list of them), each marked with its kind (`mshOutputKind`). */
export function markMshOutputs<T extends { path: string }>(
  files: readonly T[],
  instead: string,
): (T & { kind?: OutputKind })[] {
  return files.map((f) => {
    const kind = mshOutputKind(f.path, instead);
    return kind ? { ...f, kind } : f;
  });
}
