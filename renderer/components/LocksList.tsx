import { KeyFlag, type Motion } from '../../shared/motion/types';
import { useDocument } from '../state/hooks';
import { documentStore } from '../state/documentStore';
import { revealChannelFrame, gotoFrame } from '../app/controller';

/** Lock ranges of a motion: consecutive LOCK frames of one joint. */
export function lockRangesOf(m: Motion): { joint: number; first: number; last: number }[] {
  const J = m.joints.length;
  const out: { joint: number; first: number; last: number }[] = [];
  let open: { joint: number; first: number; last: number } | null = null;
  for (let f = 0; f <= m.frameCount; f++) {
    let lj = -1;
    for (let j = 0; j < J; j++)
      if (m.jointKeyInfo[(f * J + j) * 4] & KeyFlag.LOCK) {
        lj = j;
        break;
      }
    if (open && open.joint === lj) {
      open.last = f;
      continue;
    }
    if (open) out.push(open);
    open = lj >= 0 ? { joint: lj, first: f, last: f } : null;
  }
  if (open) out.push(open);
  return out;
}

export function traceFramesOf(m: Motion): number[] {
  const out: number[] = [];
  for (let f = 0; f <= m.frameCount; f++) if (m.translationKeyInfo[f * 4] & KeyFlag.TRACE) out.push(f);
  return out;
}

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
              <button type="button" className="link" onClick={() => revealChannelFrame(r.joint, r.first, 'rotation')}>
                {motion.joints[r.joint].name} {r.first === r.last ? `frame ${r.first}` : `frames ${r.first}–${r.last}`}
              </button>
              <button type="button" className="tool small" disabled={disabled} aria-label={`Remove lock of ${motion.joints[r.joint].name} at ${r.first}`} onClick={() => documentStore.getState().locks.clearRange(r.joint, r.first, r.last)}>
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
            <button type="button" className="link" onClick={() => gotoFrame(f)}>{f}</button>
            <button type="button" className="tool small" disabled={disabled} aria-label={`Remove trace key at ${f}`} onClick={() => documentStore.getState().trace.toggle(f)}>
              ✕
            </button>
          </span>
        ))}
      </div>
    </div>
  );
}
