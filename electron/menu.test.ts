import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../shared/ipc/menu';
import { EVENTS_MENU, EVENTS_MENU_COMMANDS } from '../shared/eventsMenu';
import {
  acceleratorLabel,
  chordOfAccelerator,
  chordOfKeyPress,
  EVENT_SHORTCUTS,
  pageShortcutOf,
  sameChord,
  SHORTCUTS,
  shortcutsFor,
  type KeyChord,
  type ShortcutOwnerMode,
  type ShortcutPlatform,
} from '../shared/shortcuts';

vi.mock('electron', () => ({ Menu: { buildFromTemplate: (template: unknown) => ({ template }) } }));
const { appMenuTemplate } = await import('./menu');

/** Electron's default accelerators of the roles the menu uses (lib/browser/api/menu-item-roles.ts). */
function roleAccelerator(role: string, platform: ShortcutPlatform): string | null {
  const mac = platform === 'mac';
  const table: Record<string, string | null> = {
    cut: 'CmdOrCtrl+X',
    copy: 'CmdOrCtrl+C',
    paste: 'CmdOrCtrl+V',
    selectAll: 'CmdOrCtrl+A',
    close: 'CmdOrCtrl+W',
    quit: 'CmdOrCtrl+Q',
    hide: 'Cmd+H',
    hideOthers: 'Cmd+Alt+H',
    unhide: null,
    resetZoom: 'CmdOrCtrl+0',
    zoomIn: 'CmdOrCtrl+Plus',
    zoomOut: 'CmdOrCtrl+-',
    togglefullscreen: mac ? 'Ctrl+Cmd+F' : 'F11',
    toggleDevTools: mac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I',
    // A submenu role: its items (Minimize Cmd+M, Zoom, Bring All to Front) carry the accelerators; see the test below.
    windowMenu: null,
  };
  if (!(role in table)) throw new Error(`role ${role}: add its default accelerator to this test`);
  return table[role];
}

interface NativeBinding {
  label: string;
  chord: KeyChord;
  /** The command the item sends, or null for an Electron role. */
  command: MenuCommand | null;
}

/** Every accelerator the native menu registers, with what its item does. */
function nativeBindings(platform: ShortcutPlatform): NativeBinding[] {
  let sent: MenuCommand | null = null;
  const template = appMenuTemplate({
    appName: 'ActGuy',
    isMac: platform === 'mac',
    recentFiles: [{ path: '/w/walk.mtn', name: 'walk', kind: 'mtn' }] as never,
    send: (c) => (sent = c),
    clearRecentFiles: () => {},
    showAbout: () => {},
    allowDevTools: true,
  });
  const out: NativeBinding[] = [];
  const walk = (items: MenuItemConstructorOptions[]) => {
    for (const i of items) {
      if (Array.isArray(i.submenu)) walk(i.submenu);
      const accelerator = i.accelerator ?? (i.role ? roleAccelerator(i.role, platform) : null);
      // macOS ignores registerAccelerator: false (Electron's docs): there every accelerator shown is registered.
      if (!accelerator || (i.registerAccelerator === false && platform !== 'mac')) continue;
      sent = null;
      if (i.click) (i.click as () => void)();
      out.push({
        label: String(i.label ?? i.role),
        chord: chordOfAccelerator(String(accelerator), platform),
        command: sent,
      });
    }
  };
  walk(template);
  return out;
}

const key = (c: KeyChord) => JSON.stringify(c);
const notTyping = { typing: false, onSlider: false };

/** Every chord anyone binds, and its Shift/Alt/Ctrl variants (which must not be swallowed by the plain binding). */
function chordsToCheck(platform: ShortcutPlatform): KeyChord[] {
  const base = [
    ...nativeBindings(platform).map((b) => b.chord),
    ...shortcutsFor(platform).map((b) => chordOfAccelerator(b.accelerator, platform)),
    ...'kltfaeqo[]'.split('').map((k) => chordOfAccelerator(k, platform)),
    ...['Up', 'Down', 'Left', 'Right'].flatMap((k) => [
      chordOfAccelerator(k, platform),
      chordOfAccelerator(`Shift+${k}`, platform),
    ]),
  ];
  const all = new Map<string, KeyChord>();
  for (const c of base)
    for (const v of [c, { ...c, shift: !c.shift }, { ...c, alt: !c.alt }, { ...c, primary: !c.primary }])
      all.set(key(v), v);
  return [...all.values()];
}

