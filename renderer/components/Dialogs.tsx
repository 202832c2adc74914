import { escapeControls, HIDDEN_CHARACTERS } from '../../shared/errors';
import { WillWrite } from './WillWrite';
import { FILE_NAME_MAX_BYTES } from '../../shared/fileSystemLimits';
import { joinPath } from '../../shared/project/paths';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSession } from '../state/hooks';
import type { ConfirmRequest, PickerRequest } from '../state/sessionStore';
import { Modal } from './Modal';
import { isTypingTarget } from '../app/commands';
import { exactBytes, sizeText } from '../project/byteSize';

/** Choices a list shows before it offers a filter. */
export const LIST_FILTER_FROM = 8;

/** The choices of a list question the filter keeps (its text in the label, any case). */
export function filterChoices<T extends { label: string }>(choices: readonly T[], filter: string): T[] {
  const f = filter.trim().toLowerCase();
  return f ? choices.filter((c) => c.label.toLowerCase().includes(f)) : [...choices];
}

/** macOS, where ⌘↑ and ⌥↑ move a text field's caret to its start. */
const ON_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * Whether a key goes up a folder in the file picker: Alt+↑ (Windows, Linux) or ⌘↑ (macOS), as system file dialogs do.
 * In a text field (the filter, the file name) only where the field has no use for it, so that the key does not act
 * twice while typing: ⌘↑, and ⌥↑ on macOS, move the caret to the field's start and stay the field's; Alt+↑ off
 * macOS means nothing to a field and goes up from it, as in Windows' own dialog (docs/architecture.md, "Renderer
 * review, round 12").
 */
export function upFolderKey(
  e: Pick<KeyboardEvent, 'key' | 'altKey' | 'metaKey' | 'ctrlKey' | 'shiftKey'>,
  inField: boolean,
  mac: boolean,
): boolean {
  if (e.key !== 'ArrowUp' || !(e.altKey || e.metaKey) || e.ctrlKey || e.shiftKey) return false;
  return !inField || (e.altKey && !e.metaKey && !mac);
}

/**
 * The modal question (unsaved changes, archive entry, clip, skeleton). A list question (`list`) shows its choices
 * in a list that scrolls, with a filter past LIST_FILTER_FROM of them; the dialog never grows past the window.
 */
export function ConfirmDialog() {
  const req = useSession((s) => s.confirm);
  const filterInput = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [filter, setFilter] = useState('');
  useEffect(() => setFilter(''), [req]);
  if (!req) return null;
  const choices = req.list !== undefined ? req.buttons.filter((b) => b.id !== 'cancel') : [];
  const actions = req.list !== undefined ? req.buttons.filter((b) => b.id === 'cancel') : req.buttons;
  const withFilter = choices.length > LIST_FILTER_FROM;
  const shown = filterChoices(choices, filter);
  const listButtons = () => Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? []);
  // Up and Down move between the list's choices (and from the filter into the list), as in a native list.
  const onListKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const items = listButtons();
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'ArrowDown' ? at + 1 : at - 1;
    e.preventDefault();
    if (next < 0) filterInput.current?.focus();
    else items[Math.min(next, items.length - 1)]?.focus();
  };
  // A question's primary answer takes the focus, so Enter gives it: the one that keeps the work where another drops
  // it (Cancel before "Reload from disk"); a list takes it on its filter or first choice (the Modal's first control).
  const button = (b: ConfirmRequest['buttons'][number]) => (
    <button
      key={b.id}
      data-autofocus={(b.primary && req.list === undefined) || undefined}
      type="button"
      className={b.primary ? 'primary' : ''}
      data-testid={`confirm-${b.id}`}
      onClick={() => req.resolve(b.id)}
    >
      {b.label}
    </button>
  );
  return (
    <Modal
      title={req.title}
      focusKey={req}
      testId="confirm-dialog"
      className={req.list !== undefined ? 'modal-with-list' : undefined}
      onEscape={() => req.resolve('cancel')}
      buttonsLayout={req.list === undefined && req.buttons.length > 3 ? 'column' : 'row'}
      buttons={actions.map(button)}
    >
      <p>{req.text}</p>
      {req.list !== undefined && (
        <>
          {withFilter && (
            <input
              ref={filterInput}
              className="picker-filter"
              placeholder="Filter…"
              aria-label={`Filter ${req.list}`}
              data-testid="confirm-filter"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              onKeyDown={(e) => {
                // Enter takes the one choice the filter leaves.
                if (e.key === 'Enter' && shown.length === 1) req.resolve(shown[0].id);
                else onListKey(e);
              }}
            />
          )}
          <div
            ref={listRef}
            className="modal-list"
            role="group"
            aria-label={req.list}
            data-testid="confirm-list"
            onKeyDown={onListKey}
          >
            {shown.map(button)}
            {shown.length === 0 && (
              <div className="dim" data-testid="confirm-list-empty">
                Nothing listed contains &quot;{filter.trim()}&quot;: clear the filter to see all {choices.length}.
              </div>
            )}
          </div>
          {withFilter && (
            <div className="dim small" data-testid="confirm-list-count">
              {shown.length === choices.length
                ? `${choices.length} listed`
                : `${shown.length} of ${choices.length} listed`}
            </div>
          )}
        </>
      )}
    </Modal>
  );
}

