/**
 * Round 12 (docs/security.md): the warnings about a bidirectional formatting character (shared/bidiText.ts) reach the
 * user: `check-sev` prints them (`pack-sar` too) with the file's place and still succeed, and a build (CLI and app) lists
 * those of the project, its .sev files and SE tables among its warnings.
 * Mutations that fail: loadSev's `warnings` left empty (check-sev), plan.ts not pushing parseSev's warnings
 * (build), build.ts or buildJob.ts not adding the project's own warnings (build, app's Build), the tables' bidiWarnings calls removed (build).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildProject } from '../build/build';
import { inProcessCompressor } from '../build/compressPool';
import { runBuildJob, type BuildJobMessage } from '../project/buildJob';
import { readBuildInput } from '../build/files';
import { checkSevCommand } from './commands/check-sev';

const ASSETS = join(__dirname, '..', '..', 'assets');
const RLO = '\u202e';
let dir: string;
let out: string[];
let err: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-bidi-'));
  for (const f of [
    'walk.mtn',
    'walk.sev',
    'cmu_01_01.mtn',
    'cmu_01_01.sev',
    'walk_60fps.mtn',
    'default.sls',
    'se_define.h',
    'sample.actguy.json',
  ])
    cpSync(join(ASSETS, f), join(dir, f));
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** Appends a comment line holding U+202E to a file; returns the line number it is on. */
function plant(file: string, comment: string): number {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, `${text}${comment}${RLO}x\n`);
  return text.split('\n').length;
}

describe('bidirectional characters in comments are reported', () => {
  it('check-sev warns at file:line:column and passes', async () => {
    const line = plant('walk.sev', '# ');
    const code = await checkSevCommand.run([join(dir, 'walk.sev')]);
    expect(code).toBe(0);
    const warned = err.join('\n');
    expect(warned).toContain(`${join(dir, 'walk.sev')}:${line}:3: a bidirectional formatting character, U+202E`);
    expect(warned).not.toContain(RLO);
    expect(out.join('\n')).toMatch(/^ok: 1 file/);
  });

  it('a build lists those of the project, its .sev and its SE tables', async () => {
    const sevLine = plant('walk.sev', '# ');
    const slsLine = plant('default.sls', '; ');
    const defLine = plant('se_define.h', '// ');
    const project = join(dir, 'sample.actguy.json');
    writeFileSync(project, readFileSync(project, 'utf8').replace('"$schema": "', `"$schema": "${RLO}`));
    const r = await buildProject(project, { dryRun: true, cacheDir: null, compressor: inProcessCompressor() });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
    const bidi = r.warnings.map((w) => w.message).filter((m) => m.includes('bidirectional'));
    expect(bidi.map((m) => m.slice(0, m.indexOf(': a ')))).toEqual([
      `${project}:2:15`,
      `${join(dir, 'default.sls')}:${slsLine}:3`,
      `${join(dir, 'se_define.h')}:${defLine}:4`,
      `${join(dir, 'walk.sev')}:${sevLine}:3`,
    ]);
  });

  it("the app's Build lists the project's own, even when its inputs fail", async () => {
    const project = join(dir, 'sample.actguy.json');
    rmSync(join(dir, 'walk.mtn'));
    const text = readFileSync(project, 'utf8').replace('"$schema": "', `"$schema": "${RLO}`);
    const posted: BuildJobMessage[] = [];
    await runBuildJob({ projectPath: project, projectText: text, sevTexts: [], cacheDir: null }, readBuildInput, (m) =>
      posted.push(m),
    );
    const last = posted.at(-1)!;
    expect(last.type).toBe('failed');
    expect(last.type === 'failed' && last.warnings[0]).toMatch(
      new RegExp(`^${project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:15: a bidirectional formatting character`),
    );
  });
});
