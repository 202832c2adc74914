import { describe, expect, it } from 'vitest';
import { existingSaveTarget, savePickerName } from './Dialogs';

// Round 42 (docs/security.md): the browser build's save picker took a typed name with a folder before it ("out/walk.res8")
// as typed. "out/../walk.mtn" or "./walk.mtn" named walk.mtn, yet no listed file matched it, so the picker saved over
// it without its question before replacing. Mutations that fail: existingSaveTarget matching the name as typed; any
// one of savePickerName's refusals dropped.
describe('the save picker: a typed name with folders', () => {
  const req = {
    extensions: ['mtn'],
    files: [
      { path: '/ws/walk.mtn', relativePath: 'walk.mtn', extension: 'mtn', byteLength: 10 },
      { path: '/ws/out/run.mtn', relativePath: 'out/run.mtn', extension: 'mtn', byteLength: 10 },
    ],
  };

  it('finds the file a name spelled another way lands on, so the picker asks before replacing it', () => {
    for (const typed of ['./walk.mtn', 'walk', 'out//run', './out/./run.mtn'])
      expect(existingSaveTarget(req, typed)?.path, typed).toBe(
        typed.includes('run') ? '/ws/out/run.mtn' : '/ws/walk.mtn',
      );
    expect(savePickerName('./out//walk.res8')).toEqual({ name: 'out/walk.res8' });
    expect(existingSaveTarget(req, 'out/walk')).toBeUndefined();
  });

  it('refuses in words what could only land outside the workspace folder, or nowhere', () => {
    const problem = (typed: string) => {
      const r = savePickerName(typed);
      return 'problem' in r ? r.problem : undefined;
    };
    expect(problem('out/../walk.mtn')).toMatch(/^"\.\." would leave the workspace folder/);
    expect(problem('..')).toMatch(/^"\.\." would leave/);
    expect(problem('/etc/walk.mtn')).toMatch(/not a full path\.$/);
    expect(problem('C:\\walk.mtn')).toMatch(/not a full path\.$/);
    expect(problem('walk\u0000.mtn')).toBe('A file name cannot hold a control character.');
    expect(problem('out/\u001b[31mred.mtn')).toBe('A file name cannot hold a control character.');
    // Round 55. Mutation that fails: savePickerName without its HIDDEN_CHARACTERS check (the name was saved as typed).
    for (const hidden of ['\u200b', '\u200d', '\u00ad', '\u202e', '\u200f', '\u2028', '\ufeff'])
      expect(problem(`out/wa${hidden}lk.mtn`), hidden).toBe(
        'A file name cannot hold a character that displays as nothing or reorders the line (a zero-width space or joiner, a soft hyphen, a direction mark): the file would read as another.',
      );
    expect(problem('\u0645\u0634\u06cc a\u0301.mtn')).toBeUndefined();
    expect(problem(`${'é'.repeat(128)}.mtn`)).toBe('A file or folder name can be at most 255 bytes long.');
    expect(problem(`${'a'.repeat(251)}.mtn`)).toBeUndefined();
    expect(problem('./')).toBe('Type a file name first.');
    expect(existingSaveTarget(req, 'out/../walk.mtn')).toBeUndefined();
  });
});

// Fuzz round 3 (docs/testing.md, save-picker target): a drive letter after a "./" or a "/" the picker drops ("./C:walk",
// "/\C:/out/walk") was taken as a folder "C:" of the workspace, though typed without the "./" the same name is refused.
// Mutation that fails: savePickerName testing the drive only on the name as typed.
describe('the save picker: a drive letter behind dropped folders', () => {
  it('is refused as a full path wherever the parts the picker drops put it first', () => {
    for (const typed of ['./C:walk.mtn', './c:/out/run.mtn', './/C:\\walk', 'C:walk'])
      expect(savePickerName(typed), typed).toEqual({
        problem: 'Type a name in the workspace folder (a folder of it before the name), not a full path.',
      });
    expect(savePickerName('out/C:walk.mtn')).toEqual({ name: 'out/C:walk.mtn' });
  });
});