/**
 * A save name as typed in the picker ("walk", "out/walk.res8"), as the path under the workspace folder it names:
 * `.` and empty parts dropped ("./out//walk.res8" is "out/walk.res8"), so that the question before replacing a file
 * finds the file it is (docs/security.md, round 42: "out/../walk.mtn" replaced walk.mtn without it). A name that
 * could only land outside the workspace or not at all is refused in words: a full path, `..`, a control character
 * (NUL among them) or one that hides or reorders text, a part longer than a file name can be.
 */
export function savePickerName(typed: string): { name: string } | { problem: string } {
  const parts = typed.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
  // The drive on the name as saved: "./C:walk" is "C:walk" once the "./" is dropped (fuzz round 3, docs/testing.md).
  if (/^[\\/]/.test(typed) || /^[A-Za-z]:/.test(parts[0] ?? ''))
    return { problem: 'Type a name in the workspace folder (a folder of it before the name), not a full path.' };
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(typed)) return { problem: 'A file name cannot hold a control character.' };
  // What a project's key and the CLI's arguments refuse, and main's New Folder (docs/security.md, round 55): the file
  // made would read as another (`wa\u200blk.mtn` beside `walk.mtn`, `walk\u202egpj.mtn`).
  if (HIDDEN_CHARACTERS.test(typed))
    return {
      problem:
        'A file name cannot hold a character that displays as nothing or reorders the line (a zero-width space or joiner, a soft hyphen, a direction mark): the file would read as another.',
    };
  if (parts.includes('..'))
    return { problem: '".." would leave the workspace folder: type a folder of the workspace before the name.' };
  if (parts.some((p) => new TextEncoder().encode(p).length > FILE_NAME_MAX_BYTES))
    return { problem: `A file or folder name can be at most ${FILE_NAME_MAX_BYTES} bytes long.` };
  if (parts.length === 0) return { problem: 'Type a file name first.' };
  return { name: parts.join('/') };
}

/**
 * The workspace file a typed save name lands on, or undefined for a new file: the name as typed (savePickerName), or
 * with the first extension added as the save will add it ("walk" saves walk.mtn).
 */
export function existingSaveTarget(
  req: Pick<PickerRequest, 'files' | 'extensions'>,
  typed: string,
): PickerRequest['files'][number] | undefined {
  const checked = savePickerName(typed);
  if ('problem' in checked) return undefined;
  const lower = checked.name.toLowerCase();
  const named =
    req.extensions.some((e) => lower.endsWith(`.${e}`)) || !req.extensions.length
      ? checked.name
      : `${checked.name}.${req.extensions[0]}`;
  return req.files.find((x) => x.relativePath === named);
}

