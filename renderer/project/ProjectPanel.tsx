import { escapeControls, escapeControlsKeepingLines } from '../../shared/errors';
import { basenameOf } from '../../shared/project/paths';
import { useEffect, useId, useRef, useState } from 'react';
import { useDocument } from '../state/hooks';
import { exportMt3 } from '../app/motionFiles';
import { useProject, useSev } from '../sev/hooks';
import { isSevDirty, sevStore } from '../sev/sevStore';
import { useShownSevProblems } from '../sev/sevProblems';
import { isProjectDirty, problemsByMotion, projectStore } from './projectStore';
import type { BuildProblem } from '../../shared/ipc';
import {
  addMotion,
  moveMotion,
  removeMotion,
  revealProblem,
  selectMotion,
  storeTunerTolerances,
} from './projectMotions';
import { buildArchives, checkProject } from './projectBuild';
import { buildButtonLook } from './buildProgress';
import { openProjectDialog, saveProjectAndSev } from './projectFiles';
import { aliasRows, durationTitle, formatDurationMs } from './durations';
import { BudgetBar } from './BudgetBar';
import { exactBytes, sizeText } from './byteSize';
import { LIST_FILTER_FROM } from '../components/Dialogs';
import './project.css';

/** The project panel: the motions in archive order with their status, reorder by drag, add/remove, save, check and build. */
/** The motions the filter keeps, with their archive index: those whose name or .mtn holds its text (any case). */
export function listedMotions<M extends { name: string; mtn: string }>(
  motions: readonly M[],
  filter: string,
): { motion: M; index: number }[] {
  const f = filter.trim().toLowerCase();
  const all = motions.map((motion, index) => ({ motion, index }));
  return f
    ? all.filter(({ motion }) => motion.name.toLowerCase().includes(f) || motion.mtn.toLowerCase().includes(f))
    : all;
}

const NO_PROBLEMS: readonly BuildProblem[] = [];

