/**
 * The renderer as built holds no script but those its page names (docs/architecture.md, "Maintainer's read, round
 * 15"). main.ts says a missing script bundle as a failed start, and counts only the scripts `index.html` names
 * (security.ts pageScriptFiles): a lazy chunk (a dynamic `import()`), a worker's bundle (`new Worker(new URL(…))`) or
 * a chunk split off the entry would be asked for by the page after it started, or beside the entry, and a missing
 * one would not be said by main. There is none today; a change that makes one fails here, and must decide first how a
 * missing one is said.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../scripts/app-build.mjs';
import { pageScriptFiles } from './security';

const rendererDir = resolve(__dirname, '..', 'dist', 'renderer');

/** Every script file under `dir`, its sub-folders included. */
function scriptsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(m?js|cjs)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe('the renderer bundle', () => {
  // Built from inside vitest when not fresh, as packaging.test.ts builds it.
  beforeAll(() => buildApp({ quiet: true }), 600_000);

  // Mutation that fails it: a script beside the entry that the page does not name (a lazy chunk's file put in
  // dist/renderer/assets by hand, as `import()` of a module would make one).
  it('holds no script but those its page names: no lazy chunk, no worker bundle, nothing split off the entry', () => {
    const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
    const named = [...pageScriptFiles(html, 'actguy://app/index.html', rendererDir)].sort();
    expect(named).toHaveLength(1);
    expect(scriptsUnder(rendererDir).sort()).toEqual(named);
  });
});
