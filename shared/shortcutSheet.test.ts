/** The shortcut sheet (Help › Keyboard Shortcuts) lists every key the tables bind, each with words, once. */
import { describe, expect, it } from 'vitest';
import { shortcutSheet, keyLabel } from './shortcutSheet';
import { EVENT_SHORTCUTS, PLAIN_KEYS, SHIFT_KEYS, acceleratorLabel, shortcutsFor } from './shortcuts';

for (const platform of ['other', 'mac'] as const) {
  describe(`the shortcut sheet (${platform})`, () => {
    const sheet = shortcutSheet(platform);
    const section = (title: string) => sheet.find((s) => s.title === title)!.rows;
    const keysIn = (title: string) => section(title).flatMap((r) => r.keys);

    it('lists every menu command binding, each command once, in the words of its menu', () => {
      const rows = section('Commands');
      expect(keysIn('Commands').sort()).toEqual(
        [...new Set(shortcutsFor(platform).map((b) => acceleratorLabel(b.accelerator, platform)))].sort(),
      );
      expect(new Set(rows.map((r) => r.does)).size).toBe(rows.length);
      // No raw command id ("help.shortcuts") standing for a label.
      for (const r of rows) expect(r.does).not.toMatch(/^[a-z]+\.[a-zA-Z]+$/);
      const does = (key: string) => rows.find((r) => r.keys.includes(key))?.does;
      expect(does(platform === 'mac' ? '⇧⌘O' : 'Ctrl+Shift+O')).toBe('File: Open Project…');
      expect(does(platform === 'mac' ? '⌘/' : 'Ctrl+/')).toBe('Keyboard Shortcuts (this list)');
      expect(does('M')).toBe('Add Event at Playhead');
    });

    it('lists every page key (no menu shows ↑ / ↓, Page Up / Page Down, Shift+← / →, Delete)', () => {
      expect(keysIn('Tuning keys').sort()).toEqual(
        [
          ...Object.keys(PLAIN_KEYS).map(keyLabel),
          ...Object.keys(SHIFT_KEYS).map((k) => `Shift+${keyLabel(k)}`),
        ].sort(),
      );
      const does = (key: string) => section('Tuning keys').find((r) => r.keys.includes(key))?.does;
      expect(does('Page Down')).toBe('Next joint');
      expect(does('↑')).toBe('Previous key of the shown channel');
      expect(does('Shift+→')).toBe('10 frames forward');
      expect(does('[')).toBe('Slower playback');
      // Delete and Backspace do one thing: one row.
      expect(section('Tuning keys').find((r) => r.keys.includes('Delete'))?.keys).toEqual(['Delete', 'Backspace']);
    });

    it('lists every event key with the Events menu’s words', () => {
      expect(keysIn('Sound events').sort()).toEqual(
        [...new Set(EVENT_SHORTCUTS.map((b) => acceleratorLabel(b.accelerator, platform)))].sort(),
      );
      expect(section('Sound events').find((r) => r.keys.includes(platform === 'mac' ? '⌘V' : 'Ctrl+V'))?.does).toBe(
        'Paste Events at Playhead',
      );
    });

    it('gives every row keys and words, each key once', () => {
      for (const s of sheet)
        for (const r of s.rows) {
          expect(r.keys.length).toBeGreaterThan(0);
          expect(new Set(r.keys).size).toBe(r.keys.length);
          expect(r.does.trim()).not.toBe('');
        }
    });

    // Mutation audit 2026-12-05 (docs/testing.md): the page's words for a command ignored, and keys written as the DOM
    // names them (the expectations above map them with keyLabel itself), passed the cases above.
    it("says a command in the in-page menu's words, and each key as the menus write it", () => {
      expect(section('Commands').find((r) => r.keys.includes('Space'))?.does).toBe('Playback: Play');
      expect(section('Tuning keys').find((r) => r.does === 'Slower playback')?.keys).toEqual(['[']);
      const keys = keysIn('Tuning keys');
      for (const k of ['K', 'L', 'T', 'F', 'A', 'E', 'Q', 'O', '↑', '↓', 'Page Up', 'Page Down', 'Shift+→', 'Shift+←'])
        expect(keys).toContain(k);
      expect(keys).not.toContain('k');
      expect([keyLabel('k'), keyLabel(' '), keyLabel('ArrowLeft'), keyLabel('Delete')]).toEqual([
        'K',
        'Space',
        '←',
        'Delete',
      ]);
    });
  });
}