/** The folder a workspace path lies in ('' for the root): "out/msh/walk.res8" lies in "out/msh". */
export function folderOf(relativePath: string): string {
  const i = relativePath.lastIndexOf('/');
  return i < 0 ? '' : relativePath.slice(0, i);
}

/** `name` in the workspace folder `folder` ('' the root), '/'-separated. */
export function inFolder(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** The folders right inside `folder` ('' the root) among the listing's, in name order. */
export function subfoldersOf(folders: readonly string[], folder: string): string[] {
  return folders.filter((f) => f !== folder && folderOf(f) === folder).sort();
}

/** Whether the workspace path `path` lies in `folder` ('' the root) or in a folder under it. */
export function isUnder(path: string, folder: string): boolean {
  return folder === '' || path.startsWith(`${folder}/`);
}

/** `path` as shown in `folder`: the part after the folder ("out/msh/walk.res8" in "out" is "msh/walk.res8"). */
export function shownIn(path: string, folder: string): string {
  return folder ? path.slice(folder.length + 1) : path;
}

/**
 * The folders an open picker goes into: the listing's, and those its files lie in (a link to a folder inside the
 * workspace: the listing leaves it out of its folders, which a save or New Folder must not go through, but lists its
 * files), each with the folders above it.
 */
export function openPickerFolders(folders: readonly string[], files: readonly { relativePath: string }[]): string[] {
  const all = new Set(folders);
  for (const f of files) for (let d = folderOf(f.relativePath); d && !all.has(d); d = folderOf(d)) all.add(d);
  return [...all];
}

/** The files of the listing a picker shows in `folder`: its own, or with a filter those under it whose path there holds it. */
export function filesShown<T extends { relativePath: string; extension: string }>(
  files: readonly T[],
  extensions: readonly string[],
  folder: string | null,
  filter: string,
): T[] {
  const f = filter.trim().toLowerCase();
  return files.filter((x) => {
    if (!extensions.includes(x.extension)) return false;
    // Without folders (no listing of them), every file, flat, as before 2026-12-05.
    if (folder === null) return x.relativePath.toLowerCase().includes(f);
    if (!f) return folderOf(x.relativePath) === folder;
    return isUnder(x.relativePath, folder) && shownIn(x.relativePath, folder).toLowerCase().includes(f);
  });
}

/** What the picker's list says when it lists nothing: why, and what to do. */
export function emptyListText(req: Pick<PickerRequest, 'mode' | 'extensions'>, filter: string): string {
  const kinds = req.extensions.map((e) => `.${e}`).join(', ');
  if (req.mode === 'save') return `No ${kinds} file here yet: type a name above and Save writes a new one.`;
  if (req.mode === 'folder') return `No ${kinds} file here yet.`;
  if (filter.trim()) return `No ${kinds} file name contains "${filter.trim()}": clear the filter to see them all.`;
  return `No ${kinds} file in this folder: put one in the workspace folder above, then open this again.`;
}

/** What the folder bar calls the folder shown, by the picker's mode. */
const FOLDER_WORDS: Record<PickerRequest['mode'], string> = { open: 'Look in', save: 'Save in', folder: 'Export into' };

/** A folder choice's files (WillWrite), and which of them the folder shown holds already. */
function PickerWillWrite({ names, req, folder }: { names: readonly string[]; req: PickerRequest; folder: string }) {
  const here = new Set(
    req.files.filter((f) => folderOf(f.relativePath) === folder).map((f) => shownIn(f.relativePath, folder)),
  );
  return (
    <WillWrite
      names={names}
      replaced={names.filter((n) => here.has(n))}
      wayOut="Choose another folder (or make a new one) to keep them."
      testId="picker"
    />
  );
}

/** The in-app file picker used where there are no native dialogs (loopback). */
export function FilePicker() {
  const req = useSession((s) => s.picker);
  const [filter, setFilter] = useState('');
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  // Several files ('open' with resolveMany): the ones chosen, in the order clicked.
  const [many, setMany] = useState<string[]>([]);
  // Save onto a file that exists: the path the picker asked about; a second Save (or Enter) replaces it.
  const [replacing, setReplacing] = useState<string | null>(null);
  // Why the name typed cannot be saved (savePickerName), until it is typed again.
  const [problem, setProblem] = useState<string | null>(null);
  // 'save': the workspace folder shown and saved in ('' the root), the folders made here, and New Folder's field.
  const [folder, setFolder] = useState('');
  const [made, setMade] = useState<string[]>([]);
  const [newFolder, setNewFolder] = useState<string | null>(null);
  const [folderError, setFolderError] = useState<string | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  // The New Folder asked for and not yet answered (main makes it): Escape in its field, another folder or another
  // request drops it, so that its answer neither moves the picker nor shows an error the user left behind.
  const making = useRef<{ req: PickerRequest } | null>(null);
  // The request shown now, for an answer that comes after it was cancelled (and another perhaps opened).
  const shownReq = useRef(req);
  shownReq.current = req;
  // The folders it goes into: a save's (or a folder choice's) are the listing's, where New Folder may make one; an
  // open's also those its files lie in (openPickerFolders).
  const folders = useMemo(
    () => (!req?.folders ? null : req.mode === 'open' ? openPickerFolders(req.folders, req.files) : req.folders),
    [req],
  );
  useEffect(() => {
    setProblem(null);
    setFilter('');
    setChosen(null);
    setMany([]);
    setReplacing(null);
    setName(req?.defaultName ?? '');
    // Where it was last, for this kind of file (renderer/app/pickerFolders.ts); one not listed now is the root.
    setFolder(req?.startFolder && req.folders?.includes(req.startFolder) ? req.startFolder : '');
    setMade([]);
    setNewFolder(null);
    setFolderError(null);
    making.current = null;
  }, [req]);
  // Every picker shows one workspace folder at a time, its folders first, as a system dialog does (tried cold, rounds
  // 17 and 18: the save and then the open picker listed every file of the workspace and no folder).
  const browsing = folders !== null;
  const files = useMemo(
    () => (req ? filesShown(req.files, req.extensions, browsing ? folder : null, filter) : []),
    [req, filter, browsing, folder],
  );
  const subfolders = useMemo(() => {
    if (!browsing) return [];
    const f = filter.trim().toLowerCase();
    return subfoldersOf([...folders, ...made], folder).filter((d) => shownIn(d, folder).toLowerCase().includes(f));
  }, [browsing, folders, made, folder, filter]);
  const goTo = (to: string) => {
    making.current = null;
    setFolder(to);
    setReplacing(null);
    setNewFolder(null);
    setFolderError(null);
  };
  // Alt+↑ (Windows, Linux) or ⌘↑ (macOS) goes up a folder, as system file dialogs do; from a field only where the
  // field has no use for the key (upFolderKey).
  useEffect(() => {
    if (!req || !browsing || !folder) return;
    const onKey = (e: KeyboardEvent) => {
      if (!upFolderKey(e, isTypingTarget(e.target), ON_MAC)) return;
      e.preventDefault();
      goTo(folderOf(folder));
      setFilter('');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [req, browsing, folder]);
  if (!req) return null;
  const makeFolder = async () => {
    const typed = (newFolder ?? '').trim();
    if (!req.makeFolder) return;
    const asked = { req };
    making.current = asked;
    try {
      const path = await req.makeFolder(folder, typed);
      // Made for a request since cancelled: nothing of it belongs to the one shown now (docs/architecture.md,
      // "Renderer review, round 5").
      if (shownReq.current !== req) return;
      // It is there now, so it is listed; the picker goes into it only if the user still waits for it.
      setMade((m) => [...m, path]);
      if (making.current !== asked) return;
      goTo(path);
      nameInput.current?.focus();
    } catch (e) {
      if (making.current === asked) setFolderError(e instanceof Error ? e.message : String(e));
    } finally {
      if (making.current === asked) making.current = null;
    }
  };
  const multiple = req.mode === 'open' && req.resolveMany !== undefined;
  const accept = () => {
    if (multiple) {
      if (many.length) req.resolveMany!(many);
      return;
    }
    if (req.mode === 'open') {
      if (chosen) req.resolve(chosen);
      return;
    }
    if (req.mode === 'folder') {
      if (req.root) req.resolve(folder ? joinPath(req.root, folder) : req.root);
      return;
    }
    const raw = name.trim();
    if (!raw) return;
    const typed = browsing ? inFolder(folder, raw) : raw;
    const checked = savePickerName(typed);
    if ('problem' in checked) {
      setProblem(checked.problem);
      return;
    }
    const existing = existingSaveTarget(req, typed);
    // Native save dialogs ask before replacing a file; so does this one (it once overwrote another motion silently).
    if (existing && replacing !== existing.path) {
      setReplacing(existing.path);
      return;
    }
    if (existing && existing.relativePath === checked.name) req.resolve(existing.path);
    else if (req.root) req.resolve(joinPath(req.root, checked.name));
  };
  const replaceTarget = req.mode === 'save' && replacing ? req.files.find((x) => x.path === replacing) : undefined;
  return (
    <Modal
      title={req.title}
      focusKey={req}
      testId="file-picker"
      className="picker"
      onEscape={() => req.resolve(null)}
      buttons={
        <>
          <button
            type="button"
            className="primary"
            data-testid="picker-ok"
            disabled={
              multiple
                ? many.length === 0
                : req.mode === 'open'
                  ? !chosen
                  : req.mode === 'folder'
                    ? !req.root
                    : !name.trim() || !req.root
            }
            title={
              (multiple ? many.length === 0 : req.mode === 'open' && !chosen)
                ? 'Choose a file in the list first'
                : req.mode === 'save' && !name.trim()
                  ? 'Type a file name first'
                  : undefined
            }
            onClick={accept}
          >
            {multiple
              ? many.length > 1
                ? `Open ${many.length} files`
                : 'Open'
              : req.mode === 'open'
                ? 'Open'
                : req.mode === 'folder'
                  ? 'Choose this folder'
                  : replaceTarget
                    ? 'Replace'
                    : 'Save'}
          </button>
          <button type="button" data-testid="picker-cancel" onClick={() => req.resolve(null)}>
            Cancel
          </button>
        </>
      }
    >
      <div className="dim small">
        {req.root ? escapeControls(req.root) : 'No workspace folder'} · {req.extensions.map((e) => `.${e}`).join(' ')}
        {multiple ? ' · click to choose one or several files' : ''}
      </div>
      {req.mode === 'open' ? (
        <input
          className="picker-filter"
          placeholder="Filter…"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => {
            // Enter opens the chosen file, or the only one the filter leaves.
            if (e.key !== 'Enter') return;
            if (multiple) accept();
            else if (chosen) req.resolve(chosen);
            else if (files.length === 1) req.resolve(files[0].path);
          }}
          aria-label="Filter files"
        />
      ) : req.mode === 'folder' ? null : (
        <input
          ref={nameInput}
          className="picker-filter"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setReplacing(null);
            setProblem(null);
          }}
          onKeyDown={(e) => e.key === 'Enter' && accept()}
          aria-label="File name"
          data-testid="picker-name"
        />
      )}
      {req.mode === 'save' && problem && (
        <div className="bad small" role="alert" data-testid="picker-problem">
          {problem}
        </div>
      )}
      {browsing && (
        // The folder shown, up out of it, and (saving) a new one in it, as a system dialog has them (tried cold, rounds
        // 17 and 18). A folder typed before a save's name still saves there (out/walk.res8), from the folder shown.
        <div className="picker-folder-bar">
          <span className="small" data-testid="picker-folder">
            {FOLDER_WORDS[req.mode]}: <b>{folder ? `workspace/${escapeControls(folder)}` : 'workspace'}</b>
          </span>
          <span className="spacer" />
          <button
            type="button"
            className="tool small"
            data-testid="picker-up"
            disabled={!folder}
            title={
              folder
                ? `Up to ${escapeControls(folderOf(folder)) || 'the workspace'} (Alt+↑)`
                : 'This is the workspace folder'
            }
            onClick={() => {
              goTo(folderOf(folder));
              setFilter('');
            }}
          >
            ↑ Up
          </button>
          {req.makeFolder && req.mode !== 'open' && (
            <button
              type="button"
              className="tool small"
              data-testid="picker-new-folder"
              title="Make a folder here and save in it"
              onClick={() => {
                setNewFolder('');
                setFolderError(null);
              }}
            >
              New Folder
            </button>
          )}
        </div>
      )}
      {browsing && newFolder !== null && (
        <div className="picker-folder-bar">
          <input
            className="picker-filter"
            autoFocus
            aria-label="New folder name"
            placeholder="New folder name"
            data-testid="picker-new-folder-name"
            value={newFolder}
            onChange={(e) => {
              setNewFolder(e.target.value);
              setFolderError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void makeFolder();
              else if (e.key === 'Escape') {
                // Escape leaves the new folder, not the whole dialog: its refusal and its answer still to come too.
                e.stopPropagation();
                making.current = null;
                setNewFolder(null);
                setFolderError(null);
                nameInput.current?.focus();
              }
            }}
          />
          <button
            type="button"
            className="tool small"
            data-testid="picker-make-folder"
            disabled={!newFolder.trim()}
            onClick={() => void makeFolder()}
          >
            Make
          </button>
        </div>
      )}
      {folderError && (
        <p className="picker-replace" role="alert" data-testid="picker-folder-error">
          {folderError}
        </p>
      )}
      <ul className="picker-list" role="listbox" aria-label="Files">
        {subfolders.map((f) => (
          <li key={`folder:${f}`}>
            <button
              type="button"
              role="option"
              aria-selected={false}
              className="picker-file picker-folder-row"
              data-testid="picker-folder-row"
              title={`Go into ${escapeControls(f)}`}
              onClick={() => {
                goTo(f);
                setFilter('');
              }}
            >
              <span>{escapeControls(shownIn(f, folder))}/</span>
              <span className="dim">folder</span>
            </button>
          </li>
        ))}
        {/* Under the folders too: a folder with folders but no file of the kind still says what Save does here. */}
        {files.length === 0 && (
          <li className="dim" data-testid="picker-empty">
            {emptyListText(req, filter)}
          </li>
        )}
        {files.map((f) => (
          <li key={f.path}>
            <button
              type="button"
              role="option"
              aria-selected={multiple ? many.includes(f.path) : chosen === f.path}
              className={
                (multiple ? many.includes(f.path) : chosen === f.path) ? 'picker-file selected' : 'picker-file'
              }
              data-testid="picker-file"
              // Choosing a folder: its files are there to see what is in it, not to choose.
              disabled={req.mode === 'folder'}
              onClick={() => {
                if (multiple) setMany((m) => (m.includes(f.path) ? m.filter((p) => p !== f.path) : [...m, f.path]));
                else setChosen(f.path);
                if (req.mode === 'save') {
                  setName(browsing ? shownIn(f.relativePath, folder) : f.relativePath);
                  setReplacing(null);
                }
              }}
              onDoubleClick={() => (multiple ? undefined : req.resolve(f.path))}
            >
              <span>
                {multiple && many.includes(f.path) ? `${many.indexOf(f.path) + 1}. ` : ''}
                {/* A name from a received folder may hold a bidi override ("x\u202Elqs.sev" shows as "xves.lqs"). */}
                {escapeControls(browsing ? shownIn(f.relativePath, folder) : f.relativePath)}
              </span>
              <span className="dim" title={exactBytes(f.byteLength)}>
                {sizeText(f.byteLength)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {req.mode === 'folder' && req.willWrite && <PickerWillWrite names={req.willWrite} req={req} folder={folder} />}
      {replaceTarget && (
        <p className="picker-replace" role="alert" data-testid="picker-replace">
          {escapeControls(replaceTarget.relativePath)} already exists. Replace it? Its contents are lost; Cancel or type
          another name to keep it.
        </p>
      )}
      {req.incomplete && (
        <p className="dim picker-incomplete" data-testid="picker-incomplete">
          {req.incomplete}
        </p>
      )}
    </Modal>
  );
}
