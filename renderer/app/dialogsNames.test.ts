import { describe, expect, it } from 'vitest';
import { sessionStore } from '../state/sessionStore';
import { askChoice } from './dialogs';

describe('an in-window question', () => {
  it('shows the hidden characters of the names it holds as \\uXXXX, its line breaks as they are (docs/security.md, round 52)', async () => {
    // A received archive's motion or a glTF's clip named with a U+202E, an ESC, a zero-width space: raw, the question
    // and its choices showed another text.
    const name = 'walk\u202eves\u001b[2J\u200b';
    const asked = askChoice({
      title: `Open ${name}`,
      text: `${name} holds 2 motions.\nWhich one?`,
      buttons: [
        { id: 'a', label: `#0 ${name}` },
        { id: 'cancel', label: 'Cancel' },
      ],
    });
    const q = sessionStore.getState().confirm!;
    const shown = 'walk\\u202eves\\u001b[2J\\u200b';
    expect(q.title).toBe(`Open ${shown}`);
    expect(q.text).toBe(`${shown} holds 2 motions.\nWhich one?`);
    expect(q.buttons.map((b) => [b.id, b.label])).toEqual([
      ['a', `#0 ${shown}`],
      ['cancel', 'Cancel'],
    ]);
    q.resolve('a');
    expect(await asked).toBe('a');
    expect(sessionStore.getState().confirm).toBeNull();
  });
});
