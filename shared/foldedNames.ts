/**
 * Names that are one file where a project may travel (docs/security.md, round 43). Two names that differ only in
 * letter case (`walk`, `Walk`) are two files on Linux and one on macOS, Windows and a FAT or exFAT disk, however
 * mounted; macOS also takes a name's Unicode forms for one (`é` as one code point or as `e` + U+0301). A build's
 * outputs (shared/project/validate.ts `checkOutputPaths`) and Export All's entries
 * (electron/build/projectExportPlan.ts) are refused on every platform when two fold alike, so one disk's own rule
 * is never what decides. Pure (shared/ has no Node).
 */

/**
 * A name as those systems compare it: NFC, then each character's simple upper case in lower case. Windows and exFAT
 * compare names by their upper case, macOS by Unicode's case folding; JavaScript's lower case alone misses letters
 * whose upper case is another's (round 55): the dotless `ı` and `i` are both `I`, the final `ς` and `σ` both `Σ`, the
 * long `ſ` and `s` both `S`, the micro sign and `μ` both `Μ`. One character at a time, so the lower case of a `Σ`
 * does not depend on the letters around it, and `ß` (whose upper case is two letters, `SS`) stays itself: `straße`
 * and `strasse` are two files everywhere.
 */
export function foldName(name: string): string {
  return foldCase(name.normalize('NFC'));
}

// ASCII folds as its lower case (most names: one call, no walk).
const ASCII = /^[\0-\x7f]*$/;

function foldCase(name: string): string {
  if (ASCII.test(name)) return name.toLowerCase();
  let out = '';
  for (const ch of name) {
    const upper = ch.toUpperCase();
    const lower = (upper.length === ch.length ? upper : ch).toLowerCase();
    // A letter whose lower case is longer (`İ`, `i` + U+0307) folds as its upper case, which Windows keeps.
    out += lower.length === ch.length ? lower : upper.length === ch.length ? upper : ch;
  }
  return out;
}

/** How two names that fold alike differ: in letter case alone, or in their Unicode form as well. */
export function foldedDifference(a: string, b: string): 'letter case' | 'letter case and Unicode form' {
  return foldCase(a) === foldCase(b) ? 'letter case' : 'letter case and Unicode form';
}

/**
 * The first item at each folded name, found in one look-up a name (a search of the earlier ones for each was
 * quadratic: 4,000 motions with MSH outputs took 9.5 s to check). `earlierTwin(name, item)` answers the first item
 * met whose name folds as `name` does, or keeps `item` as that first one and answers undefined.
 */
export function foldedTwins<T>(): { earlierTwin(name: string, item: T): T | undefined } {
  const first = new Map<string, T>();
  return {
    earlierTwin(name, item) {
      const key = foldName(name);
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, item);
      return earlier;
    },
  };
}