export function ProjectPanel() {
  const path = useProject((p) => p.path);
  const json = useProject((p) => p.json);
  // The row the tuner shows: the selection counts only while the tuner still shows that motion.
  const tunerDocument = useDocument((d) => (d.motion ? d.documentId : null));
  const tunerName = useDocument((d) => d.name);
  const current = useProject((p) =>
    p.current !== null && tunerDocument !== null && p.currentDocumentId === tunerDocument ? p.current : null,
  );
  const notShownReason =
    path && current === null
      ? tunerDocument
        ? `The tuner shows ${tunerName}, not opened from this project: select a motion in the list to act on it.`
        : 'No motion is open: select one in the list.'
      : null;
  const status = useProject((p) => p.status);
  const scales = useProject((p) => p.scales);
  const problems = useProject((p) => p.problems);
  const warnings = useProject((p) => p.warnings);
  const errors = useProject((p) => p.errors);
  const checking = useProject((p) => p.checking);
  // A project edit since the figures were computed (Tolerances → project, the budget, the order): they are of the
  // project before it. The list read "602 keys, max 0.50°" for walk after its tolerances went to 0.8°, the tuner 535
  // keys, and nothing said the figures were old (tried cold, round 28).
  const figuresOld = useProject((p) => p.checkedText !== null && p.checkedText !== p.text && !p.checking);
  const projectDirty = useProject(isProjectDirty);
  const sevDirty = useSev((s) => isSevDirty(s.file));
  const sevMotion = useSev((s) => s.file?.motionName ?? null);
  const hasMotion = useDocument((d) => !!d.motion && !d.readOnly);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  // A stage of hundreds of motions: the list narrowed to the names (or .mtn files) holding the filter's text.
  const [filter, setFilter] = useState('');
  useEffect(() => setFilter(''), [path]);
  const listed = listedMotions(json?.motions ?? [], filter);
  // The list is one Tab stop (a listbox): the selected motion's row, else the first listed; ↑ / ↓, Home and End go
  // from row to row. Every row was a Tab stop, so that a project of 200 motions took 200 Tabs to pass.
  const tabRow = listed.some((l) => l.index === current) ? current : (listed[0]?.index ?? null);
  const rowIds = useId();
  const motionList = useRef<HTMLOListElement>(null);
  // A row that appears in the open project (+ Add, an import, Undo of a removal) is scrolled into view: at 1280x800
  // the list shows three rows, and "+ Add" put the new one below them with only a message to say so (tried cold,
  // round 3). Opening a project reveals nothing.
  const shownNames = useRef<{ path: string | null; names: Set<string> }>({ path: null, names: new Set() });
  useEffect(() => {
    const names = new Set((json?.motions ?? []).map((m) => m.name));
    const before = shownNames.current;
    shownNames.current = { path, names };
    if (before.path !== path) return;
    const added = [...names].filter((n) => !before.names.has(n));
    if (added.length !== 1) return;
    const row = Array.from(
      motionList.current?.querySelectorAll<HTMLElement>('[data-testid="project-motion"]') ?? [],
    ).find((r) => r.dataset.name === added[0]);
    row?.scrollIntoView({ block: 'nearest' });
  }, [json, path]);
  // The dragged row, read synchronously by dragover/drop: the first dragover can arrive before React has
  // re-rendered with the new state, and a dragover that does not preventDefault refuses the drop.
  const dragFromRef = useRef<number | null>(null);
  const endDrag = () => {
    dragFromRef.current = null;
    setDragFrom(null);
    setDropAt(null);
  };

  // Browser (loopback) mode: leaving the tab with unsaved project or SEV edits asks first. (Under Electron a
  // cancelled beforeunload would silently keep the window open, so it is not used there.)
  useEffect(() => {
    if (window.actguy) return undefined;
    const onLeave = (e: BeforeUnloadEvent) => {
      if (isProjectDirty(projectStore.getState()) || isSevDirty(sevStore.getState().file)) e.preventDefault();
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, []);

  const errorTexts = new Set(errors.map((e) => e.message));
  const allProblems = [...errors, ...problems.filter((p) => !errorTexts.has(p.message))];
  // Placed once a render, each motion's paths resolved once: each row filtered every problem, placing each by its
  // file among every motion's paths (docs/architecture.md, "Renderer review, round 11").
  const placed = problemsByMotion(projectStore.getState(), allProblems);
  const problemsOf = (i: number) => placed.get(i) ?? NO_PROBLEMS;
  const title = path ? basenameOf(path) : null;
  const aliases = aliasRows(json?.aliases, status);
  // The check runs on open, on save and on Check; the .sev being edited is checked as it changes (its toolbar counts
  // it). Its problems count here until a check lists that file: the button stayed blue while the toolbar said "the
  // build will refuse this SEV" (tried cold, round 4).
  const shownSev = useShownSevProblems();
  const sevLive = shownSev.unknown.length + shownSev.outside.length;
  const sevUnchecked = path && sevLive > 0 && !allProblems.some((p) => p.file === shownSev.path) ? sevLive : 0;
  const buildLook = buildButtonLook(allProblems.length + sevUnchecked, sevUnchecked);

  return (
    <section className="panel project-panel" aria-label="Project" data-testid="project-panel">
      <div className="panel-header">
        <span className="panel-title">Project</span>
        {title && (
          <span className="project-name" title={escapeControls(path ?? '')} data-testid="project-name">
            {escapeControls(title.replace(/\.actguy\.json$/i, '').replace(/\.json$/i, ''))}
          </span>
        )}
        {/* Beside the name, not in it: the name gives way with "…" first, and the mark went with it ("sampl…" at
            1280x800, nothing saying the project had unsaved changes; tried cold, round 22). */}
        {title && (projectDirty || sevDirty) && (
          <span
            className="dirty on project-dirty"
            data-testid="project-dirty"
            title="The project or its .sev has unsaved changes"
          >
            ●
          </span>
        )}
        <span className="spacer" />
        <button
          type="button"
          className="tool small"
          onClick={() => void openProjectDialog()}
          data-testid="project-open"
          title="Open a *.actguy.json project"
        >
          Open…
        </button>
        <button
          type="button"
          className="tool small"
          disabled={!path || (!projectDirty && !sevDirty)}
          onClick={() => void saveProjectAndSev()}
          data-testid="project-save"
          title="Save the project file and the open SEV"
        >
          Save
        </button>
      </div>
      {!path ? (
        <div className="panel-scroll dim">
          <p>No project open.</p>
          <p>
            A project lists the motions of one archive in order, each with its .mtn and .sev, the SE tables and the
            .mar/.sar to build.
          </p>
          <button type="button" className="tool" onClick={() => void openProjectDialog()}>
            Open Project…
          </button>
        </div>
      ) : (
        <>
          <div className="project-toolbar">
            <button
              type="button"
              className="tool small"
              onClick={() => void addMotion()}
              data-testid="project-add-motion"
              disabled={!json}
              title="Add a motion (.mtn) at the end of the archive"
            >
              + Add
            </button>
            <button
              type="button"
              className="tool small"
              onClick={() => current !== null && void removeMotion(current)}
              disabled={current === null}
              title={notShownReason ?? 'Remove the selected motion from the project (its files stay)'}
              data-testid="project-remove-motion"
            >
              Remove
            </button>
            <button
              type="button"
              className="tool small"
              title="Move up (earlier in the archive)"
              aria-label="Move the selected motion up"
              disabled={current === null || current === 0}
              onClick={() => current !== null && moveMotion(current, current - 1)}
              data-testid="project-move-up"
            >
              ▲
            </button>
            <button
              type="button"
              className="tool small"
              title="Move down (later in the archive)"
              aria-label="Move the selected motion down"
              disabled={current === null || !json || current >= json.motions.length - 1}
              onClick={() => current !== null && moveMotion(current, current + 1)}
              data-testid="project-move-down"
            >
              ▼
            </button>
            <span className="spacer" />
            <button
              type="button"
              className="tool small project-check"
              onClick={() => void checkProject()}
              disabled={checking}
              data-testid="project-check"
              title="Compress and check every motion and SEV (writes nothing)"
            >
              {checking ? 'Checking' : 'Check'}
            </button>
          </div>
          {(json?.motions.length ?? 0) > LIST_FILTER_FROM && (
            <div className="project-filter-row">
              <input
                className="picker-filter project-filter"
                placeholder="Filter motions…"
                aria-label="Filter the project's motions by name or .mtn file"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                onKeyDown={(e) => e.key === 'Escape' && setFilter('')}
                data-testid="project-filter"
              />
              <span className="dim small" data-testid="project-filter-count">
                {listed.length} of {json?.motions.length}
              </span>
            </div>
          )}
          {figuresOld && (
            <div className="project-elsewhere dim small" data-testid="project-figures-old" role="status">
              The keys and sizes below are from before your last project edits:{' '}
              {/* The note's own Check: at 1280x800 the toolbar's was a row above and far to the right (round 29). */}
              <button
                type="button"
                className="link"
                onClick={() => void checkProject()}
                disabled={checking}
                data-testid="project-figures-check"
              >
                Check
              </button>{' '}
              updates them.
            </div>
          )}
          {/* The one part that scrolls: the header, the toolbar and the actions below stay in view, whatever is open. */}
          <div className="project-body" data-testid="project-body">
            {/* A project of no motions said only "select a motion in the list" over an empty list, and its problem
                sent the user to a text editor (tried cold, round 5). */}
            {path && json?.motions.length === 0 ? (
              <div className="project-elsewhere dim small" data-testid="project-empty">
                This project has no motions yet: <b>+ Add</b> puts a motion (.mtn) in its archive, and File › Import
                Motion… brings in a BVH, glTF or FBX capture.
              </div>
            ) : (
              notShownReason && (
                <div className="project-elsewhere dim small" data-testid="project-tuner-elsewhere">
                  {notShownReason}
                </div>
              )
            )}
            <ol
              className="project-motions"
              data-testid="project-motions"
              // A screen reader read the rows as a list of texts: a listbox of options, the open motion selected.
              role="listbox"
              aria-label="Motions of the project, in archive order"
              ref={motionList}
              onDragLeave={() => setDropAt(null)}
            >
              {listed.map(({ motion: m, index: i }) => {
                const st = status[m.name];
                const scale = Object.hasOwn(scales, m.name) ? scales[m.name] : undefined;
                const probs = problemsOf(i);
                const sel = current === i;
                const showDirty = sel && sevDirty && sevMotion === m.name;
                return (
                  <li
                    key={`${m.name}-${i}`}
                    className={`project-motion${sel ? ' selected' : ''}${dropAt === i && dragFrom !== null && dragFrom !== i ? ' drop' : ''}${probs.length ? ' has-problems' : ''}`}
                    data-testid="project-motion"
                    data-name={m.name}
                    role="option"
                    aria-selected={sel}
                    // Named by the motion; its .sev and its numbers (keys, size, error, problems) describe it.
                    aria-label={m.name}
                    aria-describedby={`${rowIds}-${i}-sev ${rowIds}-${i}-stats`}
                    draggable
                    onDragStart={(e) => {
                      dragFromRef.current = i;
                      setDragFrom(i);
                      e.dataTransfer.effectAllowed = 'move';
                      e.dataTransfer.setData('text/plain', String(i));
                    }}
                    onDragOver={(e) => {
                      if (dragFromRef.current === null) return;
                      e.preventDefault();
                      setDropAt(i);
                    }}
                    onDrop={(e) => {
                      e.preventDefault();
                      const from = dragFromRef.current;
                      endDrag();
                      if (from !== null) moveMotion(from, i);
                    }}
                    onDragEnd={endDrag}
                    onClick={() => void selectMotion(i)}
                    // A keyboard reaches the list with Tab (↑ / ↓, Home and End from row to row: tabRow above) and
                    // opens a motion with Enter: a row took only clicks, so a motion of the project could not be
                    // opened without a pointer (tried cold, round 5).
                    tabIndex={i === tabRow ? 0 : -1}
                    onKeyDown={(e) => {
                      const row = e.currentTarget;
                      if (e.target !== row) return;
                      if (e.key === 'Enter' || e.key === ' ') void selectMotion(i);
                      else if (e.key === 'ArrowDown') (row.nextElementSibling as HTMLElement | null)?.focus();
                      else if (e.key === 'ArrowUp') (row.previousElementSibling as HTMLElement | null)?.focus();
                      else if (e.key === 'Home') (row.parentElement?.firstElementChild as HTMLElement | null)?.focus();
                      else if (e.key === 'End') (row.parentElement?.lastElementChild as HTMLElement | null)?.focus();
                      else return;
                      e.preventDefault();
                      e.stopPropagation(); // not also a page shortcut (Space plays, ↑ / ↓ pick joints)
                    }}
                    // The name leads the tooltip: a long one is cut with "…" in the 250 px column of Project mode.
                    title={`${m.name}: ${escapeControls(m.mtn)}${m.sev ? ` + ${escapeControls(m.sev)}` : ' (no .sev)'}\nDrag to reorder the archive`}
                  >
                    <span className="project-index">{i}</span>
                    <div className="project-motion-main">
                      <div className="project-motion-name">
                        <b>{m.name}</b>
                        {showDirty && <span className="dirty on"> ●</span>}
                        <span className="dim small" id={`${rowIds}-${i}-sev`}>
                          {' '}
                          {m.sev ? escapeControls(basenameOf(m.sev)) : 'no .sev'}
                        </span>
                      </div>
                      <div
                        className={`project-motion-stats small${figuresOld ? ' dim' : ''}`}
                        data-testid="project-motion-stats"
                        id={`${rowIds}-${i}-stats`}
                      >
                        {st ? (
                          <>
                            <span title="keys">{st.totalKeys} keys</span>
                            <span title={`MT3: ${exactBytes(st.mt3Bytes)}`} data-testid="project-motion-size">
                              {sizeText(st.mt3Bytes)}
                            </span>
                            <span
                              className={st.maxErrorRatio > 1 ? 'bad' : ''}
                              title={`largest error: rotation ${st.maxRotationErrorDeg.toFixed(3)}°, position ${st.maxPositionError.toFixed(3)} (${(st.maxErrorRatio * 100).toFixed(1)}% of the tightest tolerance)`}
                            >
                              max {st.maxRotationErrorDeg.toFixed(2)}°
                            </span>
                            {scale !== undefined && (
                              <span
                                className="project-motion-scale"
                                data-testid="project-motion-scale"
                                title={`To fit the memory budget, the build loosened this motion's tolerances ×${scale.toFixed(3)}: these keys, bytes and error are at that scale. The tuner shows the motion at its own tolerances.`}
                              >
                                tol ×{scale.toFixed(2)}
                              </span>
                            )}
                            <span title="SEV events" data-testid="project-motion-events">
                              {st.events} ev
                            </span>
                            <span title={durationTitle(st)} data-testid="project-motion-duration">
                              {formatDurationMs(st.durationMs)}
                            </span>
                          </>
                        ) : (
                          <span className="dim">{checking ? 'checking…' : probs.length ? 'not built' : '—'}</span>
                        )}
                        {probs.length > 0 && (
                          <span className="bad" data-testid="project-motion-problems">
                            {probs.length} problem{probs.length === 1 ? '' : 's'}
                          </span>
                        )}
                      </div>
                    </div>
                  </li>
                );
              })}
            </ol>
            {filter.trim() !== '' && listed.length === 0 && (
              <div className="dim small" data-testid="project-filter-empty">
                No motion&apos;s name or .mtn contains &quot;{filter.trim()}&quot;: Escape clears the filter.
              </div>
            )}
            {aliases.length > 0 && (
              <div className="project-aliases" data-testid="project-aliases">
                {/* One line in the 250 px column at 1280x800: what an alias is, which wrapped it, is in its title (round 24). */}
                <div
                  className="sub"
                  data-testid="project-aliases-head"
                  title={`Archive entries ${json!.motions.length}..${json!.motions.length + aliases.length - 1}: a motion's data under another name, played at its own speed`}
                >
                  Aliases (archive entries {json!.motions.length}..{json!.motions.length + aliases.length - 1})
                </div>
                <ul>
                  {aliases.map((a) => (
                    <li key={a.name} data-testid="project-alias" data-name={a.name}>
                      <b>{a.name}</b>{' '}
                      <span className="dim">
                        → {a.target}
                        {a.speed !== 1 ? ` ×${a.speed}` : ''}
                      </span>{' '}
                      <span
                        className={a.error ? 'bad small' : 'small'}
                        title={escapeControlsKeepingLines(
                          a.error ?? "effective duration: the target's frames / fps / the alias's speed",
                        )}
                        data-testid="project-alias-duration"
                      >
                        {a.error ? 'invalid duration' : a.durationMs === null ? '—' : formatDurationMs(a.durationMs)}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {allProblems.length > 0 && (
              <div className="project-problems" data-testid="project-problems">
                <div className="sub">Problems ({allProblems.length}) — the build is refused until they are fixed</div>
                <ul>
                  {allProblems.map((p, k) => (
                    <li key={k}>
                      <button
                        type="button"
                        className="link bad"
                        onClick={() => void revealProblem(p)}
                        data-testid="project-problem"
                      >
                        {p.plain ? (
                          <>
                            <span className="problem-plain" data-testid="project-problem-plain">
                              {escapeControls(p.plain.file)}: {p.plain.lead} {p.plain.advice}
                            </span>
                            <span className="problem-detail">{escapeControlsKeepingLines(p.message)}</span>
                          </>
                        ) : (
                          escapeControlsKeepingLines(p.message)
                        )}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {warnings.length > 0 && (
              <details className="project-warnings" data-testid="project-warnings">
                <summary className="sub">Warnings ({warnings.length}): the build goes ahead</summary>
                <ul>
                  {warnings.map((w, k) => (
                    <li key={k} className="warn-inline small" data-testid="project-warning">
                      {escapeControlsKeepingLines(w)}
                    </li>
                  ))}
                </ul>
              </details>
            )}
            <BudgetBar />
          </div>
          <div className="project-actions" data-testid="project-actions">
            <button
              type="button"
              className={buildLook.className}
              onClick={() => void buildArchives()}
              data-testid="project-build"
              data-blocked={buildLook.blocked}
              title={buildLook.title}
            >
              {buildLook.label}
            </button>
            <button
              type="button"
              className="tool"
              onClick={() => void exportMt3()}
              disabled={!hasMotion}
              data-testid="project-export-mt3"
              title="Export the open motion as .mt3"
            >
              Export .mt3…
            </button>
            <button
              type="button"
              className="tool"
              onClick={() => storeTunerTolerances()}
              disabled={!hasMotion || current === null}
              data-testid="project-store-tolerances"
              title={
                notShownReason ??
                `Use the tuner's tolerances and per-joint overrides for ${json?.motions[current!]?.name ?? 'this motion'} in the project`
              }
            >
              Tolerances → project
            </button>
          </div>
        </>
      )}
    </section>
  );
}