describe.each(['other', 'mac'] as const)('shortcuts on %s', (platform) => {
  const native = nativeBindings(platform);

  it('the native menu registers each accelerator once', () => {
    const seen = new Map<string, string>();
    for (const b of native) {
      expect(seen.get(key(b.chord)), `${b.label} and ${seen.get(key(b.chord))} share an accelerator`).toBeUndefined();
      seen.set(key(b.chord), b.label);
    }
    // The table's native bindings are all on the menu (a binding the menu lacks would reach no one under Electron).
    for (const b of shortcutsFor(platform).filter((s) => s.native)) {
      expect(
        native.find((n) => key(n.chord) === key(chordOfAccelerator(b.accelerator, platform)))?.command,
        b.accelerator,
      ).toEqual({ command: b.command });
    }
  });

  it('under Electron every key reaches exactly one owner: the native menu or the page, never both', () => {
    let bound = 0;
    for (const chord of chordsToCheck(platform)) {
      const menuOwners = native.filter((b) => key(b.chord) === key(chord)).length;
      const pageOwner = pageShortcutOf(chord, notTyping, platform, 'native-menu') ? 1 : 0;
      expect(
        menuOwners + pageOwner,
        `${JSON.stringify(chord)}: menu ${menuOwners}, page ${pageOwner}`,
      ).toBeLessThanOrEqual(1);
      bound += menuOwners + pageOwner;
    }
    expect(bound).toBeGreaterThan(30);
  });

  it('the browser build runs the same command the native menu item sends, and leaves Electron roles (copy, paste) to the browser', () => {
    for (const b of native) {
      const page = pageShortcutOf(b.chord, notTyping, platform, 'page');
      if (b.command) expect(page, b.label).toEqual({ command: b.command.command });
      else expect(page, b.label).toBeNull();
    }
    // Keys only the page owns behave the same in both builds.
    for (const b of SHORTCUTS.filter((s) => !s.native && (!s.platform || s.platform === platform))) {
      const chord = chordOfAccelerator(b.accelerator, platform);
      for (const mode of ['page', 'native-menu'] as ShortcutOwnerMode[])
        expect(pageShortcutOf(chord, notTyping, platform, mode), `${b.accelerator} ${mode}`).toEqual({
          command: b.command,
        });
    }
  });

  it('Shift and Alt variants reach their own command: Open Project is not Open, Save Project is not Save', () => {
    const commandOf = (accelerator: string) =>
      native.find((b) => key(b.chord) === key(chordOfAccelerator(accelerator, platform)))?.command?.command;
    const pageOf = (accelerator: string) =>
      pageShortcutOf(chordOfAccelerator(accelerator, platform), notTyping, platform, 'page');
    const cases: [string, string][] = [
      ['CmdOrCtrl+O', 'file.open'],
      ['CmdOrCtrl+Shift+O', 'project.open'],
      ['CmdOrCtrl+S', 'file.save'],
      ['CmdOrCtrl+Shift+S', 'file.saveAs'],
      ['CmdOrCtrl+Alt+S', 'project.save'],
      ['CmdOrCtrl+Z', 'edit.undo'],
    ];
    for (const [accelerator, command] of cases) {
      expect(commandOf(accelerator), accelerator).toBe(command);
      expect(pageOf(accelerator), accelerator).toEqual({ command });
    }
    // Under Electron the page leaves all of them to the menu.
    for (const [accelerator] of cases)
      expect(
        pageShortcutOf(chordOfAccelerator(accelerator, platform), notTyping, platform, 'native-menu'),
        accelerator,
      ).toBeNull();
    // A chord nobody binds reaches nobody (Ctrl+Alt+O is neither Open nor Open Project).
    expect(pageOf('CmdOrCtrl+Alt+O')).toBeNull();
    expect(commandOf('CmdOrCtrl+Alt+O')).toBeUndefined();
  });

  it('a text field keeps its typing and its own undo; a slider keeps its arrows', () => {
    const typing = { typing: true, onSlider: false };
    for (const a of ['K', 'Space', 'Right', 'CmdOrCtrl+Z'])
      expect(pageShortcutOf(chordOfAccelerator(a, platform), typing, platform, 'page'), a).toBeNull();
    expect(pageShortcutOf(chordOfAccelerator('CmdOrCtrl+S', platform), typing, platform, 'page')).toEqual({
      command: 'file.save',
    });
    expect(
      pageShortcutOf(chordOfAccelerator('Right', platform), { typing: false, onSlider: true }, platform, 'page'),
    ).toBeNull();
    expect(pageShortcutOf(chordOfAccelerator('K', platform), notTyping, platform, 'page')).toEqual({
      action: 'toggleKey',
    });
    expect(pageShortcutOf(chordOfAccelerator('Shift+Right', platform), notTyping, platform, 'page')).toEqual({
      action: 'step10Forward',
    });
  });
});

