import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CRASH_RECORDS_FOLDER,
  MAIN_PROCESS_ERROR_MAX,
  mainProcessErrorText,
  MAX_CRASH_RECORDS,
  recoveryQuestion,
  writeCrashRecord,
  type CrashRecord,
} from './crashRecords';

const root = mkdtempSync(join(tmpdir(), 'actguy-crash-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const record = (i: number): CrashRecord => ({
  event: 'render-process-gone',
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  reason: 'oom',
  exitCode: 1,
  appVersion: '1.0.0',
  versions: { electron: '41' },
  platform: 'linux',
  arch: 'x64',
  documentName: 'walk',
  unsaved: ['walk.mtn'],
});

describe('crash records', () => {
  it('are JSON files under Crash Records, one per event, the oldest removed past the cap', () => {
    const paths = Array.from({ length: MAX_CRASH_RECORDS + 3 }, (_, i) => writeCrashRecord(root, record(i)));
    const dir = join(root, CRASH_RECORDS_FOLDER);
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(MAX_CRASH_RECORDS);
    expect(names[0]).toBe(paths[3].slice(dir.length + 1));
    expect(names.every((n) => /^2026-01-01T00-00-\d\d-\d{3}Z-render-process-gone\.json$/.test(n))).toBe(true);
    expect(JSON.parse(readFileSync(paths.at(-1)!, 'utf8'))).toEqual(record(MAX_CRASH_RECORDS + 2));
  });

  // Round 16: a GPU process that crashes again and again writes a record each time (main.ts child-process-gone).
  // Mutation that fails: RECORD_NAME without child-process-gone (those records then grew without bound).
  it("records of another process's death (child-process-gone) count toward the cap too", () => {
    const own = mkdtempSync(join(tmpdir(), 'actguy-crash-child-'));
    try {
      for (let i = 0; i < MAX_CRASH_RECORDS + 5; i++)
        writeCrashRecord(own, { ...record(i), event: 'child-process-gone', process: 'GPU', unsaved: [] });
      const names = readdirSync(join(own, CRASH_RECORDS_FOLDER));
      expect(names).toHaveLength(MAX_CRASH_RECORDS);
      expect(names.every((n) => n.endsWith('Z-child-process-gone.json'))).toBe(true);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

describe('two events in one millisecond', () => {
  // Mutation that fails: the record named by its time alone (the second replaced the first).
  it('are two records, and such records count toward the cap too', () => {
    const own = mkdtempSync(join(tmpdir(), 'actguy-crash-same-'));
    try {
      const gpu = { ...record(0), event: 'child-process-gone' as const, process: 'GPU', unsaved: [] };
      const audio = { ...gpu, process: 'Utility', processName: 'Audio Service' };
      const first = writeCrashRecord(own, gpu);
      const second = writeCrashRecord(own, audio);
      expect(second).not.toBe(first);
      expect(JSON.parse(readFileSync(first, 'utf8'))).toEqual(gpu);
      expect(JSON.parse(readFileSync(second, 'utf8'))).toEqual(audio);
      // Mutation that fails: RECORD_NAME without the `-N` (those records then grew past the cap).
      for (let i = 1; i < MAX_CRASH_RECORDS; i++) {
        const time = record(i).time;
        writeCrashRecord(own, { ...gpu, time });
        writeCrashRecord(own, { ...audio, time });
      }
      expect(readdirSync(join(own, CRASH_RECORDS_FOLDER))).toHaveLength(MAX_CRASH_RECORDS);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

describe("main-process errors nothing caught (round 20, main.ts 'unhandledRejection')", () => {
  // Mutation that fails: RECORD_NAME without main-process-error (a failure repeated on each edit grew without bound).
  it('count toward the cap too', () => {
    const own = mkdtempSync(join(tmpdir(), 'actguy-crash-main-'));
    try {
      for (let i = 0; i < MAX_CRASH_RECORDS + 5; i++)
        writeCrashRecord(own, { ...record(i), event: 'main-process-error', error: 'Error: x', unsaved: [] });
      const names = readdirSync(join(own, CRASH_RECORDS_FOLDER));
      expect(names).toHaveLength(MAX_CRASH_RECORDS);
      expect(names.every((n) => n.endsWith('Z-main-process-error.json'))).toBe(true);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("are kept as the error's stack, bounded, whatever was thrown", () => {
    expect(mainProcessErrorText(new RangeError('bad'))).toMatch(/^RangeError: bad\n\s+at /);
    expect(mainProcessErrorText('a string')).toBe('a string');
    expect(mainProcessErrorText(new Error('x'.repeat(100_000)))).toHaveLength(MAIN_PROCESS_ERROR_MAX);
    const hostile = {
      toString() {
        throw new Error('no text');
      },
    };
    expect(mainProcessErrorText(hostile)).toBe('a value that cannot be shown as text');
    expect(mainProcessErrorText(Object.create(null))).toBe('a value that cannot be shown as text');
  });
});

describe('the cap on crash records', () => {
  it('never removes the record just written (a clock set back), nor anything not named as a record', () => {
    const own = mkdtempSync(join(root, 'clock-'));
    const dir = join(own, CRASH_RECORDS_FOLDER);
    mkdirSync(dir);
    // Records dated after this one (written before the clock was set back), a file of the user's, a folder.
    for (let i = 0; i < MAX_CRASH_RECORDS; i++)
      writeFileSync(join(dir, `2099-01-01T00-00-${String(i).padStart(2, '0')}-000Z-unresponsive.json`), '{}');
    writeFileSync(join(dir, '0-notes.json'), 'mine');
    mkdirSync(join(dir, '2000-01-01T00-00-00-000Z-unresponsive.json'));
    const path = writeCrashRecord(own, record(0));
    expect(existsSync(path)).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(record(0));
    const names = readdirSync(dir).sort();
    expect(names).toContain('0-notes.json');
    expect(names).toContain('2000-01-01T00-00-00-000Z-unresponsive.json');
    // The cap still holds for records: the oldest-named of the others went.
    expect(
      names.filter((n) => n.endsWith('-unresponsive.json') || n.endsWith('-render-process-gone.json')),
    ).toHaveLength(MAX_CRASH_RECORDS + 1);
    expect(names).not.toContain('2099-01-01T00-00-00-000Z-unresponsive.json');
  });
});

describe('the question after a crash or a hang', () => {
  it('a crash: Reload (default) or Quit, naming what was lost and where the record is', () => {
    const { question, actions } = recoveryQuestion(
      'render-process-gone',
      ['walk.mtn', 'the project'],
      '/u/Crash Records/x.json',
    );
    expect(question.buttons).toEqual(['Reload', 'Quit']);
    expect(actions).toEqual(['reload', 'quit']);
    expect(actions[question.defaultId]).toBe('reload');
    expect(question.detail).toContain('walk.mtn, the project were lost');
    expect(question.detail).toContain('/u/Crash Records/x.json');
    expect(recoveryQuestion('render-process-gone', [], null).question.detail).toMatch(
      /^Reload the window[\s\S]*could not be written/,
    );
  });

  it('with copies of the unsaved work held, a crash says they come back rather than that they were lost', () => {
    const crash = recoveryQuestion('render-process-gone', ['walk.mtn'], null, true).question.detail;
    expect(crash).toMatch(/^Your unsaved changes were kept: they come back, unsaved, when the window reloads/);
    expect(crash).not.toContain('lost');
    expect(recoveryQuestion('unresponsive', ['walk.sev'], null, true).question.detail).toContain(
      'reloading restores the unsaved changes to walk.sev as last backed up',
    );
  });

  it('a hang: Wait is the default and the cancel answer (it keeps the edits); Reload says what it discards', () => {
    const { question, actions } = recoveryQuestion('unresponsive', ['walk.sev'], null);
    expect(actions[question.defaultId]).toBe('wait');
    expect(actions[question.cancelId]).toBe('wait');
    expect(actions).toContain('reload');
    expect(question.detail).toContain('reloading discards the unsaved changes to walk.sev');
  });
});
