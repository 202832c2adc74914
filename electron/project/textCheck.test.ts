import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { workerCheckers, workerTextChecker } from './textCheck';
import { checkText } from './textCheckJob';

const workerPath = useBundledWorker(resolve(__dirname, 'textCheckWorker.ts'));
const scratch = mkdtempSync(join(tmpdir(), 'actguy-textcheck-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('text check worker', () => {
  it('parses a SEV and a project in the worker exactly as in-process, errors placed at file:line:column', async () => {
    const check = workerTextChecker(workerPath());
    const sev = { kind: 'sev' as const, path: '/p/walk.sev', text: 'sev 1\nevent 3 9 -\n' };
    const inWorker = await check(sev);
    expect(inWorker).toEqual(checkText(sev));
    expect(inWorker.errors).toEqual(['/p/walk.sev:2:9: event uses undefined SE index 9']);
    const project = {
      kind: 'project' as const,
      path: '/p/a.actguy.json',
      text: JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', sev: '../x/walk.sev' }],
        outputs: { mar: 'out/a.mar', sar: 'out/a.sar' },
      }),
    };
    expect(await check(project)).toEqual({
      errors: [],
      named: {
        inputs: ['/p/walk.mtn', '/x/walk.sev'],
        outputs: ['/p/out/a.mar', '/p/out/a.sar', '/p/out/a.report.json'],
        report: '/p/out/a.report.json',
      },
    });
  });

  it('a checker that does not answer within its budget is stopped, and the save gets a message naming the file', async () => {
    const silent = join(scratch, 'silent.cjs');
    writeFileSync(silent, 'setInterval(() => {}, 1000);\n');
    const check = workerTextChecker(silent, 50);
    await expect(check({ kind: 'sev', path: '/p/huge.sev', text: 'sev 1\n' })).rejects.toThrow(
      '/p/huge.sev: reading the sound-event file took longer than 0.05 s and was stopped',
    );
  });

  it('after a check is stopped for its budget, the next check runs in a fresh worker', async () => {
    const stuckOnce = join(scratch, 'stuck-once.cjs');
    writeFileSync(
      stuckOnce,
      "const { parentPort } = require('node:worker_threads');\n" +
        "parentPort.on('message', ({ id, req }) => { if (req.text === 'hang') for (;;) {} parentPort.postMessage({ id, ok: true, result: { errors: [req.text], named: { inputs: [], outputs: [] } } }); });\n",
    );
    const check = workerTextChecker(stuckOnce, 3000); // ample for a tiny worker to start on a busy machine
    expect(await check({ kind: 'sev', path: '/p/a.sev', text: 'first' })).toEqual({
      errors: ['first'],
      named: { inputs: [], outputs: [] },
    });
    await expect(check({ kind: 'sev', path: '/p/b.sev', text: 'hang' })).rejects.toThrow(
      /^\/p\/b\.sev: reading the sound-event file took longer than 3 s/,
    );
    expect(await check({ kind: 'project', path: '/p/c.actguy.json', text: 'after' })).toEqual({
      errors: ['after'],
      named: { inputs: [], outputs: [] },
    });
  });

  // Maintainer's read, round 16: the app's quit stops the checker (main.ts, will-quit), as it does the compression and
  // build workers. Mutations that fail: dispose not ending the thread (it settles at once; the check it ran is left
  // hanging); a check after dispose starting a worker again (it answers).
  it('dispose ends the thread, even one busy checking, refuses the check it ran and every later one', async () => {
    const hangs = join(scratch, 'hangs-on-cue.cjs');
    writeFileSync(
      hangs,
      "const { parentPort } = require('node:worker_threads');\n" +
        "parentPort.on('message', ({ id, req }) => { parentPort.postMessage({ id, ok: true, result: { errors: [req.text], named: { inputs: [], outputs: [] } } }); if (req.text === 'then hang') for (;;) {} });\n",
    );
    const checkers = workerCheckers(hangs, 60_000);
    // Answered, then busy for good: only terminate() ends it.
    expect(await checkers.text({ kind: 'sev', path: '/p/a.sev', text: 'then hang' })).toEqual({
      errors: ['then hang'],
      named: { inputs: [], outputs: [] },
    });
    const running = expect(checkers.text({ kind: 'sev', path: '/p/b.sev', text: 'never read' })).rejects.toThrow(
      /^\/p\/b\.sev: the text checker was shut down$/,
    );
    await checkers.dispose();
    await running;
    await expect(checkers.text({ kind: 'sev', path: '/p/c.sev', text: 'after' })).rejects.toThrow(
      /^\/p\/c\.sev: the text checker was shut down$/,
    );
    await expect(checkers.motion({ kind: 'motion', mtnBytes: new Uint8Array() })).rejects.toThrow(
      /^the motion check: the text checker was shut down$/,
    );
  });

  it('an unexpected exception in the checker is reported as FILE: message', async () => {
    const throwing = join(scratch, 'throwing.cjs');
    writeFileSync(
      throwing,
      "const { parentPort } = require('node:worker_threads'); parentPort.on('message', ({ id }) => parentPort.postMessage({ id, ok: false, message: 'x.forEach is not a function' }));\n",
    );
    await expect(
      workerTextChecker(throwing)({ kind: 'project', path: '/p/a.actguy.json', text: '{}' }),
    ).rejects.toThrow(/^\/p\/a\.actguy\.json: x\.forEach is not a function$/);
    await expect(
      workerTextChecker(join(scratch, 'missing.cjs'))({ kind: 'sev', path: '/p/b.sev', text: '' }),
    ).rejects.toThrow(/^\/p\/b\.sev: the text checker stopped/);
  });

  it('a thread that dies while checking (an exit, a throw) fails that check naming the file; the next runs in a fresh one', async () => {
    const diesOnCue = join(scratch, 'dies-on-cue.cjs');
    writeFileSync(
      diesOnCue,
      "const { parentPort } = require('node:worker_threads');\n" +
        "parentPort.on('message', ({ id, req }) => { if (req.text === 'exit') process.exit(3); if (req.text === 'throw') throw new Error('lost'); parentPort.postMessage({ id, ok: true, result: { errors: [req.text], named: { inputs: [], outputs: [] } } }); });\n",
    );
    const check = workerTextChecker(diesOnCue, 3000);
    const answered = (text: string) => ({ errors: [text], named: { inputs: [], outputs: [] } });
    await expect(check({ kind: 'sev', path: '/p/a.sev', text: 'exit' })).rejects.toThrow(
      /^\/p\/a\.sev: the text checker stopped \(exit code 3\)$/,
    );
    expect(await check({ kind: 'sev', path: '/p/b.sev', text: 'after the exit' })).toEqual(answered('after the exit'));
    await expect(check({ kind: 'project', path: '/p/c.actguy.json', text: 'throw' })).rejects.toThrow(
      /^\/p\/c\.actguy\.json: the text checker stopped \(lost\)$/,
    );
    expect(await check({ kind: 'sev', path: '/p/d.sev', text: 'after the throw' })).toEqual(
      answered('after the throw'),
    );
  });

  it('the main process bundle contains no SEV or project parser: they run only in the worker', async () => {
    const r = await build({
      entryPoints: [resolve(__dirname, '..', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['electron'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(r.metafile.inputs);
    expect(inputs).toContain('electron/project/projectHandlers.ts');
    expect(
      inputs.filter(
        (f) => f === 'shared/sev/parse.ts' || f === 'shared/project/validate.ts' || f.endsWith('textCheckJob.ts'),
      ),
    ).toEqual([]);
  });
});

describe('what a project with errors names (round 6)', () => {
  it('a network, device or stream path grants nothing: resolving it would make Windows connect to that host', () => {
    const text = JSON.stringify({
      version: 1,
      motions: [
        { name: 'walk', mtn: '\\\\evil\\share\\walk.mtn', sev: '//evil/share/walk.sev' },
        { name: 'run', mtn: 'run.mtn', sev: 'run.sev:x' },
      ],
      seTables: { sls: '\\\\?\\C:\\default.sls', seDefine: 'se_define.h' },
      outputs: { mar: 'out/a.mar', sar: 'out/a.sar' },
    });
    const r = checkText({ kind: 'project', path: '/p/a.actguy.json', text });
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.named.inputs).toEqual(['/p/run.mtn', '/p/se_define.h']);
  });
});
