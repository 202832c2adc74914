/**
 * How an existing `.res8` / `.res19` is recognised as an MSH export's before a commit replaces it: the export's
 * node list beside it names it (the same file) and gives its size. Each way another file of that name could pass.
 */
import {
  copyFileSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportMshFiles } from '../../shared/msh/files';
import { MSH_NODES_FORMAT } from '../../shared/msh/nodesJson';
import { readMtn } from '../../shared/mtn/read';
import { ASSETS } from '../testing/handlerHarness';
import { otherKindProblem } from './commit';
import { MSH_NODES_READ_LIMIT, mshOutputKind, namedByNodeList } from './mshOutputKinds';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-msh-kinds-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An export of the sample walk as `dir/PREFIX.*`, as every export writes it. */
function exportAs(prefix: string): { res8: string; res19: string; nodes: string; text: string } {
  const out = exportMshFiles(
    readMtn(readFileSync(join(ASSETS, 'walk.mtn'))),
    { positionTolerance: 0.5, rotationToleranceDeg: 0.5 },
    { source: 'walk.mtn', baseName: prefix },
  );
  const p = join(dir, prefix);
  writeFileSync(`${p}.res8`, out.res8);
  writeFileSync(`${p}.res19`, out.res19);
  writeFileSync(`${p}.nodes.json`, out.nodesJson);
  return { res8: `${p}.res8`, res19: `${p}.res19`, nodes: `${p}.nodes.json`, text: out.nodesJson };
}

describe('an MSH payload is recognised by the node list beside it', () => {
  it("accepts an export's own .res8 and .res19, also through the commit's kind check", () => {
    const e = exportAs('walk');
    expect(namedByNodeList(e.res8, 'res8')).toBe(true);
    expect(namedByNodeList(e.res19, 'res19')).toBe(true);
    for (const path of [e.res8, e.res19, e.nodes])
      expect(otherKindProblem({ path, kind: mshOutputKind(path, 'move it') })).toBeUndefined();
  });

  it('refuses one with no node list beside it, or a node list that is not an export', () => {
    const e = exportAs('walk');
    rmSync(e.nodes);
    expect(namedByNodeList(e.res8, 'res8')).toBe(false);
    writeFileSync(e.nodes, '{"nodes": []}\n');
    expect(namedByNodeList(e.res8, 'res8')).toBe(false);
    writeFileSync(e.nodes, e.text.replace('"res8": {', '"res8": 3, "x": {'));
    expect(namedByNodeList(e.res8, 'res8')).toBe(false);
  });

  it("refuses one whose size is not the node list's (another tool's file put there since)", () => {
    const e = exportAs('walk');
    truncateSync(e.res8, readFileSync(e.res8).length - 24);
    expect(namedByNodeList(e.res8, 'res8')).toBe(false);
    truncateSync(e.res19, readFileSync(e.res19).length + 2);
    expect(namedByNodeList(e.res19, 'res19')).toBe(false);
  });

  it('refuses a payload the node list beside it does not name (a copied list names its own prefix)', () => {
    const e = exportAs('walk');
    copyFileSync(e.res8, join(dir, 'other.res8'));
    copyFileSync(e.nodes, join(dir, 'other.nodes.json'));
    expect(namedByNodeList(join(dir, 'other.res8'), 'res8')).toBe(false);
    // A list naming its payload through a path, not beside it, names nothing (even that same file).
    writeFileSync(
      e.nodes,
      e.text.replace('"file": "walk.res8"', '"file": "../' + dir.split('/').pop() + '/walk.res8"'),
    );
    expect(namedByNodeList(e.res8, 'res8')).toBe(false);
  });

  it('accepts a hard link only under the name the list gives; refuses a node list that is a link or too large', () => {
    const e = exportAs('walk');
    linkSync(e.res8, join(dir, 'hard.res8'));
    expect(namedByNodeList(e.res8, 'res8')).toBe(true);
    expect(namedByNodeList(join(dir, 'hard.res8'), 'res8')).toBe(false);
    // The list itself only as a plain file: a link to the export's own list is not read.
    renameSync(e.nodes, join(dir, 'kept.json'));
    symlinkSync(join(dir, 'kept.json'), e.nodes);
    expect(namedByNodeList(e.res8, 'res8')).toBe(false);
    rmSync(e.nodes);
    writeFileSync(e.nodes, e.text + ' '.repeat(MSH_NODES_READ_LIMIT));
    expect(namedByNodeList(e.res8, 'res8')).toBe(false);
  });

  it("a .nodes.json is an export's node list only when the mark starts it, not when a JSON of the user's quotes it", () => {
    const e = exportAs('walk');
    const kind = mshOutputKind(e.nodes, 'move it');
    writeFileSync(e.nodes, `\uFEFF {\n  "format": "${MSH_NODES_FORMAT}", "x": 1}`);
    expect(otherKindProblem({ path: e.nodes, kind })).toBeUndefined();
    writeFileSync(e.nodes, `{"notes": "mine", "copied": {"format": "${MSH_NODES_FORMAT}"}}\n`);
    expect(otherKindProblem({ path: e.nodes, kind })).toBe(
      `refused to replace ${e.nodes}: it is already there and is not the node list of an ActGuy MSH export (those start {"format": "${MSH_NODES_FORMAT}"); move it`,
    );
  });
});
