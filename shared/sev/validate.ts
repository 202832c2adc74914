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

/**
 * The motion a SEV belongs to, or an error naming the file when that name
 * comes from a file base name outside the motion-name rule (a `motion`
 * statement was already checked by the parser). Such a name is never hashed.
 */
export function checkedSevMotionName(doc: SevDocument, fileBaseName: string, file?: string): { name: string } | { error: FormatError } {
  const name = sevMotionName(doc, fileBaseName);
  const problem = motionNameProblem(name);
  if (!problem) return { name };
  return { error: new FormatError('SEV', `${problem}; add a \`motion NAME\` line or rename the file`, { where: `motion name from the file name ${fileBaseName}` }, file) };
}