/** Items that carry an accelerator, with whether Electron registers it on the platform. */
function acceleratorItems(platform: ShortcutPlatform): { label: string; accelerator: string; registered: boolean }[] {
  const template = appMenuTemplate({
    appName: 'ActGuy',
    isMac: platform === 'mac',
    recentFiles: [],
    send: () => {},
    clearRecentFiles: () => {},
    showAbout: () => {},
    allowDevTools: false,
  });
  const out: { label: string; accelerator: string; registered: boolean }[] = [];
  const walk = (items: MenuItemConstructorOptions[]) => {
    for (const i of items) {
      if (Array.isArray(i.submenu)) walk(i.submenu);
      if (i.accelerator)
        out.push({
          label: String(i.label),
          accelerator: String(i.accelerator),
          registered: platform === 'mac' || i.registerAccelerator !== false,
        });
    }
  };
  walk(template);
  return out;
}

/** A key typed into a text field: no Ctrl/Cmd, so a registered accelerator on it would take the keystroke from the field. */
const typedKey = (accelerator: string, platform: ShortcutPlatform) => {
  const c = chordOfAccelerator(accelerator, platform);
  return !c.primary && !c.macCtrl;
};

describe('keys the page owns (Space, arrows, Home/End, Delete, Alt+arrows)', () => {
  it('on Windows and Linux are shown on their menu items but not registered', () => {
    const plain = acceleratorItems('other').filter((i) => typedKey(i.accelerator, 'other'));
    expect(plain.map((i) => i.accelerator)).toEqual(
      expect.arrayContaining(['Space', 'Right', 'Left', 'Home', 'End', 'Delete', 'Alt+Left', 'Alt+Right']),
    );
    expect(plain.filter((i) => i.registered)).toEqual([]);
  });

  it('on macOS, which registers every accelerator an item carries, are left off the menu items', () => {
    const items = acceleratorItems('mac');
    expect(items.filter((i) => typedKey(i.accelerator, 'mac')).map((i) => `${i.label}: ${i.accelerator}`)).toEqual([]);
    // The page's Cmd+C / Cmd+V in the event list do not become a second menu owner of Edit's Copy and Paste either.
    const events = new Set(EVENTS_MENU.flatMap((e) => (e === 'separator' ? [] : [e.label])));
    expect(items.filter((i) => events.has(i.label))).toEqual([]);
    // What stays are the command shortcuts the menu owns.
    expect(items.length).toBe(shortcutsFor('mac').filter((b) => b.native).length);
  });
});

