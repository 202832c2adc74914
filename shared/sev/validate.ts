import { FormatError } from '../errors';
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
      ev.loc ? { line: ev.loc.line, column: ev.loc.columns[token] ?? ev.loc.columns[0] } : { where: `event ${k} (frame ${ev.frame})` };
    if (ev.frame > motion.frameCount)
      errors.push(new FormatError('SEV', `event frame ${ev.frame} is past the end of motion ${motion.name} (frames 0..${motion.frameCount})`, place(1), file));
    if (ev.joint !== null && ev.joint >= motion.jointCount)
      errors.push(new FormatError('SEV', `event joint ${ev.joint} does not exist in motion ${motion.name} (joints 0..${motion.jointCount - 1})`, place(3), file));
  });
  return errors;
}

/** The motion a SEV belongs to: its `motion` statement, else the file's base name. */
export function sevMotionName(doc: SevDocument, fileBaseName: string): string {
  return doc.motion?.name ?? fileBaseName;
}
