import { describe, expect, it } from 'vitest';
import { joinNames, unsavedSentence } from './unsaved';

describe('unsavedSentence', () => {
  it('names one, two or three things with the right verb', () => {
    expect(unsavedSentence(['walk.mtn'])).toBe('walk.mtn has unsaved changes.');
    expect(unsavedSentence(['walk.mtn', 'walk.sev'])).toBe('walk.mtn and walk.sev have unsaved changes.');
    expect(unsavedSentence(['walk.mtn', 'walk.sev', 'the project'])).toBe(
      'walk.mtn, walk.sev and the project have unsaved changes.',
    );
    expect(unsavedSentence(['the project'])).toBe('The project has unsaved changes.');
  });
  it('falls back to a name when the list is empty', () => {
    expect(unsavedSentence([], 'walk')).toBe('walk has unsaved changes.');
    expect(joinNames([])).toBe('');
  });
});
