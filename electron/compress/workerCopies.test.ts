import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The app's compress worker lives as long as the app and compresses on every edit, so it must never detach one
 * of its own buffers: the first detach in an isolate makes V8 recompile every optimized function that reads a
 * typed array (docs/performance.md). A message posted without a transfer list is copied; this checks that every
 * postMessage of the worker passes none. (The build pool's worker is checked by running it: parallel.test.ts.)
 */
const WORKER = join(__dirname, '..', 'compressWorker.ts');

/** Each `x.postMessage(...)` call of a source file: its line and argument count. */
function postMessageCalls(file: string): { line: number; args: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const calls: { line: number; args: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'postMessage'
    )
      calls.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, args: node.arguments.length });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

describe('the compress worker', () => {
  it('copies every message it posts (no transfer list)', () => {
    const calls = postMessageCalls(WORKER);
    expect(calls.length).toBeGreaterThanOrEqual(4); // result, aborted, msh, error
    expect(calls.filter((c) => c.args !== 1)).toEqual([]);
  });
});