describe('the Events menu', () => {
  const build = (o: { disabledCommands?: string[]; isMac?: boolean; noWindow?: boolean } = {}) => {
    const sent: MenuCommand[] = [];
    const template = appMenuTemplate({
      appName: 'ActGuy',
      isMac: o.isMac ?? false,
      recentFiles: [],
      send: (c) => sent.push(c),
      clearRecentFiles: () => {},
      showAbout: () => {},
      allowDevTools: false,
      disabledCommands: o.disabledCommands as never,
      noWindow: o.noWindow,
    });
    const events = template.find((m) => m.label === 'Events');
    return { template, sent, items: (events?.submenu ?? []) as MenuItemConstructorOptions[] };
  };

  it("macOS gets the system's Window menu before Help (Minimize ⌘M, Zoom, Bring All to Front); elsewhere there is none", () => {
    const mac = build({ isMac: true }).template;
    expect(mac.slice(-2).map((m) => m.role ?? m.label)).toEqual(['windowMenu', 'Help']);
    expect(build().template.some((m) => m.role === 'windowMenu')).toBe(false);
    // Electron's Window menu on macOS registers Cmd+M for Minimize: no command of the app may use it.
    const cmdM = shortcutsFor('mac').filter((b) =>
      sameChord(chordOfAccelerator(b.accelerator, 'mac'), chordOfAccelerator('Cmd+M', 'mac')),
    );
    expect(cmdM).toEqual([]);
  });

  it('Help lists Keyboard Shortcuts (Ctrl+/, sent to the page, which shows the list) before About', () => {
    const { template, sent } = build();
    const help = template.find((m) => m.label === 'Help')!.submenu as MenuItemConstructorOptions[];
    expect(help.map((i) => (i.type === 'separator' ? '-' : i.label))).toEqual([
      'Keyboard Shortcuts',
      '-',
      'About ActGuy',
    ]);
    expect(help[0].accelerator).toBe('CmdOrCtrl+/');
    (help[0].click as () => void)();
    expect(sent).toEqual([{ command: 'help.shortcuts' }]);
  });

  it('sits between Edit and View with the SEV editor actions in order, each sending its command', () => {
    const { template, sent, items } = build();
    expect(template.map((m) => m.label).filter(Boolean)).toEqual([
      'File',
      'Edit',
      'Events',
      'View',
      'Playback',
      'Help',
    ]);
    expect(items.map((i) => (i.type === 'separator' ? '-' : i.label))).toEqual(
      EVENTS_MENU.map((e) => (e === 'separator' ? '-' : e.label)),
    );
    expect(items.map((i) => i.label)).toEqual(
      expect.arrayContaining([
        'Add Event at Playhead',
        'Suggest Footsteps…',
        'Copy Events',
        'Paste Events at Playhead',
        'Delete Events',
        'Nudge Events 1 Frame Earlier',
        'Nudge Events 1 Frame Later',
      ]),
    );
    for (const i of items) if (i.type !== 'separator') (i.click as () => void)();
    expect(sent).toEqual(EVENTS_MENU_COMMANDS.map((command) => ({ command })));
  });

  it("shows the event list's keys without registering them (Windows and Linux: Ctrl+C stays Edit › Copy outside the event list)", () => {
    const { items } = build();
    for (const e of EVENTS_MENU) {
      if (e === 'separator') continue;
      const i = items.find((x) => x.label === e.label)!;
      if (!e.key) {
        // A page key of its own (Add Event at Playhead: M) is shown, never registered; the others have none.
        const own = SHORTCUTS.find((b) => b.command === e.command);
        expect(i.accelerator, e.label).toBe(own?.accelerator);
        if (own) expect(i.registerAccelerator, e.label).toBe(false);
        continue;
      }
      expect(i.accelerator, e.label).toBe(EVENT_SHORTCUTS.find((b) => b.action === e.key)!.accelerator);
      expect(i.registerAccelerator, e.label).toBe(false);
    }
    const byLabel = (l: string) => build().items.find((x) => x.label === l)!.accelerator;
    expect([byLabel('Copy Events'), byLabel('Delete Events'), byLabel('Nudge Events 1 Frame Later')]).toEqual([
      'CmdOrCtrl+C',
      'Delete',
      'Alt+Right',
    ]);
  });

  it('greys out the commands the renderer reports it cannot run now, and only those', () => {
    const { items } = build({ disabledCommands: ['events.copy', 'events.paste'] });
    const enabled = (l: string) => items.find((x) => x.label === l)!.enabled !== false;
    expect(enabled('Copy Events')).toBe(false);
    expect(enabled('Paste Events at Playhead')).toBe(false);
    expect(enabled('Cut Events')).toBe(true);
    expect(enabled('Add Event at Playhead')).toBe(true);
    expect(build().items.every((i) => i.enabled !== false)).toBe(true);
  });

  // Mutations that fail: noWindow ignored (Save, Undo and the Events menu stay on with no window); every command greyed
  // with no window (Open… too).
  it('with no window (macOS), only the commands that open something stay; Open Recent keeps its files', () => {
    const itemsOf = (t: MenuItemConstructorOptions[]) =>
      t.flatMap((m) => (m.submenu ?? []) as MenuItemConstructorOptions[]);
    const items = itemsOf(build({ isMac: true, noWindow: true }).template);
    const on = items.filter((i) => i.click && i.enabled !== false).map((i) => i.label);
    expect(on).toEqual([
      'About ActGuy',
      'Open…',
      'Import Motion (BVH, glTF, FBX)…',
      'Open Project…',
      'Open .sev…',
      'Keyboard Shortcuts',
      'About ActGuy',
    ]);
    expect(items.find((i) => i.label === 'Save')!.enabled).toBe(false);
    expect(items.find((i) => i.label === 'Open Recent')!.enabled).not.toBe(false);
    expect(itemsOf(build({ isMac: true }).template).some((i) => i.enabled === false)).toBe(false);
  });
});

