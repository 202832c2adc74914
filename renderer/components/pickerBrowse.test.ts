import { describe, expect, it } from 'vitest';
import { filesShown, openPickerFolders } from './Dialogs';

const file = (relativePath: string) => ({ relativePath, extension: relativePath.split('.').pop()! });

describe('the open picker goes into folders (tried cold, round 18)', () => {
  const files = [file('walk.mtn'), file('takes/walk_b.mtn'), file('takes/day2/walk_c.mtn'), file('walk.sev')];

  it('shows the files of the folder shown, each folder once', () => {
    expect(filesShown(files, ['mtn'], '', '').map((f) => f.relativePath)).toEqual(['walk.mtn']);
    expect(filesShown(files, ['mtn'], 'takes', '').map((f) => f.relativePath)).toEqual(['takes/walk_b.mtn']);
    // Without folders (no listing of them): every file, flat.
    expect(filesShown(files, ['mtn'], null, '')).toHaveLength(3);
  });

  it('with a filter, the files under the folder shown whose path there holds it', () => {
    expect(filesShown(files, ['mtn'], '', 'walk_c').map((f) => f.relativePath)).toEqual(['takes/day2/walk_c.mtn']);
    expect(filesShown(files, ['mtn'], 'takes', 'DAY2/').map((f) => f.relativePath)).toEqual(['takes/day2/walk_c.mtn']);
    // "takes" is the folder shown, not part of the path there.
    expect(filesShown(files, ['mtn'], 'takes', 'takes')).toEqual([]);
  });

  it('goes into the folders its files lie in too (a link to a folder inside the workspace)', () => {
    expect(openPickerFolders(['takes'], [file('linked/deep/a.mtn')]).sort()).toEqual([
      'linked',
      'linked/deep',
      'takes',
    ]);
  });
});
