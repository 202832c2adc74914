import { describe, expect, it } from 'vitest';
import { projectStore, soundPathOf, soundsByName } from './projectStore';

describe('audition sounds by SE name', () => {
  it('an SE named like an Object member (constructor, toString, __proto__) has a sound only when the folder has one', () => {
    // SE names are [A-Za-z_][A-Za-z0-9_]*: `se 0 constructor` is a valid .sev. On a plain object the lookup
    // found Object's own function and the event track took it for a sound file's path.
    // The store starts (and resets) with a plain {}: the lookup itself must not answer from its prototype.
    for (const none of [soundsByName([]), projectStore.getState().sounds, {}])
      for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
        expect(soundPathOf(none, name)).toBeNull();
    const some = soundsByName([
      { name: '__proto__', path: '/s/__proto__.wav' },
      { name: 'constructor', path: '/s/constructor.wav' },
      { name: 'constructor', path: '/s/constructor.ogg' },
    ]);
    expect(soundPathOf(some, '__proto__')).toBe('/s/__proto__.wav');
    expect(soundPathOf(some, 'constructor')).toBe('/s/constructor.wav');
    expect(soundPathOf(some, 'toString')).toBeNull();
    expect(Object.keys(some).sort()).toEqual(['__proto__', 'constructor']);
  });
});