describe('key presses', () => {
  it('Ctrl is the primary modifier off macOS and Cmd on macOS; Ctrl on macOS is another key', () => {
    const press = { key: 'O', code: 'KeyO', ctrlKey: true, metaKey: false, shiftKey: true, altKey: false };
    expect(chordOfKeyPress(press, 'other')).toEqual(chordOfAccelerator('CmdOrCtrl+Shift+O', 'other'));
    expect(chordOfKeyPress(press, 'mac')).not.toEqual(chordOfAccelerator('CmdOrCtrl+Shift+O', 'mac'));
    expect(chordOfKeyPress({ ...press, ctrlKey: false, metaKey: true }, 'mac')).toEqual(
      chordOfAccelerator('CmdOrCtrl+Shift+O', 'mac'),
    );
  });

  it('Option+S on macOS (which types "ß") is still Save Project', () => {
    const press = { key: 'ß', code: 'KeyS', ctrlKey: false, metaKey: true, shiftKey: false, altKey: true };
    expect(pageShortcutOf(chordOfKeyPress(press, 'mac'), notTyping, 'mac', 'page')).toEqual({
      command: 'project.save',
    });
  });

  it('menus label accelerators the platform way', () => {
    expect(acceleratorLabel('CmdOrCtrl+Shift+O', 'other')).toBe('Ctrl+Shift+O');
    expect(acceleratorLabel('CmdOrCtrl+Alt+S', 'mac')).toBe('⌥⌘S');
    expect(acceleratorLabel('Space', 'other')).toBe('Space');
  });
});

// Round 11 (docs/security.md). Mutation: the Open Recent label without escapeControls: it holds the raw override.
describe('Open Recent labels', () => {
  it('show a name or path holding a line break or a bidi override escaped', () => {
    const template = appMenuTemplate({
      appName: 'ActGuy',
      isMac: false,
      recentFiles: [{ path: '/w/a\u202Entm.klaw.mtn', name: 'walk\nx', kind: 'mtn' }] as never,
      send: () => {},
      clearRecentFiles: () => {},
      showAbout: () => {},
      allowDevTools: true,
    });
    const labels: string[] = [];
    const walk = (items: MenuItemConstructorOptions[]) => {
      for (const i of items) {
        if (typeof i.label === 'string') labels.push(i.label);
        if (Array.isArray(i.submenu)) walk(i.submenu);
      }
    };
    walk(template);
    expect(labels).toContain('walk\\u000ax — /w/a\\u202entm.klaw.mtn');
  });

  // Mutation that fails: the label without its project hint, or the click sending anything but the listed path
  // (main opens a project of Open Recent only when its own list holds that path).
  it('say which entry is a project, and send its path as listed', () => {
    const sent: unknown[] = [];
    const template = appMenuTemplate({
      appName: 'ActGuy',
      isMac: false,
      recentFiles: [{ path: '/p/stage.actguy.json', name: 'stage', kind: 'project', openedAt: 1 }],
      send: (c) => sent.push(c),
      clearRecentFiles: () => {},
      showAbout: () => {},
      allowDevTools: true,
    });
    const file = template.find((m) => m.label === 'File')!.submenu as MenuItemConstructorOptions[];
    const recent = file.find((m) => m.label === 'Open Recent')!.submenu as MenuItemConstructorOptions[];
    expect(recent[0].label).toBe('stage (project) — /p/stage.actguy.json');
    (recent[0].click as () => void)();
    expect(sent).toEqual([{ command: 'file.openRecent', path: '/p/stage.actguy.json' }]);
  });
});
