import { describe, expect, it } from 'vitest';
import { systemFileKindOfPath } from './systemFiles';

describe('files the OS hands over', () => {
  it('are told apart by extension, case-insensitively, on either path separator', () => {
    expect(systemFileKindOfPath('/w/walk.mtn')).toBe('motion');
    expect(systemFileKindOfPath('C:\\w\\WALK.MT3')).toBe('motion');
    expect(systemFileKindOfPath('/w/stage.mar')).toBe('motion');
    expect(systemFileKindOfPath('/w/walk.SEV')).toBe('sev');
    expect(systemFileKindOfPath('/w/sample.actguy.json')).toBe('project');
    expect(systemFileKindOfPath('C:\\w\\Sample.ActGuy.JSON')).toBe('project');
  });

  it('leave out other files, and names that are only an extension', () => {
    for (const p of ['/w/notes.txt', '/w/data.json', '/w/.mtn', '/w/.actguy.json', '/w/mtn', '/w/walk.mtn/'])
      expect(systemFileKindOfPath(p), p).toBeNull();
  });
});
