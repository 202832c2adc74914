import { describe, expect, it } from 'vitest';
import { pickerStartFolder, relativeToRoot, workspaceFolderOf } from './pickerFolders';
import { isRememberableFolder, storedPickerFolders, PICKER_FOLDER_KINDS_MAX } from '../state/rememberedFolders';
import { mergeStoredPreferences, preferencesStore } from '../state/preferencesStore';

describe('where the in-app picker starts (tried cold, round 18)', () => {
  const listed = ['out', 'out/msh', 'takes'];

  it('starts in the remembered folder, else the document’s, else the root', () => {
    expect(pickerStartFolder(listed, 'out/msh', 'takes')).toBe('out/msh');
    expect(pickerStartFolder(listed, undefined, 'takes')).toBe('takes');
    expect(pickerStartFolder(listed, undefined, undefined)).toBe('');
    expect(pickerStartFolder(listed, '', 'takes')).toBe('');
  });

  it('falls back when the remembered folder is gone, a link or outside the workspace (none is listed)', () => {
    // The listing holds no link to a folder and nothing under one (electron/workspaceListing.ts).
    expect(pickerStartFolder(listed, 'gone', undefined)).toBe('');
    expect(pickerStartFolder(listed, 'linked', 'takes')).toBe('takes');
    expect(pickerStartFolder([...listed, '../outside'], '../outside', undefined)).toBe('');
    expect(pickerStartFolder(['/etc'], '/etc', undefined)).toBe('');
    expect(pickerStartFolder(listed, 'out/../..', undefined)).toBe('');
  });

  it('takes paths under the workspace root only', () => {
    expect(relativeToRoot('/w', '/w/out/a.mtn')).toBe('out/a.mtn');
    expect(relativeToRoot('/w/', '/w')).toBe('');
    expect(relativeToRoot('/w', '/wx/a.mtn')).toBeUndefined();
    expect(workspaceFolderOf('/w', '/w/a.mtn')).toBe('');
    expect(workspaceFolderOf('/w', '/w/out/msh/a.res8')).toBe('out/msh');
    expect(workspaceFolderOf('/w', '/elsewhere/a.mtn')).toBeUndefined();
    expect(workspaceFolderOf('C:\\w', 'C:\\w\\out\\a.mtn')).toBe('out');
  });
});

describe('the remembered folders as read back from the preferences', () => {
  it('keeps folders of the form the app writes', () => {
    expect(storedPickerFolders({ mtn: 'out/takes', res8: '' })).toEqual({ mtn: 'out/takes', res8: '' });
    expect(isRememberableFolder('out/msh')).toBe(true);
  });

  it('sets aside anything else, naming it', () => {
    for (const bad of ['../x', '/abs', 'a//b', 'a/./b', 'a\\b', 'a\u202eb', 'x'.repeat(1025), 5, null])
      expect(storedPickerFolders({ mtn: bad }), String(bad)).toBeUndefined();
    expect(storedPickerFolders({ 'not a kind': 'out' })).toBeUndefined();
    expect(storedPickerFolders(['out'])).toBeUndefined();
    const many = Object.fromEntries(Array.from({ length: PICKER_FOLDER_KINDS_MAX + 1 }, (_, k) => [`k${k}`, 'out']));
    expect(storedPickerFolders(many)).toBeUndefined();
    const setAside: string[] = [];
    const merged = mergeStoredPreferences(
      { pickerFolders: { mtn: '../../etc' } },
      preferencesStore.getState(),
      setAside,
    );
    expect(merged.pickerFolders).toEqual({});
    expect(setAside).toEqual(['pickerFolders']);
    expect(
      mergeStoredPreferences({ pickerFolders: { mtn: 'out' } }, preferencesStore.getState()).pickerFolders,
    ).toEqual({
      mtn: 'out',
    });
  });
});
