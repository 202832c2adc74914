import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DETAIL_MAX } from '../../shared/errors';
import type { FileStamp } from './fileStamp';
import { projectInputs, watchBuilds, type WatchBuildEnd, type WatchOptions } from './watch';

/**
 * watchBuilds with everything around it replaced: files are entries of a map whose stamps the test changes, each
 * folder's watcher is a callback the test fires, the build records what it was told and finishes when the test says.
 */
function harness(files: string[], options: Partial<WatchOptions> = {}, ends: WatchBuildEnd[] = []) {
  let version = 0;
  const stamps = new Map<string, FileStamp | undefined>();
  const touch = (f: string) =>
    stamps.set(f, { size: 1, mtimeNs: String(++version), ctimeNs: String(version), ino: '1', dev: '1' });
  for (const f of ['p.actguy.json', ...files]) touch(f);
  const listeners = new Map<string, (name: string | null) => void>();
  const closed: string[] = [];
  const builds: string[][] = [];
  /** The stamps each build found (what it would have read). */
  const seen: Map<string, FileStamp | undefined>[] = [];
  const printed: string[] = [];
  const waiting: (() => void)[] = [];
  let holdBuilds = false;
  const release: (() => void)[] = [];
  const controller = new AbortController();
  let inputs: string[] | undefined = files;
  const done = watchBuilds({
    projectFile: 'p.actguy.json',
    signal: controller.signal,
    print: (line) => printed.push(line),
    settleMs: 1,
    pollMs: 5,
    stamp: (f) => stamps.get(f),
    inputsOf: () => inputs,
    watchFolder: (dir, onEvent) => {
      listeners.set(dir, onEvent);
      return { close: () => closed.push(dir) };
    },
    build: async (changed) => {
      builds.push([...changed]);
      seen.push(new Map(stamps));
      if (holdBuilds) await new Promise<void>((r) => release.push(r));
      for (const w of waiting.splice(0)) w();
      return ends.shift() ?? 'done';
    },
    ...options,
  });
  /** Resolves once the next build has run. */
  const nextBuild = () => new Promise<void>((r) => waiting.push(r));
  return {
    stamps,
    touch,
    listeners,
    closed,
    builds,
    seen,
    printed,
    controller,
    done,
    nextBuild,
    setInputs: (i: string[] | undefined) => (inputs = i),
    hold: (on: boolean) => (holdBuilds = on),
    release: () => release.splice(0).forEach((r) => r()),
    /** Fires the watcher of the folder holding `file` with its base name. */
    event: (file: string) => listeners.get(dirname(resolve(file)))?.(basename(file)),
  };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('build --watch', () => {
  it('builds once, then again when an input changes, naming what changed', async () => {
    const h = harness(['w/walk.mtn', 'w/walk.sev']);
    await tick();
    expect(h.builds).toEqual([[]]);
    const built = h.nextBuild();
    h.touch('w/walk.mtn');
    h.event('w/walk.mtn');
    await built;
    expect(h.builds).toEqual([[], ['w/walk.mtn']]);
    expect(h.printed.some((l) => /walk\.mtn changed: building again$/.test(l))).toBe(true);
    expect(h.printed.filter((l) => /watching 3 files for changes/.test(l)).length).toBeGreaterThanOrEqual(1);
    h.controller.abort();
    await h.done;
  });

  it('starts no build for an event that changed no input (another file of the folder, its own outputs)', async () => {
    const h = harness(['w/walk.mtn'], { pollMs: 60_000 });
    await tick();
    h.event('w/out.mar');
    h.event('w/walk.mtn'); // an event, but the stamp is the one taken before the last build
    await tick(40);
    expect(h.builds).toEqual([[]]);
    h.controller.abort();
    await h.done;
  });

  it('sees a change without any event: the poll compares every stamp', async () => {
    const h = harness(['w/walk.mtn'], { watchFolder: () => null });
    await tick();
    const built = h.nextBuild();
    h.stamps.set('w/walk.mtn', undefined); // deleted: the build then says so
    await built;
    expect(h.builds).toEqual([[], ['w/walk.mtn']]);
    h.controller.abort();
    await h.done;
  });

  it('builds again after a build during which an input changed', async () => {
    const h = harness(['w/walk.mtn', 'w/run.mtn'], { pollMs: 60_000 });
    await tick();
    h.hold(true);
    h.touch('w/walk.mtn');
    h.event('w/walk.mtn');
    await tick();
    expect(h.builds).toEqual([[], ['w/walk.mtn']]);
    // While it runs: run.mtn is saved.
    h.touch('w/run.mtn');
    h.event('w/run.mtn');
    h.hold(false);
    const built = h.nextBuild();
    h.release();
    await built; // the held build
    await h.nextBuild();
    expect(h.builds).toEqual([[], ['w/walk.mtn'], ['w/run.mtn']]);
    h.controller.abort();
    await h.done;
  });

  it('ends when aborted: at once when idle, after the build in progress otherwise, and closes its watchers', async () => {
    const h = harness(['w/walk.mtn', 'x/run.mtn'], { pollMs: 60_000 });
    await tick();
    h.hold(true);
    h.touch('w/walk.mtn');
    h.event('w/walk.mtn');
    await tick();
    let ended = false;
    void h.done.then(() => (ended = true));
    h.controller.abort();
    await tick();
    expect(ended).toBe(false); // the build is still running
    h.release();
    await h.done;
    expect(h.builds).toHaveLength(2);
    expect(h.closed).toHaveLength(3); // the project's folder, w/ and x/
  });

  it('keeps watching the inputs it had when the project stops parsing, and the project file always', async () => {
    const h = harness(['w/walk.mtn'], { pollMs: 60_000 });
    await tick();
    h.setInputs(undefined);
    let built = h.nextBuild();
    h.touch('p.actguy.json');
    h.event('p.actguy.json');
    await built;
    expect(h.builds[1]).toEqual(['p.actguy.json']);
    built = h.nextBuild();
    h.touch('w/walk.mtn');
    h.event('w/walk.mtn');
    await built;
    expect(h.builds[2]).toEqual(['w/walk.mtn']);
    h.controller.abort();
    await h.done;
  });

  it('names three changed files at most, with control characters escaped', async () => {
    const files = ['w/a.mtn', 'w/b.mtn', 'w/c\x1b[2J.mtn', 'w/d.mtn', 'w/e.mtn'];
    const h = harness(files, { pollMs: 60_000 });
    await tick();
    const built = h.nextBuild();
    for (const f of files) h.touch(f);
    h.event('w/a.mtn');
    await built;
    const line = h.printed.find((l) => l.includes('changed: building again'))!;
    expect(line).toMatch(/w\/a\.mtn, w\/b\.mtn, w\/c\\u001b\[2J\.mtn and 2 more changed: building again$/);
    expect(line).not.toContain('\x1b');
    h.controller.abort();
    await h.done;
  });

  it('bounds the line that names the changed files, however long the names the project gives', async () => {
    const files = ['a', 'b', 'c', 'd'].map((c) => `w/${c.repeat(2000)}\x01${'\x02'.repeat(1000)}.mtn`);
    const h = harness(files, { pollMs: 60_000 });
    await tick();
    const built = h.nextBuild();
    for (const f of files) h.touch(f);
    h.event(files[0]);
    await built;
    const line = h.printed.find((l) => l.includes('changed: building again'))!;
    expect(line.length).toBeLessThan(DETAIL_MAX + 100);
    expect(line).toMatch(/^\[[0-9:]+\] w\/aaa.*\\u0002\.mtn and 1 more changed: building again$/);
    h.controller.abort();
    await h.done;
  });

  it('watches a folder of inputs again after it was moved away and another put in its place', async () => {
    // The real fs.watch and stamps, and no poll within the test: only the folders' events can start these builds.
    const dir = mkdtempSync(join(tmpdir(), 'actguy-watch-replaced-'));
    const input = join(dir, 'm', 'walk.mtn');
    mkdirSync(join(dir, 'm'));
    writeFileSync(input, 'first');
    writeFileSync(join(dir, 'p.actguy.json'), '{}');
    const builds: string[][] = [];
    const waiting: (() => void)[] = [];
    const nextBuild = () => new Promise<void>((r) => waiting.push(r));
    const controller = new AbortController();
    let built = nextBuild();
    const done = watchBuilds({
      projectFile: join(dir, 'p.actguy.json'),
      signal: controller.signal,
      print: () => {},
      settleMs: 1,
      pollMs: 600_000,
      inputsOf: () => [input],
      build: async (changed) => {
        builds.push([...changed]);
        for (const w of waiting.splice(0)) w();
        return 'done';
      },
    });
    try {
      await built;
      // A sync tool's replace: the old folder moved aside (its watcher follows it there), a new one in its place.
      built = nextBuild();
      renameSync(join(dir, 'm'), join(dir, 'm.old'));
      mkdirSync(join(dir, 'm'));
      writeFileSync(input, 'second');
      await built;
      expect(builds[1]).toEqual([input]);
      // A save in the new folder is an event of the new folder's watcher.
      built = nextBuild();
      writeFileSync(input, 'third, longer');
      await built;
      expect(builds[2]).toEqual([input]);
    } finally {
      controller.abort();
      await done;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds a save the poll met halfway once it is over, not the half-written file', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const h = harness(['w/walk.mtn'], { watchFolder: () => null, pollMs: 10, settleMs: 100, maxWaitMs: 10_000 });
      await vi.advanceTimersByTimeAsync(1);
      expect(h.builds).toEqual([[]]);
      h.touch('w/walk.mtn'); // the save has begun
      await vi.advanceTimersByTimeAsync(15); // a poll sees it
      h.touch('w/walk.mtn'); // the save is over
      const done = h.stamps.get('w/walk.mtn');
      await vi.advanceTimersByTimeAsync(300);
      expect(h.builds).toEqual([[], ['w/walk.mtn']]);
      expect(h.seen[1].get('w/walk.mtn')).toEqual(done);
      h.controller.abort();
      await vi.advanceTimersByTimeAsync(1);
      await h.done;
    } finally {
      vi.useRealTimers();
    }
  });

  it('builds a file rewritten without a pause all the same, once the longest wait is over', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const h = harness(['w/walk.mtn'], { pollMs: 60_000, settleMs: 100, maxWaitMs: 300 });
      await vi.advanceTimersByTimeAsync(1);
      // Saved every 50 ms, each an event: the 100 ms of quiet never come.
      for (let t = 0; t < 600 && h.builds.length < 2; t += 50) {
        h.touch('w/walk.mtn');
        h.event('w/walk.mtn');
        await vi.advanceTimersByTimeAsync(50);
      }
      expect(h.builds).toEqual([[], ['w/walk.mtn']]);
      h.controller.abort();
      await vi.advanceTimersByTimeAsync(1);
      await h.done;
    } finally {
      vi.useRealTimers();
    }
  });

  it('tries a build that failed outside the inputs again by itself, waiting longer each time, up to the most', async () => {
    vi.useFakeTimers();
    try {
      // Each build ends as given here, in turn ('done' once these run out).
      const h = harness(['w/walk.mtn'], { pollMs: 600_000, retryMs: 1000, retryMaxMs: 3000 }, [
        'retry',
        'retry',
        'retry',
        'retry',
      ]);
      await vi.advanceTimersByTimeAsync(0);
      expect(h.builds).toEqual([[]]);
      expect(h.printed.at(-1)).toMatch(
        /watching 2 files for changes \(Ctrl\+C stops\); trying the build again in 1 s$/,
      );
      await vi.advanceTimersByTimeAsync(999);
      expect(h.builds.length).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      // A retry builds with nothing changed, and says so.
      expect(h.builds).toEqual([[], []]);
      expect(h.printed).toContainEqual(expect.stringMatching(/trying the build again \(retry 1\)$/));
      expect(h.printed.at(-1)).toMatch(/trying the build again in 2 s$/);
      await vi.advanceTimersByTimeAsync(1999);
      expect(h.builds.length).toBe(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.builds.length).toBe(3);
      // 4 s would be next: the most is 3 s.
      expect(h.printed.at(-1)).toMatch(/trying the build again in 3 s$/);
      await vi.advanceTimersByTimeAsync(3000);
      expect(h.builds.length).toBe(4);
      // The fourth ends 'retry' too; the fifth ('done') ends the retries.
      await vi.advanceTimersByTimeAsync(3000);
      expect(h.builds.length).toBe(5);
      expect(h.printed.at(-1)).toMatch(/for changes \(Ctrl\+C stops\)$/);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(h.builds.length).toBe(5);
      h.controller.abort();
      await h.done;
    } finally {
      vi.useRealTimers();
    }
  });

  it('builds a change at once whatever retry was due, and starts the waits over after it', async () => {
    vi.useFakeTimers();
    try {
      const h = harness(['w/walk.mtn'], { pollMs: 600_000, retryMs: 1000, retryMaxMs: 30_000 }, [
        'retry',
        'retry',
        'retry',
        'retry',
      ]);
      await vi.advanceTimersByTimeAsync(0);
      await vi.advanceTimersByTimeAsync(1000); // retry 1, which asks for another in 2 s
      expect(h.builds).toEqual([[], []]);
      // An input saved before then is built at once, as a change, not as a retry.
      h.touch('w/walk.mtn');
      h.event('w/walk.mtn');
      await vi.advanceTimersByTimeAsync(5);
      expect(h.builds).toEqual([[], [], ['w/walk.mtn']]);
      // The retry that was due is gone; the change's own failure waits 1 s again, not 4.
      expect(h.printed.at(-1)).toMatch(/trying the build again in 1 s$/);
      await vi.advanceTimersByTimeAsync(1000);
      expect(h.builds).toEqual([[], [], ['w/walk.mtn'], []]);
      expect(h.printed).toContainEqual(expect.stringMatching(/\(retry 1\)$/));
      h.controller.abort();
      await h.done;
      // Ended: no timer is left to hold the process, and no retry runs after the end.
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(h.builds.length).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('watches a bounded number of folders and polls the inputs of the others', async () => {
    const files = Array.from({ length: 10 }, (_, i) => `d${i}/m.mtn`);
    const h = harness(files, { maxFolders: 4, pollMs: 5 });
    await tick();
    expect(h.listeners.size).toBe(4);
    const built = h.nextBuild();
    h.touch('d9/m.mtn'); // in a folder without a watcher
    await built;
    expect(h.builds[1]).toEqual(['d9/m.mtn']);
    h.controller.abort();
    await h.done;
  });
});

describe('the inputs a watch follows (projectInputs)', () => {
  it("are the files a build reads: each motion's .mtn and .sev and the SE tables; none when the project does not parse", () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-watch-inputs-'));
    try {
      const file = join(dir, 'p.actguy.json');
      writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          motions: [
            { name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' },
            { name: 'run', mtn: 'm/run.mtn' },
          ],
          seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
          outputs: { mar: 'out/p.mar', sar: 'out/p.sar' },
        }),
      );
      expect(projectInputs(file)).toEqual(
        ['walk.mtn', 'walk.sev', 'm/run.mtn', 'default.sls', 'se_define.h'].map((f) => join(dir, f)),
      );
      writeFileSync(file, '{"version": 1, "motions": [');
      expect(projectInputs(file)).toBeUndefined();
      expect(projectInputs(join(dir, 'missing.actguy.json'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
