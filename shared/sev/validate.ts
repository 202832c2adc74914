import { FormatError } from '../errors';
import { motionNameProblem } from '../motionName';
import type { SevDocument, SevMotionShape } from './types';

/**
 * Checks a parsed SEV against its paired motion (FORMATS.md 4): every event
 * frame in 0..N and every joint below the joint count. Returns all errors,
 * placed at the offending token when the statement came from a file.
 */
export function checkSevAgainstMotion(doc: SevDocument, motion: SevMotionShape, file?: string): FormatError[] {
  const errors: FormatError[] = [];
  doc.events.forEach((ev, k) => {
    const place = (token: number) =>
      ev.loc
        ? { line: ev.loc.line, column: ev.loc.columns[token] ?? ev.loc.columns[0] }
        : { where: `event ${k} (frame ${ev.frame})` };
    if (ev.frame > motion.frameCount)
      errors.push(
        new FormatError(
          'SEV',
          `event frame ${ev.frame} is past the end of motion ${motion.name} (frames 0..${motion.frameCount})`,
          place(1),
          file,
        ),
      );
    if (ev.joint !== null && ev.joint >= motion.jointCount)
      errors.push(
        new FormatError(
          'SEV',
          `event joint ${ev.joint} does not exist in motion ${motion.name} (joints 0..${motion.jointCount - 1})`,
          place(3),
          file,
        ),
      );
  });
  return errors;
}

/** Two events of one sound closer than this (frames, inclusive) are most likely one step entered twice. */
export const SEV_DOUBLE_EVENT_FRAMES = 2;

/**
 * What a SEV allows but is almost always a mistake (warnings, not errors): two SE definitions with one name (events
 * split between them, one set missing the floor variants of the other), and two events of one sound (the same SE
 * name) within SEV_DOUBLE_EVENT_FRAMES frames, which plays it twice, each event against the one before it (one
 * warning per event at most). Placed at the later statement.
 */
export function sevWarnings(doc: SevDocument, file?: string): FormatError[] {
  const warnings: FormatError[] = [];
  const where = (loc: { line: number; columns: number[] } | undefined, fallback: string) =>
    loc ? { line: loc.line, column: loc.columns[0] ?? 1 } : { where: fallback };
  const variantsText = (n: number | undefined) => (n ? `${n} floor variants` : 'no floor variants');
  const firstByName = new Map<string, SevDocument['ses'][number]>();
  for (const d of doc.ses) {
    const first = firstByName.get(d.name);
    if (!first) {
      firstByName.set(d.name, d);
      continue;
    }
    warnings.push(
      new FormatError(
        'SEV',
        `SE ${d.index} ${d.name} has the same name as SE ${first.index} (SE ${d.index}: ${variantsText(d.variants?.length)}, SE ${first.index}: ${variantsText(first.variants?.length)}): its events play the one sound through two definitions; keep one`,
        where(d.loc, `se ${d.index}`),
        file,
      ),
    );
  }
  const nameOf = new Map(doc.ses.map((d) => [d.index, d.name]));
  const order = doc.events.map((ev, k) => ({ ev, k })).sort((a, b) => a.ev.frame - b.ev.frame || a.k - b.k);
  // Each event against the one before it of the same sound, so each is warned about once: against every earlier one
  // in reach, 1,000 events on one frame made 500,000 warnings (28 s), 2,000 made 2,000,000 (150 s).
  const lastOf = new Map<string, (typeof order)[number]>();
  for (const b of order) {
    const name = nameOf.get(b.ev.se);
    if (name === undefined) continue;
    const a = lastOf.get(name);
    lastOf.set(name, b);
    if (!a || b.ev.frame - a.ev.frame > SEV_DOUBLE_EVENT_FRAMES) continue;
    const gap = b.ev.frame - a.ev.frame;
    warnings.push(
      new FormatError(
        'SEV',
        `two ${name} events ${gap === 0 ? 'on' : `${gap} frame${gap === 1 ? '' : 's'} apart at`} frame ${a.ev.frame}${gap ? ` and ${b.ev.frame}` : ''} (SE ${a.ev.se}${b.ev.se !== a.ev.se ? ` and SE ${b.ev.se}` : ''}): the sound plays twice`,
        where(b.ev.loc, `event ${b.k} (frame ${b.ev.frame})`),
        file,
      ),
    );
  }
  return warnings;
}

/** The motion a SEV belongs to: its `motion` statement, else the file's base name. */
export function sevMotionName(doc: SevDocument, fileBaseName: string): string {
  return doc.motion?.name ?? fileBaseName;
}

/**
 * The motion a SEV belongs to, or an error naming the file when that name
 * comes from a file base name outside the motion-name rule (a `motion`
 * statement was already checked by the parser). Such a name is never hashed.
 */
export function checkedSevMotionName(
  doc: SevDocument,
  fileBaseName: string,
  file?: string,
): { name: string } | { error: FormatError } {
  const name = sevMotionName(doc, fileBaseName);
  const problem = motionNameProblem(name);
  if (!problem) return { name };
  return {
    error: new FormatError(
      'SEV',
      `${problem}; add a \`motion NAME\` line or rename the file`,
      { where: `motion name from the file name ${fileBaseName}` },
      file,
    ),
  };
}

/**
 * Authored data a save of `doc` over `saved` (the text on disk) would drop without the user naming it: the floor
 * variants of an SE that keeps its definition but lost them (unticked "Floors"). One line per SE, for the question
 * Save asks first: "the 8 floor variants of SE 1 SE_FOOT_R".
 */
export function droppedOnSave(saved: SevDocument | null, doc: SevDocument): string[] {
  if (!saved) return [];
  const lines: string[] = [];
  for (const before of saved.ses) {
    if (!before.variants) continue;
    const now = doc.ses.find((d) => d.index === before.index);
    if (now && !now.variants)
      lines.push(
        `the ${before.variants.length} floor variants of SE ${now.index} ${now.name} (${before.variants.join(', ')})`,
      );
  }
  return lines;
}
