import { useEffect, useRef, useState, type RefObject } from 'react';
import { useDocument } from '../state/hooks';
import { documentStore } from '../state/documentStore';
import { revealChannelFrame, gotoFrame } from '../app/playhead';
import { framesSpanLabel, lockRangesOf, traceFramesOf } from '../state/keyInfo';

/** The entries of the list by a key each: a lock range by its joint and first frame, a trace key by its frame. */
const lockKey = (r: { joint: number; first: number }) => `lock:${r.joint}:${r.first}`;
const traceKey = (f: number) => `trace:${f}`;

/**
 * The entry just added (a lock pressed with L or dragged in the timeline, a trace key), scrolled into view in the
 * tuning panel and marked for a moment: in a short window the list sits below the fold, and a lock made elsewhere
 * showed no sign of landing here. The entries of another document are not "added".
 */
function useRevealAdded(documentId: string | null, keys: readonly string[]) {
  const root = useRef<HTMLDivElement>(null);
  const seen = useRef<{ documentId: string | null; keys: Set<string> } | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const joined = keys.join(' ');
  useEffect(() => {
    const before = seen.current;
    seen.current = { documentId, keys: new Set(keys) };
    if (!before || before.documentId !== documentId) return;
    const fresh = keys.find((k) => !before.keys.has(k));
    if (!fresh) return;
    setAdded(fresh);
    root.current?.querySelector(`[data-key="${fresh}"]`)?.scrollIntoView({ block: 'nearest' });
    // `keys` is a new array each render: `joined` is its value, what the effect follows.
  }, [documentId, joined]);
  return { added, root };
}

/** The chip of a trace key the motion always has (its first or last frame): it goes to the frame, and removes nothing. */
function FixedTraceChip({ frame, which, mark }: { frame: number; which: 'first' | 'last'; mark: string }) {
  const why = `frame ${frame} is the ${which} frame: the trace always has a key there, so it cannot be removed`;
  return (
    <span data-key={traceKey(frame)} className={`chip fixed${mark}`} data-testid="trace-fixed" title={`Fixed: ${why}`}>
      {/* Named as a trace key, not by its number alone ("0", "132" to a screen reader: tried cold, round 25). */}
      <button
        type="button"
        className="link"
        aria-label={`Trace key at frame ${frame} (${which}): go to it`}
        title={`Go to frame ${frame} (${why})`}
        onClick={() => gotoFrame(frame)}
      >
        {frame}
      </button>
      <span className="chip-fixed-note">{which}</span>
    </span>
  );
}

/** The remove buttons of each list, in the list's order. */
const REMOVE_BUTTONS = {
  lock: '[data-testid="lock-item"] button.hit',
  trace: '[data-testid="trace-item"] button.chip-remove',
} as const;

/**
 * After a ✕ took its own entry (and its focus) away, the focus goes to the ✕ now at that place in the list (the
 * next entry's, else the last's), else to the list's first button: the keyboard stays in the list rather than
 * falling back to the page (docs/architecture.md, "Renderer review, round 6").
 */
function useFocusAfterRemove(root: RefObject<HTMLDivElement | null>) {
  const removed = useRef<{ list: keyof typeof REMOVE_BUTTONS; index: number; count: number } | null>(null);
  useEffect(() => {
    const r = removed.current;
    const el = root.current;
    if (!r || !el) return;
    // Not removed yet (the list has not changed): wait for the render that takes the entry away.
    const buttons = el.querySelectorAll<HTMLButtonElement>(REMOVE_BUTTONS[r.list]);
    if (buttons.length === r.count) return;
    removed.current = null;
    // Only a focus lost with the entry: one the user has put elsewhere stays there.
    if (document.activeElement && document.activeElement !== document.body) return;
    const next = buttons[Math.min(r.index, buttons.length - 1)] ?? el.querySelector<HTMLButtonElement>('button');
    next?.focus();
  });
  return (list: keyof typeof REMOVE_BUTTONS, index: number) => {
    const count = root.current?.querySelectorAll(REMOVE_BUTTONS[list]).length ?? 0;
    removed.current = { list, index, count };
  };
}

/** Lists lock ranges and trace keys; click to jump, ✕ to remove. */
export function LocksList({ disabled }: { disabled: boolean }) {
  const motion = useDocument((d) => d.motion);
  const documentId = useDocument((d) => d.documentId);
  const locks = motion ? lockRangesOf(motion) : [];
  const trace = motion ? traceFramesOf(motion) : [];
  const others = motion ? trace.filter((f) => f !== 0 && f !== motion.frameCount) : [];
  const { added, root } = useRevealAdded(documentId, [...locks.map(lockKey), ...trace.map(traceKey)]);
  const willRemove = useFocusAfterRemove(root);
  if (!motion) return null;
  const mark = (key: string) => (key === added ? ' just-added' : '');
  return (
    <div className="locks" ref={root}>
      <div className="sub">Locks</div>
      {locks.length === 0 ? (
        <div className="dim">None. Drag in the timeline's lock row (or press L) to pin the selected joint.</div>
      ) : (
        <ul className="item-list" data-testid="lock-list">
          {locks.map((r, i) => (
            <li key={lockKey(r)} data-key={lockKey(r)} className={mark(lockKey(r))} data-testid="lock-item">
              <button
                type="button"
                className="link"
                title={`Go to frame ${r.first} and show ${motion.joints[r.joint].name}'s rotation curves`}
                onClick={() => revealChannelFrame(r.joint, r.first, 'rotation')}
              >
                {motion.joints[r.joint].name} {framesSpanLabel(r.first, r.last)}
              </button>
              <button
                type="button"
                className="tool small hit"
                disabled={disabled}
                aria-label={`Remove lock of ${motion.joints[r.joint].name} at ${r.first}`}
                title={`Remove the lock of ${motion.joints[r.joint].name} on ${framesSpanLabel(r.first, r.last)} (Ctrl+Z brings it back)`}
                onClick={() => {
                  willRemove('lock', i);
                  documentStore.getState().locks.clearRange(r.joint, r.first, r.last);
                }}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="sub">Trace keys</div>
      <div className="chips" data-testid="trace-list">
        {/* The first and last frames always carry a trace key: their chips read as fixed, with nothing to remove
            (docs/tuner.md#tuning-panel-right). A TRACE flag the file sets there changes nothing, so it is not shown. */}
        <FixedTraceChip frame={0} which="first" mark={mark(traceKey(0))} />
        {others.map((f, i) => (
          <span key={f} data-key={traceKey(f)} className={`chip${mark(traceKey(f))}`} data-testid="trace-item">
            <button
              type="button"
              className="link"
              aria-label={`Trace key at frame ${f}: go to it`}
              title={`Go to frame ${f}`}
              onClick={() => gotoFrame(f)}
            >
              {f}
            </button>
            <button
              type="button"
              className="tool small chip-remove"
              disabled={disabled}
              title={`Remove the trace key at frame ${f}`}
              aria-label={`Remove trace key at ${f}`}
              onClick={() => {
                willRemove('trace', i);
                documentStore.getState().trace.toggle(f);
              }}
            >
              ✕
            </button>
          </span>
        ))}
        <FixedTraceChip frame={motion.frameCount} which="last" mark={mark(traceKey(motion.frameCount))} />
        {others.length === 0 && <span className="dim">no others: T or a click in the trace row adds one</span>}
      </div>
    </div>
  );
}
