import { describe, expect, it } from 'vitest';
import {
  EVENT_SHORTCUTS,
  SHORTCUTS,
  chordOfAccelerator,
  eventShortcutLabel,
  pageShortcutOf,
  type ShortcutPlatform,
} from './shortcuts';

const inEvents = { typing: false, onSlider: false, inEvents: true };
const elsewhere = { typing: false, onSlider: false };

describe('the SEV editor’s event keys', () => {
  for (const platform of ['other', 'mac'] as ShortcutPlatform[]) {
    const of = (
      accelerator: string,
      ctx: Parameters<typeof pageShortcutOf>[1],
      mode: 'page' | 'native-menu' = 'page',
    ) => pageShortcutOf(chordOfAccelerator(accelerator, platform), ctx, platform, mode);

    it(`apply in the event list or row, in both builds (${platform})`, () => {
      for (const mode of ['page', 'native-menu'] as const) {
        expect(of('CmdOrCtrl+C', inEvents, mode)).toEqual({ action: 'copyEvents' });
        expect(of('CmdOrCtrl+X', inEvents, mode)).toEqual({ action: 'cutEvents' });
        expect(of('CmdOrCtrl+V', inEvents, mode)).toEqual({ action: 'pasteEvents' });
        expect(of('CmdOrCtrl+A', inEvents, mode)).toEqual({ action: 'selectAllEvents' });
        expect(of('Delete', inEvents, mode)).toEqual({ action: 'deleteEvents' });
        expect(of('Backspace', inEvents, mode)).toEqual({ action: 'deleteEvents' });
        expect(of('Alt+Left', inEvents, mode)).toEqual({ action: 'nudgeEventsBack' });
        expect(of('Alt+Right', inEvents, mode)).toEqual({ action: 'nudgeEventsForward' });
      }
      // The other page keys still work there: arrows step the playhead, Ctrl+Z undoes.
      expect(of('Left', inEvents)).toEqual({ command: 'playback.stepBack' });
      expect(of('CmdOrCtrl+Z', inEvents)).toEqual({ command: 'edit.undo' });
    });

    it(`leave every key alone elsewhere and in a field (${platform})`, () => {
      // Elsewhere Ctrl+C / Ctrl+V are the browser's copy and paste, and Delete deletes curve keys.
      for (const a of ['CmdOrCtrl+C', 'CmdOrCtrl+X', 'CmdOrCtrl+V', 'CmdOrCtrl+A', 'Alt+Left', 'Alt+Right'])
        expect(of(a, elsewhere), a).toBeNull();
      expect(of('Delete', elsewhere)).toEqual({ action: 'deleteKeys' });
      // A field in the list (frame, note) keeps its own keys.
      for (const b of EVENT_SHORTCUTS)
        expect(of(b.accelerator, { ...inEvents, typing: true }), b.accelerator).toBeNull();
    });

    it(`do not take a menu command's key (${platform})`, () => {
      for (const b of EVENT_SHORTCUTS) {
        const chord = JSON.stringify(chordOfAccelerator(b.accelerator, platform));
        const taken = SHORTCUTS.filter(
          (s) =>
            (!s.platform || s.platform === platform) &&
            JSON.stringify(chordOfAccelerator(s.accelerator, platform)) === chord,
        );
        expect(
          taken.map((s) => s.command),
          b.accelerator,
        ).toEqual([]);
      }
    });
  }

  it('menus show the first binding of each action', () => {
    expect(eventShortcutLabel('copyEvents', 'other')).toBe('Ctrl+C');
    expect(eventShortcutLabel('deleteEvents', 'other')).toBe('Delete');
    expect(eventShortcutLabel('nudgeEventsForward', 'other')).toBe('Alt+→');
    expect(eventShortcutLabel('pasteEvents', 'mac')).toBe('⌘V');
  });
});
