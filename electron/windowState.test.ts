import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  initialWindow,
  MIN_SIZE,
  parseWindowState,
  readWindowState,
  WINDOW_STATE_FILE,
  writeWindowState,
  type Rect,
} from './windowState';

const root = mkdtempSync(join(tmpdir(), 'actguy-winstate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A 1366x768 laptop screen with a 40 px taskbar at the bottom, and a 1920x1080 monitor to its right. */
const laptop: Rect = { x: 0, y: 0, width: 1366, height: 728 };
const monitor: Rect = { x: 1366, y: 0, width: 1920, height: 1080 };

describe('the first window', () => {
  it('fits a 1366x768 screen (inside its work area) and asks for more only where there is room', () => {
    const first = initialWindow(null, [laptop], laptop);
    expect(first.x).toBeUndefined(); // centred by the OS
    expect(first.width).toBeLessThanOrEqual(laptop.width);
    expect(first.height).toBeLessThanOrEqual(laptop.height);
    expect(first.maximized).toBe(false);
    expect(MIN_SIZE.width).toBeLessThanOrEqual(laptop.width);
    expect(MIN_SIZE.height).toBeLessThanOrEqual(laptop.height);
    expect(initialWindow(null, [monitor], monitor)).toEqual({ width: 1400, height: 900, maximized: false });
  });
});

describe('a saved window', () => {
  it('comes back where it was, maximised or not, on whichever screen', () => {
    expect(
      initialWindow({ x: 1500, y: 100, width: 1600, height: 900, maximized: true }, [laptop, monitor], laptop),
    ).toEqual({ x: 1500, y: 100, width: 1600, height: 900, maximized: true });
  });

  it('on a screen that is gone (monitor unplugged) opens centred on the primary screen, fitted to it', () => {
    const r = initialWindow({ x: 1500, y: 100, width: 1600, height: 900, maximized: false }, [laptop], laptop);
    expect(r).toEqual({ width: 1366, height: 728, maximized: false });
  });

  it('with its title bar above the top or off to the side is brought back within reach', () => {
    expect(
      initialWindow({ x: 100, y: -500, width: 1000, height: 700, maximized: false }, [laptop], laptop).x,
    ).toBeUndefined();
    expect(
      initialWindow({ x: -990, y: 10, width: 1000, height: 700, maximized: false }, [laptop], laptop).x,
    ).toBeUndefined();
    // Partly off the screen but reachable: kept on it, pulled in so it does not stick out.
    expect(initialWindow({ x: 1000, y: 300, width: 1000, height: 700, maximized: false }, [laptop], laptop)).toEqual({
      x: 366,
      y: 28,
      width: 1000,
      height: 700,
      maximized: false,
    });
  });
});

describe('window-state.json (untrusted input)', () => {
  it('reads only a plausible window; anything else is set aside with the reason', () => {
    expect(parseWindowState('{"x":10,"y":20,"width":1200,"height":700,"maximized":false}')).toEqual({
      x: 10,
      y: 20,
      width: 1200,
      height: 700,
      maximized: false,
    });
    const bad: [string, RegExp][] = [
      // Where it goes wrong, not the engine's words (some give no place): found by `npm run fuzz -- --format window-state`.
      ['{', /^not JSON at line 1, column 2: expected a "quoted" key$/],
      ['{"x":1,\n "y": 2,}', /^not JSON at line 2, column 9: expected a "quoted" key$/],
      [`${'['.repeat(200)}`, /^not JSON at line 1, column 129: .*nest/],
      ['[]', /not an object/],
      ['null', /not an object/],
      ['{"x":"10","y":0,"width":1200,"height":700,"maximized":false}', /x is not/],
      ['{"x":0,"y":0.5,"width":1200,"height":700,"maximized":false}', /y is not/],
      ['{"x":0,"y":0,"width":1e9,"height":700,"maximized":false}', /width is not/],
      ['{"x":0,"y":0,"width":20,"height":10,"maximized":false}', /below the window's minimum/],
      ['{"x":0,"y":0,"width":1200,"height":700,"maximized":"yes"}', /maximized/],
    ];
    for (const [text, reason] of bad)
      expect(parseWindowState(text), text).toEqual({ problem: expect.stringMatching(reason) });
  });

  it('is written atomically and read back; a corrupt or unreadable one gives a warning naming the file, a missing one none', () => {
    const dir = join(root, 'profile');
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    expect(readWindowState(dir, warn)).toBeNull();
    expect(warnings).toEqual([]);
    writeWindowState(dir, { x: 5, y: 6, width: 1000, height: 700, maximized: true }, warn);
    expect(readdirSync(dir)).toEqual([WINDOW_STATE_FILE]);
    expect(readWindowState(dir, warn)).toEqual({ x: 5, y: 6, width: 1000, height: 700, maximized: true });
    writeFileSync(join(dir, WINDOW_STATE_FILE), '{"x": 1, "width": ');
    expect(readWindowState(dir, warn)).toBeNull();
    expect(warnings).toEqual([expect.stringContaining(join(dir, WINDOW_STATE_FILE))]);
    const unwritable = join(root, 'a-file');
    writeFileSync(unwritable, '');
    writeWindowState(join(unwritable, 'sub'), { x: 0, y: 0, width: 1000, height: 700, maximized: false }, warn);
    expect(warnings).toHaveLength(2);
    mkdirSync(join(root, 'dir-state', WINDOW_STATE_FILE), { recursive: true });
    expect(readWindowState(join(root, 'dir-state'), warn)).toBeNull();
    expect(warnings).toHaveLength(3);
    expect(readFileSync(join(dir, WINDOW_STATE_FILE), 'utf8')).toBe('{"x": 1, "width": ');
  });

  it('a FIFO or a huge file in its place is set aside with a warning, never waited on or read whole', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    const huge = join(root, 'huge');
    mkdirSync(huge);
    writeFileSync(join(huge, WINDOW_STATE_FILE), `${' '.repeat(2 << 20)}{}`);
    expect(readWindowState(huge, warn)).toBeNull();
    expect(warnings.pop()).toMatch(/window-state\.json: cannot be read \(it is \d+ bytes, more than the 65536/);
    if (process.platform === 'win32') return; // mkfifo
    const fifoDir = join(root, 'fifo');
    mkdirSync(fifoDir);
    const fifo = join(fifoDir, WINDOW_STATE_FILE);
    execFileSync('mkfifo', [fifo]);
    // Were the read to wait for a writer, this one writes a valid state after a second: the read would then
    // return it instead of hanging the test run (it gives up after 10 s when nothing reads).
    const state = '{"x":0,"y":0,"width":1000,"height":700,"maximized":false}';
    const writer = spawn('timeout', ['10', 'sh', '-c', `sleep 1; printf '%s' '${state}' > '${fifo}'`], {
      stdio: 'ignore',
    });
    try {
      expect(readWindowState(fifoDir, warn)).toBeNull();
      expect(warnings.pop()).toMatch(/window-state\.json: cannot be read \(it is not a plain file\)/);
    } finally {
      writer.kill();
    }
  });
});
