/**
 * The files the OS may hand to ActGuy (double-click, "Open With", a second
 * launch with a file): what each kind is and where it opens. The packaged
 * app's file associations (electron-builder.yml) list the same extensions.
 */

/** motion: .mtn/.mt3/.mar (the tuner); sev: a sound-event file (its project's SEV editor); project: *.actguy.json. */
export type SystemFileKind = 'motion' | 'sev' | 'project';

/** The extensions of each kind, lower case, with the dot. A project is the double extension `.actguy.json`. */
export const SYSTEM_FILE_EXTENSIONS: Record<SystemFileKind, readonly string[]> = {
  motion: ['.mtn', '.mt3', '.mar'],
  sev: ['.sev'],
  project: ['.actguy.json'],
};

/** The kind of file a path names by its extension (case-insensitive), or null for a file ActGuy does not open. */
export function systemFileKindOfPath(path: string): SystemFileKind | null {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase();
  for (const kind of ['project', 'sev', 'motion'] as const) {
    // The name needs something before the extension (".mtn" alone is a hidden file, not a motion).
    if (SYSTEM_FILE_EXTENSIONS[kind].some((ext) => name.length > ext.length && name.endsWith(ext))) return kind;
  }
  return null;
}
