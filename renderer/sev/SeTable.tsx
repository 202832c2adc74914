import { escapeControlsKeepingLines } from '../../shared/errors';
import { useLayoutEffect, useRef } from 'react';
import { useProject, useSev } from './hooks';
import { revealScrollTop } from './reveal';
import { sevStore } from './sevStore';
import { ses } from './sevActions';
import { beginSeDrag, endSeDrag } from './seDrop';
import { FLOOR_NAMES, floorNameShort, nameOnFloor, resolveName } from './resolve';
import { seColor } from './colors';
import { NameField } from './NameField';
import { FloorButton } from './FloorButton';
import { useFocusAfterRemove } from '../components/focusAfterRemove';

/** The SE table's ✕ buttons, in the table's order. */
const DELETE_BUTTONS = { se: '[data-testid="sev-se-delete"]' } as const;

/** The last SE deleted: the keyboard goes to "+ Add SE" in the editor's toolbar. */
const addSeButton = () => document.querySelector<HTMLElement>('[data-testid="sev-add-se-def"]');

const NONE_HIDDEN: Record<number, string[]> = {};

/**
 * Scrolls the column to `top`, giving the variants `el` (its last block) the room below them that this takes, or
 * taking back room an earlier call gave that is no longer needed.
 */
function scrollColumnTo(el: HTMLElement, column: HTMLElement, top: number): void {
  const added = parseFloat(el.style.marginBottom) || 0;
  const room = top - (column.scrollHeight - added - column.clientHeight);
  el.style.marginBottom = room > 0 ? `${Math.ceil(room)}px` : '';
  column.scrollTop = Math.max(0, top);
}

/** Scrolls the column by the least that shows the floor variants `el` (see revealScrollTop). */
function revealVariants(el: HTMLElement, column: HTMLElement): void {
  const view = column.getBoundingClientRect();
  const item = el.getBoundingClientRect();
  // Less than the header and one SE row left above the variants: they go to the column's top, so that the sticky
  // header is not left alone there, cut in half; room below them lets the column scroll that far.
  const head = column.querySelector('thead')?.getBoundingClientRect().height ?? 0;
  const row = column.querySelector('tbody tr')?.getBoundingClientRect().height ?? 0;
  scrollColumnTo(
    el,
    column,
    revealScrollTop({ top: view.top, bottom: view.bottom, scrollTop: column.scrollTop }, item, head + row),
  );
}

/**
 * The SE definitions: index, name (autocomplete, resolved code or why not),
 * what it plays on the selected floor, and, for the selected SE, its 8
 * floor-attribute variants (each editable and resolved).
 *
 * Selecting an event selects its SE, and the variants of that SE are brought into view in their column: below a
 * long table, in the short column of the all-panels layout at 1280x800, they were out of sight (2026-12-02).
 */
