import { describe, expect, it } from 'vitest';
import { dropKindOf, dropOverlayText, dropRefusal, menuItemFor } from './dropFiles';

describe('dropped files', () => {
  it('knows the kind of each file ActGuy opens by its name, in any case; anything else is null', () => {
    expect(
      ['walk.mtn', 'a.MT3', 'b.mar', 'c.bvh', 'd.GLB', 'e.gltf', 'f.fbx', 'g.sev', 'p.actguy.json'].map(dropKindOf),
    ).toEqual(['motion', 'motion', 'motion', 'import', 'import', 'import', 'import', 'sev', 'project']);
    expect(['notes.txt', '.bvh', 'walk.mtn.bak', 'x.json', ''].map(dropKindOf)).toEqual([null, null, null, null, null]);
  });

  it('says what a drop will do, why it will not, or what ActGuy opens when the names are hidden', () => {
    expect(dropOverlayText(1, ['walk.mtn'])).toEqual({ text: 'Drop to open walk.mtn', ok: true });
    expect(dropOverlayText(1, ['take.bvh']).text).toBe('Drop to import take.bvh as a new motion');
    expect(dropOverlayText(1, ['sample.actguy.json']).text).toBe('Drop to open the project sample.actguy.json');
    expect(dropOverlayText(1, ['notes.txt'])).toMatchObject({
      ok: false,
      text: expect.stringMatching(/^notes\.txt: ActGuy cannot open/),
    });
    expect(dropOverlayText(1, [])).toMatchObject({
      ok: true,
      text: expect.stringMatching(/ActGuy opens \.mtn, .*\.bvh/),
    });
    expect(dropOverlayText(2, [])).toMatchObject({ ok: false, text: expect.stringMatching(/^One file at a time/) });
    // A name's hidden characters are shown, not obeyed.
    expect(dropOverlayText(1, ['evil\u202egnp.mtn']).text).toBe('Drop to open evil\\u202egnp.mtn');
  });

  it('refuses several files and unknown kinds, naming them', () => {
    expect(dropRefusal(['walk.mtn'])).toBeNull();
    expect(dropRefusal(['a.mtn', 'b.bvh', 'c.sev', 'd.glb'])).toMatch(
      /^4 files were dropped \(a\.mtn, b\.bvh, c\.sev, …\): ActGuy opens one file at a time/,
    );
    expect(dropRefusal(['notes.txt'])).toMatch(/^notes\.txt: ActGuy cannot open this kind of file; nothing was opened/);
    expect(menuItemFor('import')).toMatch(/Import Motion/);
    expect(menuItemFor(null)).toBe('File › Open…');
  });
});
