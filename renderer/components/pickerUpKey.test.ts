/**
 * The file picker's up-a-folder key (docs/architecture.md, "Renderer review, round 12"): Alt+↑ or ⌘↑ from the list,
 * and from a text field only the key the field has no use for. Mutation that fails: upFolderKey not asking whether a
 * field has the key (⌘↑ in the filter went up a folder and moved the caret; cases 3 and 4 below).
 */
import { describe, expect, it } from 'vitest';
import { upFolderKey } from './Dialogs';

const key = (k: string, mods: { alt?: boolean; meta?: boolean; ctrl?: boolean; shift?: boolean } = {}) => ({
  key: k,
  altKey: !!mods.alt,
  metaKey: !!mods.meta,
  ctrlKey: !!mods.ctrl,
  shiftKey: !!mods.shift,
});

describe('the picker goes up a folder', () => {
  it('on Alt+↑ or ⌘↑ outside a field, on any system', () => {
    for (const mac of [false, true]) {
      expect(upFolderKey(key('ArrowUp', { alt: true }), false, mac)).toBe(true);
      expect(upFolderKey(key('ArrowUp', { meta: true }), false, mac)).toBe(true);
    }
  });

  it('from a field on Alt+↑ off macOS only: ⌘↑, and ⌥↑ on macOS, move the caret there', () => {
    expect(upFolderKey(key('ArrowUp', { alt: true }), true, false)).toBe(true);
    expect(upFolderKey(key('ArrowUp', { meta: true }), true, false)).toBe(false);
    expect(upFolderKey(key('ArrowUp', { meta: true }), true, true)).toBe(false);
    expect(upFolderKey(key('ArrowUp', { alt: true }), true, true)).toBe(false);
    expect(upFolderKey(key('ArrowUp', { alt: true, meta: true }), true, false)).toBe(false);
  });

  it('not on ↑ alone, with Ctrl or Shift, nor on another key', () => {
    expect(upFolderKey(key('ArrowUp'), false, false)).toBe(false);
    expect(upFolderKey(key('ArrowUp', { alt: true, ctrl: true }), false, false)).toBe(false);
    expect(upFolderKey(key('ArrowUp', { meta: true, shift: true }), false, true)).toBe(false);
    expect(upFolderKey(key('ArrowDown', { alt: true }), false, false)).toBe(false);
  });
});
