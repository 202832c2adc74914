/** Animation clips of a multi-clip source (glTF, FBX): how they are listed and how one is chosen. */
import { FormatError, quoteJson, type FileKind } from '../errors';

/** One animation clip of a file, as listed for the user to choose from. */
export interface ClipInfo {
  index: number;
  name: string;
  /** Seconds from the first to the last key of the clip. */
  duration: number;
}

/** Thrown when a file holds several clips and none was chosen (or the chosen one does not exist); `clips` lists them. */
export class ClipChoiceError extends FormatError {
  readonly clips: ClipInfo[];
  constructor(clips: ClipInfo[], detail: string, kind: FileKind, where: string) {
    super(kind, detail, { where });
    this.clips = clips;
  }
  override withFile(file: string): FormatError {
    const e = new ClipChoiceError(this.clips, this.detail, this.kind, this.place.where ?? '');
    e.file = file;
    Object.defineProperty(e, 'message', { value: new FormatError(this.kind, this.detail, this.place, file).message });
    return e;
  }
}

/** The clips as one line: `0 "Walk" (1.20 s), 1 "Run" (0.80 s)`. */
export function clipListing(infos: readonly ClipInfo[]): string {
  return infos.map((c) => `${c.index} ${quoteJson(c.name)} (${c.duration.toFixed(2)} s)`).join(', ');
}

/**
 * The index of the clip `choice` names (a name first, else an index as a
 * number or a digit string); with no choice, the only clip. Throws
 * ClipChoiceError when there are several and no choice, or no such clip.
 */
export function chooseClip(
  infos: readonly ClipInfo[],
  choice: string | number | undefined,
  kind: FileKind,
  where: string,
): number {
  const listing = clipListing(infos);
  if (choice === undefined) {
    if (infos.length > 1)
      throw new ClipChoiceError(
        [...infos],
        `the file has ${infos.length} animation clips: ${listing}; choose one with --clip NAME|INDEX`,
        kind,
        where,
      );
    return 0;
  }
  const byName = infos.find((c) => c.name === String(choice));
  const asIndex = typeof choice === 'number' ? choice : /^\d+$/.test(choice) ? Number(choice) : -1;
  if (byName) return byName.index;
  if (asIndex >= 0 && asIndex < infos.length) return asIndex;
  throw new ClipChoiceError(
    [...infos],
    `no animation clip ${quoteJson(String(choice))}; the file has ${listing}`,
    kind,
    where,
  );
}
