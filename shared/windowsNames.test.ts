import { describe, expect, it } from 'vitest';
import { windowsNameProblem, windowsPathProblem } from './windowsNames';

describe('names Windows reads as something else (round 6)', () => {
  it('refuses device names with any extension, letter case or trailing spaces', () => {
    for (const name of [
      'CON',
      'con.mtn',
      'nul.mt3',
      'Aux.tar.gz',
      'PRN',
      'com1.sev',
      'LPT9.mar',
      'COM\u00b9',
      'conin$',
      'CONOUT$.x',
      'nul .mtn',
    ])
      expect(windowsNameProblem(name), name).toMatch(/is a Windows device name/);
    for (const name of ['console.mtn', 'nully.mt3', 'com10.sev', 'lpt.mar', 'xcon.mtn', 'auxiliary', 'com.mtn'])
      expect(windowsNameProblem(name), name).toBeUndefined();
  });

  it('refuses a trailing dot or space and a stream; leaves the other characters Windows forbids to it', () => {
    expect(windowsNameProblem('walk.mtn.')).toMatch(/ends in a dot/);
    expect(windowsNameProblem('walk.mtn ')).toMatch(/ends in a space/);
    expect(windowsNameProblem('walk.mtn:hidden')).toMatch(/alternate data stream/);
    // Windows refuses these by name when opening (no other file is reached): not refused here.
    for (const c of '<>"|?*') expect(windowsNameProblem(`a${c}b.sev`), c).toBeUndefined();
    for (const name of ['.', '..', '', 'walk.mtn', '.hidden', 'a b.sev'])
      expect(windowsNameProblem(name)).toBeUndefined();
  });

  it('refuses UNC and device-namespace paths, checks every component, allows a drive', () => {
    for (const p of ['\\\\host\\share\\x.mtn', '//host/share/x.mtn', '\\\\?\\C:\\x.mtn', '\\\\.\\NUL', '\\/host/x'])
      expect(windowsPathProblem(p), p).toMatch(/two separators/);
    expect(windowsPathProblem('aux/walk.mtn')).toMatch(/device name \(AUX\)/);
    expect(windowsPathProblem('motions\\take.\\walk.mtn')).toMatch(/ends in a dot/);
    expect(windowsPathProblem('C:x.mtn')).toMatch(/alternate data stream/);
    for (const p of [
      'C:\\proj\\walk.mtn',
      'C:/proj/walk.mtn',
      '/home/u/walk.mtn',
      '../common/default.sls',
      './walk.mtn',
      'C:',
    ])
      expect(windowsPathProblem(p), p).toBeUndefined();
  });
});
