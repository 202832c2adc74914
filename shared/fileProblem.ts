/**
 * A bad file's problem in words an animator reads first: what kind of damage (cut short, not this kind of file,
 * a broken number, not text, a mistake at a line) and what to do about it. The FormatError's own message (kind,
 * place, byte offset, the format's field names) stays the precise detail an expert reads after it.
 */
import { escapeControls, type FileKind, type FormatErrorPlace } from './errors';
import { TUNING_SUFFIX } from './tuning/sidecar';

export interface PlainFileProblem {
  /** The file's base name (or "the file" when the error does not name one). */
  file: string;
  /** What is wrong, as a clause after "Could not open FILE: " ("it is cut short: ..."). */
  lead: string;
  /** What to do about it, one sentence. */
  advice: string;
}

/** What a kind of file is, in words. */
export const FILE_KIND_NOUNS: Record<FileKind, string> = {
  MTN: 'motion (.mtn)',
  MT3: 'compressed motion (.mt3)',
  MAR: 'motion archive (.mar)',
  SEV: 'sound-event file (.sev)',
  SLS: 'SE table (.sls)',
  SE_DEFINE: 'SE table (se_define.h)',
  SAR: 'sound-event archive (.sar)',
  PROJECT: 'project file',
  BVH: 'BVH capture',
  GLTF: 'glTF file',
  FBX: 'FBX file',
  MSH: 'MSH export',
  TUNING: 'tuning settings file',
};

/** Kinds that are text: their problems are placed at a line, and fixed in a text editor. */
const TEXT_KINDS = new Set<FileKind>(['SEV', 'SLS', 'SE_DEFINE', 'PROJECT', 'BVH', 'TUNING']);

