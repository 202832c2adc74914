import { useDocument } from '../state/hooks';
import { documentStore } from '../state/documentStore';
import { revealChannelFrame, gotoFrame } from '../app/playhead';
import { lockRangesOf, traceFramesOf } from '../state/keyInfo';

/** Lists lock ranges and trace keys; click to jump, ✕ to remove. */
export function LocksList({ disabled }: { disabled: boolean }) {
  const motion = useDocument((d) => d.motion);
  if (!motion) return null;
  const locks = lockRangesOf(motion);
  const trace = traceFramesOf(motion);
  return (
    <div className="locks">
      <div className="sub">Locks</div>
      {locks.length === 0 ? (
        <div className="dim">None. Drag in the timeline's lock row (or press L) to pin the selected joint.</div>
      ) : (
        <ul className="item-list" data-testid="lock-list">
          {locks.map((r) => (
            <li key={`${r.joint}:${r.first}`} data-testid="lock-item">
              <button
                type="button"
                className="link"
                title={`Go to frame ${r.first} and show ${motion.joints[r.joint].name}'s rotation curves`}
                onClick={() => revealChannelFrame(r.joint, r.first, 'rotation')}
              >
                {motion.joints[r.joint].name} {r.first === r.last ? `frame ${r.first}` : `frames ${r.first}–${r.last}`}
              </button>
              <button
                type="button"
                className="tool small hit"
                disabled={disabled}
                aria-label={`Remove lock of ${motion.joints[r.joint].name} at ${r.first}`}
                onClick={() => documentStore.getState().locks.clearRange(r.joint, r.first, r.last)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="sub">Trace keys</div>
      <div className="chips" data-testid="trace-list">
        <span className="dim">0 and {motion.frameCount} always;</span>
        {trace.length === 0 && <span className="dim">no others</span>}
        {trace.map((f) => (
          <span key={f} className="chip" data-testid="trace-item">
            <button type="button" className="link" title={`Go to frame ${f}`} onClick={() => gotoFrame(f)}>
              {f}
            </button>
            <button
              type="button"
              className="tool small chip-remove"
              disabled={disabled}
              title={`Remove the trace key at frame ${f}`}
              aria-label={`Remove trace key at ${f}`}
              onClick={() => documentStore.getState().trace.toggle(f)}
            >
              ✕
            </button>
          </span>
        ))}
      </div>
    </div>
  );
}