export function SeTable() {
  const doc = useSev((s) => s.file?.doc ?? null);
  const floor = useSev((s) => s.floor);
  const selectedSe = useSev((s) => s.selectedSe);
  const hidden = useSev((s) => s.file?.hiddenVariants ?? NONE_HIDDEN);
  const tables = useProject((p) => p.tables);
  const selectedEvent = useSev((s) => s.selectedEvent);
  const variantsRef = useRef<HTMLDivElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  // Rows are keyed by SE index and an SE's deletion renumbers none: its row goes, and the focus on its ✕ went to the
  // page (Tab started again at the menu bar). It goes to the ✕ now at that place in the table.
  const { willRemove, forget } = useFocusAfterRemove(wrap, DELETE_BUTTONS, addSeButton);
  // Only when the event selection changes: a click in the table itself never scrolls the table under the pointer.
  useLayoutEffect(() => {
    const el = variantsRef.current;
    const column = el?.closest<HTMLElement>('.sev-col');
    if (selectedEvent === null || !el || !column) return;
    revealVariants(el, column);
    // The column resized (another work mode, a splitter, the panel shown again) keeps its scroll, and the rows above
    // the variants change height with its width: the variants' heading, brought to the top, came out cut by the
    // column's top (the guide's sound-events shot, 2026-12-03). They stay where the reveal put them, as far from the
    // column's top, through each resize, until the person scrolls or clicks in the column (their scroll is theirs).
    const anchor = el.getBoundingClientRect().top - column.getBoundingClientRect().top;
    const observer = new ResizeObserver(() => {
      const view = column.getBoundingClientRect();
      if (view.height === 0) return; // hidden: held until it shows again
      // Grown so that the table and the variants fit together (the Sound events mode's 310 px after the full
      // layout's 240): the column goes back to its top, rather than keep the variants there under the table's header
      // left alone, cut, its rows scrolled out of sight (tried cold, round 13).
      const below = el.getBoundingClientRect().top - view.top + column.scrollTop + el.offsetHeight;
      if (below <= column.clientHeight) {
        if (column.scrollTop > 0 || el.style.marginBottom) scrollColumnTo(el, column, 0);
        return;
      }
      const moved = el.getBoundingClientRect().top - view.top - anchor;
      if (Math.abs(moved) > 0.5) scrollColumnTo(el, column, column.scrollTop + moved);
    });
    const stop = () => observer.disconnect();
    observer.observe(column);
    const intents = ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const;
    for (const t of intents) column.addEventListener(t, stop, { passive: true });
    return () => {
      stop();
      for (const t of intents) column.removeEventListener(t, stop);
    };
  }, [selectedEvent]);
  const table = tables?.table ?? null;
  if (!doc) return null;
  const defs = doc.ses.slice().sort((a, b) => a.index - b.index);
  const sel = defs.find((d) => d.index === selectedSe) ?? null;
  return (
    <div className="sev-list-wrap" ref={wrap}>
      <datalist id="sev-se-names">
        {(tables?.names ?? []).map((n) => (
          <option key={n} value={n}>
            {resolveName(table, n).codeText}
          </option>
        ))}
      </datalist>
      <table className="sev-table sev-defs" data-testid="sev-se-table">
        <thead>
          <tr>
            <th style={{ width: 30 }}>#</th>
            <th>SE name · code</th>
            <th style={{ width: 42 }} title="Different SEs per floor/wall attribute">
              Floors
            </th>
            <th className="floor" title={`What each SE plays on floor ${floor} (${FLOOR_NAMES[floor]})`}>
              <span className="sev-wide-only">{`Plays on floor ${floor} (${FLOOR_NAMES[floor]})`}</span>
              <span className="sev-narrow-only">{`Floor ${floor}`}</span>
            </th>
            <th style={{ width: 36 }}>Uses</th>
            <th style={{ width: 28 }} />
          </tr>
        </thead>
        <tbody>
          {defs.map((d, row) => {
            const base = resolveName(table, d.name);
            const onFloor = nameOnFloor(d, floor);
            const rf = resolveName(table, onFloor);
            const used = doc.events.filter((e) => e.se === d.index).length;
            return (
              <tr
                key={d.index}
                data-testid="sev-se-row"
                data-index={d.index}
                className={selectedSe === d.index ? 'selected' : ''}
                onMouseDown={() => sevStore.getState().selectSe(d.index)}
              >
                <td
                  className="sev-se-grip"
                  data-testid="sev-se-grip"
                  // A sound designer drags a sound onto the time line where it should play (tried cold, round 29);
                  // the keyboard's way is the SE picker, the playhead and M.
                  draggable
                  title={`Drag ${d.name || `SE ${d.index}`} onto the event row or the timeline to add it at the frame you drop it on, or onto the event list to add it at the playhead (or select it, move the playhead and press M)`}
                  onDragStart={(e) => beginSeDrag(e, d.index)}
                  onDragEnd={endSeDrag}
                >
                  <span className="sev-swatch" style={{ background: seColor(d.index) }} />
                  {d.index}
                </td>
                <td>
                  <NameField
                    value={d.name}
                    resolved={base}
                    label={`SE ${d.index} name`}
                    testid="sev-se-name"
                    onCommit={(n) => ses.rename(d.index, n)}
                  />
                  {base.error && (
                    <div className="sev-error" data-testid="sev-se-error">
                      {escapeControlsKeepingLines(base.error)}
                    </div>
                  )}
                </td>
                <td
                  className="dim small"
                  data-testid="sev-se-floors"
                  title={
                    d.variants
                      ? `${d.variants.length} floor variants: select the SE to edit or remove them below`
                      : hidden[d.index]
                        ? // "Hidden, not saved" left a first-time user unsure what was hidden and how to get it back.
                          `${hidden[d.index].length} floor variants hidden by Remove floor variants (${hidden[d.index].join(' ')}): every floor plays ${d.name} now. Save asks before it drops them; select the SE and “Restore the ${hidden[d.index].length} hidden floor variants” brings them back.`
                        : 'One SE on every floor'
                  }
                >
                  {d.variants ? (
                    `${d.variants.length}`
                  ) : hidden[d.index] ? (
                    <span data-testid="sev-se-variants-hidden">{hidden[d.index].length} hidden</span>
                  ) : (
                    '—'
                  )}
                </td>
                <td
                  className={`floor${rf.error ? ' bad' : ''}`}
                  data-testid="sev-se-on-floor"
                  title={escapeControlsKeepingLines(
                    rf.error ??
                      `SE ${d.index} plays ${onFloor}${rf.codeText && ` ${rf.codeText}`} on floor ${floor} (${FLOOR_NAMES[floor]})`,
                  )}
                >
                  <span className="sev-floor-cell">
                    <span className="sev-wide-only">{onFloor}</span>
                    <span className="sev-narrow-only">{floorNameShort(d, onFloor)}</span>
                    <span className="sev-code"> {rf.error ? 'unknown' : rf.codeText}</span>
                  </span>
                </td>
                <td className="dim">{used}</td>
                <td>
                  <button
                    type="button"
                    className="tool small hit"
                    title={
                      used
                        ? `Delete SE ${d.index} and its ${used} event${used === 1 ? '' : 's'}`
                        : `Delete SE ${d.index}`
                    }
                    aria-label={`Delete SE ${d.index}`}
                    data-testid="sev-se-delete"
                    onClick={() => {
                      willRemove('se', row);
                      // Cancelled (the question about its events): a later change of the table moves no focus.
                      void ses.remove(d.index).then((deleted) => deleted || forget());
                    }}
                  >
                    ✕
                  </button>
                </td>
              </tr>
            );
          })}
          {!defs.length && (
            <tr>
              <td colSpan={6} className="dim sev-empty">
                No SEs defined. “Add SE” defines one; events refer to SEs by index.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {sel && (
        <div className="sev-variants" data-testid="sev-variants" ref={variantsRef}>
          <div className="sev-variants-head">
            <span className="sev-swatch" style={{ background: seColor(sel.index) }} />
            <b>SE {sel.index}</b> <span className="dim sev-variants-what">floor/wall variants</span>
            {!sel.variants && (
              <>
                <span className="dim">— none: every floor plays {sel.name}.</span>
                <button
                  type="button"
                  className="tool small"
                  onClick={() => ses.setVariantsOn(sel.index, true)}
                  data-testid="sev-variants-add"
                >
                  {hidden[sel.index]
                    ? `Restore the ${hidden[sel.index].length} hidden floor variants`
                    : 'Give each floor its own SE'}
                </button>
              </>
            )}
            {sel.variants && (
              <button
                type="button"
                className="tool small"
                title="Hide the floor variants: every floor plays the base name (restorable until saved; Save asks before removing them)"
                onClick={() => ses.setVariantsOn(sel.index, false)}
                data-testid="sev-variants-remove"
              >
                Remove floor variants
              </button>
            )}
          </div>
          {sel.variants && (
            <div className="sev-variant-grid">
              {FLOOR_NAMES.map((_, k) => {
                const v = sel.variants![k];
                const r = resolveName(table, v);
                return (
                  <div
                    key={k}
                    className={`sev-variant${k === floor ? ' current' : ''}`}
                    data-testid="sev-variant"
                    data-floor={k}
                  >
                    <FloorButton floor={k} shown={floor} className="sev-variant-label link" />
                    <NameField
                      value={v}
                      resolved={r}
                      label={`SE ${sel.index} floor ${k}`}
                      testid={`sev-se-variant-${k}`}
                      onCommit={(name) => ses.setVariant(sel.index, k, name)}
                    />
                    {r.error && <div className="sev-error">{escapeControlsKeepingLines(r.error)}</div>}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      )}
      {tables && tables.errors.length > 0 && (
        <ul className="warnings small">
          {tables.errors.map((e, i) => (
            <li key={i} className="bad">
              {escapeControlsKeepingLines(e)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Outside a project: the SE tables are missing, so the name fields offer and check nothing. It said what was
 * missing, not where the tables come from (round 22). SevBody shows it under the SE column, out of its scroll: kept
 * to the foot of the column in view over what scrolled under it (round 22), it covered the last line there, at
 * 1280x800 with every panel shown the heading "SE 0 floor/wall variants" (tried cold, round 24).
 */
export function SeTablesMissing() {
  const tables = useProject((p) => p.tables);
  const doc = useSev((s) => s.file?.doc ?? null);
  if (tables || !doc) return null;
  return (
    <div
      className="dim small sev-note sev-tables-missing"
      data-testid="sev-tables-missing"
      title="A project's default.sls and se_define.h define the SE names and their codes (Ctrl+Shift+O opens one)"
    >
      SE tables not loaded: names are not offered or checked. They come with a project: File › Open Project…
    </div>
  );
}