/** The noun with its article: "an SE table", "a motion (.mtn)". */
function aNoun(noun: string): string {
  return `${/^(SE|MSH|FBX|[aeiou])/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** The last part of a path. */
function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

const CUT_SHORT =
  /shorter than|past the end|runs? out|implies \d+ bytes|but the file is \d+ bytes|end of (the )?(file|data|input|stream)|truncated|ends (early|before|too soon|inside|in the middle)/i;
const MISSING_FILE = /^cannot read (.+): (?:ENOENT\b|no such file)/i;
const NOT_THIS_KIND = /bad magic|not an? [^ ]+ file|unsupported version/i;
const NOT_FINITE = /not finite|\bNaN\b|infinit/i;
const NOT_TEXT = /invalid UTF-8|non-ASCII byte|not (valid )?text/i;

/**
 * The plain-language problem of a FormatError's parts. The classification reads the detail's wording, so an
 * unrecognised detail still gets a plain lead ("it is damaged, or not a motion ActGuy can read"). `action` is what
 * the user was doing with the file (File > Import reads "then import it again").
 */
export function plainFileProblem(
  kind: FileKind,
  detail: string,
  place: FormatErrorPlace,
  file?: string,
  action: 'open' | 'import' = 'open',
): PlainFileProblem {
  // A received folder's file may be named with a bidi override: shown as \uXXXX, as every message shows it (round 51).
  const name = file ? escapeControls(baseName(file)) : 'the file';
  const noun = FILE_KIND_NOUNS[kind];
  const text = TEXT_KINDS.has(kind);
  const atLine = place.line !== undefined ? ` at line ${place.line}` : '';
  const fixText = place.line
    ? `Fix it at line ${place.line} in a text editor, then ${action} it again.`
    : `Fix it in a text editor (the details below say where), then ${action} it again.`;
  // A motion's tuning file opened as a project (shared/project/validate.ts): nothing in it to fix.
  if (kind === 'PROJECT' && name.toLowerCase().endsWith(TUNING_SUFFIX) && /tuning file/.test(detail)) {
    const motion = name.slice(0, -TUNING_SUFFIX.length);
    return {
      file: name,
      lead: `it is the tuning file ActGuy keeps beside ${motion} (its tolerances), not a project.`,
      advice: `To tune that motion, open ${motion} with File › Open…; a project is a .actguy.json file.`,
    };
  }
  // A build report opened as a project (shared/project/validate.ts NOT_A_PROJECT_BUT_REPORT): nothing in it to fix.
  if (kind === 'PROJECT' && /^a build report /.test(detail)) {
    const project = / it reports on (.+)$/.exec(detail)?.[1];
    return {
      file: name,
      lead: `it is the build report ActGuy wrote at a build (what went into the .mar and .sar), not a project.`,
      advice: project
        ? `To open the project it reports on, choose ${project} with Open Project….`
        : 'To open a project, choose its .actguy.json file with Open Project….',
    };
  }
  // A project naming a file that is not there (shared/project/plan.ts "cannot read PATH: REASON"): the project has no
  // mistake to fix in a text editor, the file is gone or misnamed (tried cold, round 5: "it has a mistake in
  // motions[1].mtn … Fix it in a text editor").
  const missing = kind === 'PROJECT' ? MISSING_FILE.exec(detail) : null;
  if (missing) {
    const at = place.where ? ` (${place.where})` : '';
    return {
      file: name,
      lead: `it names ${baseName(missing[1])}${at}, which is not there.`,
      advice: `Put ${baseName(missing[1])} back, or change the name in a text editor; then press Check.`,
    };
  }
  // A project of no motions (a new stage): the app's + Add fixes it, not a text editor.
  if (kind === 'PROJECT' && place.where === 'motions' && /non-empty/.test(detail))
    return {
      file: name,
      lead: 'it lists no motions yet: an archive needs at least one.',
      advice: 'Add one with + Add in the project panel (or File › Import Motion…), then save the project.',
    };
  if (CUT_SHORT.test(detail))
    return {
      file: name,
      lead: `it ends too soon${text ? atLine : ''}: part of its data is missing (a copy or save that stopped part way?).`,
      advice: text ? fixText : 'Copy it again, or export it again from the tool that made it.',
    };
  if (/unsupported version/i.test(detail))
    return {
      file: name,
      lead: `it is ${aNoun(noun)} of a version ActGuy does not read.`,
      advice: 'Export it again as the version this ActGuy reads.',
    };
  if (NOT_THIS_KIND.test(detail))
    return {
      file: name,
      lead: `it is not ${aNoun(noun)}: its first bytes are not those of one (another kind of file, or damaged at its start).`,
      advice: 'Check that this is the file you meant, or export it again.',
    };
  if (NOT_FINITE.test(detail)) {
    const where = place.where ? ` at ${place.where}` : atLine;
    return {
      file: name,
      lead: `it holds a broken number (NaN or infinity)${where}, where ${aNoun(noun)} needs a real value.`,
      advice: 'Export it again from the tool that made it (a broken number there usually means a broken source).',
    };
  }
  if (NOT_TEXT.test(detail))
    return {
      file: name,
      lead: `it holds bytes that are not text${atLine}: it is damaged, or not ${aNoun(noun)}.`,
      advice: text ? fixText : 'Export it again from the tool that made it.',
    };
  if (text)
    return {
      file: name,
      lead: `it has a mistake${atLine}${place.where ? ` in ${place.where}` : ''}: ${detail}.`,
      advice: fixText,
    };
  return {
    file: name,
    lead: `it holds values no valid ${noun} has: it is damaged, or was written by a tool ActGuy does not know.`,
    advice: 'Export it again from the tool that made it.',
  };
}

/**
 * A File > Import that failed for another reason than a bad file (FormatError: plainFileProblem), in the same plain
 * words: the source could not be read (gone, not allowed, a folder, too large, the read cancelled), or the importer
 * stopped or ran past its time. `message` is the technical message (the Details); `file` the source's path. Null for
 * a message it does not know (that message is then shown as it is).
 */
export function plainImportFailure(message: string, file: string): PlainFileProblem | null {
  const name = baseName(file);
  const said = (lead: string, advice: string): PlainFileProblem => ({ file: name, lead, advice });
  // A refused worker bundle (electron/workerBundles.ts bundleRefusal's words): the installation, not the file.
  if (message.startsWith("ActGuy's installation is damaged"))
    return said(
      "ActGuy's installation is damaged (one of its own files is not the one it was built with), so the import did not run. The file is not to blame.",
      'Reinstall ActGuy, then import it again.',
    );
  const budget = /stopped after ([\d.]+) s/.exec(message);
  if (budget)
    return said(
      `it took longer than the ${budget[1]} s an import may take: it is damaged, or far larger than a motion.`,
      'Check that it is the take you meant; cut a very long take into parts, then import them.',
    );
  if (/importer stopped|import worker did not start/i.test(message))
    return said(
      'the importer stopped before it finished (it may have run out of memory). Nothing was changed.',
      'Import it again; if it stops again, close other programs or import fewer files at once.',
    );
  if (/\b(aborted|cancell?ed)\b|ECANCELED|AbortError/i.test(message))
    return said('reading it was cancelled before it finished. Nothing was changed.', 'Import it again.');
  if (/does not exist|no such file|ENOENT/i.test(message))
    return said(
      'the file is not there any more (moved, renamed or deleted since it was chosen).',
      'Choose it again where it is now.',
    );
  if (/permission denied|not permitted|EACCES|EPERM/i.test(message))
    return said(
      'ActGuy is not allowed to read it (permission denied).',
      'Give yourself read access to it, or copy it to a folder you can read, then import it again.',
    );
  if (/is a folder|not a (regular|plain) file|EISDIR/i.test(message))
    return said(
      'it is not a file ActGuy can read (a folder, a device, a pipe or a socket).',
      'Choose the motion file itself.',
    );
  if (/more than the \d+ MiB an import reads|ActGuy reads of an import source|EFBIG/i.test(message))
    return said(
      'it is larger than an import reads (the details give both sizes).',
      'Cut the take into parts, or export it without what a motion does not need (meshes, textures), then import it again.',
    );
  if (/in use|EBUSY/i.test(message))
    return said('another program is using it.', 'Close it there, then import it again.');
  return null;
}

/** A failed compression (the compressor's worker, or a motion it refused) in words an animator reads first. */
export interface PlainCompressionProblem {
  /** What went wrong, as a clause after "Compression failed: ". */
  lead: string;
  /** What the user's work is now and what to do, one or two sentences. */
  advice: string;
}

const KEPT = 'Your edits are kept; the figures on screen are from the last compression that worked.';

/**
 * The plain words of a compression failure. `refused` is set when the compressor refused the motion it was given
 * (a FormatError: an edit broke a rule of the format); `message` is the compressor's own message, the Details.
 */
export function plainCompressionProblem(message: string, refused = false): PlainCompressionProblem {
  if (refused)
    return {
      lead: 'the compressor refused the motion as it is now edited (the details say which rule it breaks)',
      advice: `${KEPT} Undo the last edit (Ctrl+Z) to go back to a motion it takes.`,
    };
  if (/shut down/i.test(message))
    return { lead: 'the compressor was shut down (ActGuy is closing)', advice: 'Save your work before you close.' };
  if (/compressor stopped|exit code|did not start|worker/i.test(message))
    return {
      lead: 'the compressor stopped unexpectedly (it may have run out of memory)',
      advice: `${KEPT} Make any edit, or Undo then Redo, to compress again; if it stops again, save and reopen the motion.`,
    };
  if (/is not open|could not be read/i.test(message))
    return {
      lead: 'the compressor no longer holds this motion',
      advice: `${KEPT} Save your work, then close the motion and open it again.`,
    };
  return {
    lead: 'the compressor reported an error',
    advice: `${KEPT} Undo the last edit (Ctrl+Z) and try again; the details say what went wrong.`,
  };
}
