import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTGUY_API_MEMBERS, type ActGuyApi } from '../shared/ipc/api';
import { DROPPED_FILE_CHANNEL, ipcInvokeChannel, MENU_COMMAND_CHANNEL } from '../shared/ipc/transport';

/** What the preload hands to contextBridge and sends over ipcRenderer, captured by a fake `electron`. */
const bridge = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as { channel: string; arg: unknown }[],
  reply: { ok: true, value: 'v' } as unknown,
  listeners: new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>(),
  /** Where Electron says each dropped File lies ('' for a File the page made itself, as webUtils answers). */
  filePaths: new Map<unknown, string>(),
}));

vi.mock('electron', () => ({
  webUtils: { getPathForFile: (file: unknown) => bridge.filePaths.get(file) ?? '' },
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => bridge.exposed.set(key, value) },
  ipcRenderer: {
    invoke: async (channel: string, arg: unknown) => {
      bridge.invoked.push({ channel, arg });
      return bridge.reply;
    },
    on: (channel: string, fn: (event: unknown, ...args: unknown[]) => void) =>
      bridge.listeners.set(channel, [...(bridge.listeners.get(channel) ?? []), fn]),
    removeListener: (channel: string, fn: unknown) =>
      bridge.listeners.set(
        channel,
        (bridge.listeners.get(channel) ?? []).filter((f) => f !== fn),
      ),
  },
}));

await import('./preload');
const api = bridge.exposed.get('actguy') as ActGuyApi;

beforeEach(() => {
  bridge.invoked.length = 0;
  bridge.reply = { ok: true, value: 'v' };
});

describe('preload', () => {
  it('exposes exactly the members of ActGuyApi as window.actguy, and nothing else', () => {
    expect([...bridge.exposed.keys()]).toEqual(['actguy']);
    expect(Object.keys(api).sort()).toEqual([...ACTGUY_API_MEMBERS].sort());
    for (const member of ACTGUY_API_MEMBERS) expect(typeof api[member]).toBe('function');
  });

  it('sends each member on its own fixed channel and unwraps replies into values or readable errors', async () => {
    await expect(api.getAppInfo()).resolves.toBe('v');
    await api.openMotion({ path: '/x/walk.mtn' });
    expect(bridge.invoked).toEqual([
      { channel: ipcInvokeChannel('getAppInfo'), arg: undefined },
      { channel: ipcInvokeChannel('openMotion'), arg: { path: '/x/walk.mtn' } },
    ]);
    bridge.reply = { ok: false, error: { message: 'walk.mtn [MTN] (header): bad magic', formatKind: 'MTN' } };
    await expect(api.openMotion({ path: '/x/walk.mtn' })).rejects.toThrow('walk.mtn [MTN] (header): bad magic');
  });

  it("delivers menu commands without Electron's event, and unsubscribes", () => {
    const got: unknown[] = [];
    const off = api.onMenuCommand((c) => got.push(c));
    const fire = (payload: unknown) =>
      (bridge.listeners.get(MENU_COMMAND_CHANNEL) ?? []).forEach((fn) => fn({ sender: 'ELECTRON-EVENT' }, payload));
    fire({ command: 'file.save' });
    fire({ command: 'file.openRecent', path: '/x/walk.mtn', extra: 'dropped' });
    fire('not a command');
    expect(got).toEqual([{ command: 'file.save' }, { command: 'file.openRecent', path: '/x/walk.mtn' }]);
    off();
    off();
    fire({ command: 'file.save' });
    expect(got).toHaveLength(2);
    expect(() => api.onMenuCommand('nope' as never)).toThrow(TypeError);
  });

  it('hands a .sev the OS opened over with the project that lists it, so it opens in that project', () => {
    const got: unknown[] = [];
    const off = api.onMenuCommand((c) => got.push(c));
    const fire = (payload: unknown) =>
      (bridge.listeners.get(MENU_COMMAND_CHANNEL) ?? []).forEach((fn) => fn({ sender: 'ELECTRON-EVENT' }, payload));
    // As main sends it at start-up (kept until the page listens) and from a second launch: the same command.
    fire({ command: 'file.openFromSystem', path: '/p/sev/walk.sev', projectPath: '/p/sample.actguy.json' });
    fire({ command: 'file.openFromSystem', path: '/p/lonely.sev' });
    fire({ command: 'file.openFromSystem', path: '/p/walk.sev', projectPath: 42 });
    expect(got).toEqual([
      { command: 'file.openFromSystem', path: '/p/sev/walk.sev', projectPath: '/p/sample.actguy.json' },
      { command: 'file.openFromSystem', path: '/p/lonely.sev' },
      { command: 'file.openFromSystem', path: '/p/walk.sev' },
    ]);
    off();
  });

  it('turns a dropped File into its path itself and sends only that on the drop channel; a path from the page is refused', async () => {
    const dropped = new File([new Uint8Array(4)], 'walk.mtn');
    bridge.filePaths.set(dropped, '/home/u/walk.mtn');
    bridge.reply = { ok: true, value: { status: 'granted', path: '/home/u/walk.mtn', kind: 'motion' } };
    await expect(api.openDroppedFile(dropped)).resolves.toEqual({
      status: 'granted',
      path: '/home/u/walk.mtn',
      kind: 'motion',
    });
    expect(bridge.invoked).toEqual([{ channel: DROPPED_FILE_CHANNEL, arg: '/home/u/walk.mtn' }]);
    bridge.invoked.length = 0;
    // What the page might send instead of a dropped File: a path string, a look-alike object, a File it made itself.
    const made = new File([new Uint8Array(4)], 'passwd.mtn');
    await expect(api.openDroppedFile('/etc/passwd.mtn' as never)).rejects.toThrow(/takes a file dropped/);
    await expect(api.openDroppedFile({ name: 'x.mtn', path: '/etc/passwd.mtn' } as never)).rejects.toThrow(
      /takes a file dropped/,
    );
    await expect(api.openDroppedFile(made)).rejects.toThrow(/passwd\.mtn: this dropped file has no place on disk/);
    expect(bridge.invoked).toEqual([]);
    // Main's refusal comes back as a readable error.
    bridge.reply = { ok: false, error: { message: 'notes.txt: ActGuy cannot open this kind of file' } };
    const notes = new File([], 'notes.txt');
    bridge.filePaths.set(notes, '/home/u/notes.txt');
    await expect(api.openDroppedFile(notes)).rejects.toThrow('notes.txt: ActGuy cannot open this kind of file');
  });
});
