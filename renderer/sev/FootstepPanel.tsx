import type { FootContactOptions } from '../../shared/sev/footsteps';
import { useDocument, usePreferences } from '../state/hooks';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { useSev } from './hooks';
import { footsteps } from './sevActions';

const FIELDS: { key: keyof FootContactOptions; label: string; title: string; step: number }[] = [
  {
    key: 'heightTolerance',
    label: 'height ±',
    title: 'How far above its local lowest point a foot may be and still touch the ground (motion units)',
    step: 0.5,
  },
  {
    key: 'maxHeightAboveFloor',
    label: 'above floor ≤',
    title:
      "How far above the foot's lowest height in the whole motion a contact may be (motion units): keeps the bottom of a jump in the air out",
    step: 1,
  },
  { key: 'maxSpeed', label: 'speed ≤', title: 'Largest speed of a planted foot (motion units per frame)', step: 0.1 },
  {
    key: 'minContactFrames',
    label: 'frames ≥',
    title: 'Shortest contact, frames (shorter touches are scuffs, not steps)',
    step: 1,
  },
];

/**
 * Suggest footsteps: the foot contacts found in the motion, previewed as ghost
 * markers on the event row; the user keeps all or some and adds them as one
 * undo step (SE_FOOT_L / SE_FOOT_R on the foot joint).
 */
export function FootstepPanel() {
  const f = useSev((s) => s.footsteps);
  const joints = useDocument((d) => d.motion?.joints ?? null);
  // The detection settings are a preference: kept across restarts, and used by the next Suggest footsteps too.
  const options = usePreferences((p) => p.footContactOptions);
  const setOptions = (o: FootContactOptions) => preferencesStore.getState().set({ footContactOptions: o });
  if (!f) return null;
  const count = f.accepted.filter(Boolean).length;
  return (
    <div className="sev-footsteps" data-testid="sev-footsteps" role="region" aria-label="Suggested footsteps">
      <div className="sev-footsteps-head">
        <b>Suggested footsteps</b>
        <span className="dim" data-testid="sev-footsteps-count">
          {f.contacts.length} new contact{f.contacts.length === 1 ? '' : 's'} (ghost markers on the event row)
          {f.covered ? ` · ${f.covered} already ha${f.covered === 1 ? 's its' : 've their'} footstep` : ''}
        </span>
        {FIELDS.map((x) => (
          <label key={x.key} className="dim small" title={x.title}>
            {x.label}{' '}
            <input
              className="num"
              type="number"
              step={x.step}
              value={options[x.key]}
              data-testid={`sev-footsteps-${x.key}`}
              onChange={(e) => setOptions({ ...options, [x.key]: Number(e.target.value) })}
            />
          </label>
        ))}
        <button
          type="button"
          className="tool small"
          data-testid="sev-footsteps-detect"
          onClick={() => footsteps.suggest(options)}
        >
          Detect again
        </button>
        {/* One group that wraps whole: at 1280 px All ended the first line and None began the second. */}
        <span className="sev-footsteps-actions">
          <button type="button" className="tool small" onClick={() => footsteps.setAll(true)}>
            All
          </button>
          <button type="button" className="tool small" onClick={() => footsteps.setAll(false)}>
            None
          </button>
          <button
            type="button"
            className="tool primary"
            data-testid="sev-footsteps-accept"
            disabled={!count}
            onClick={footsteps.accept}
          >
            Add {count} footstep{count === 1 ? '' : 's'}
          </button>
          <button type="button" className="tool" data-testid="sev-footsteps-cancel" onClick={footsteps.close}>
            Cancel
          </button>
        </span>
      </div>
      <ul className="sev-footsteps-list">
        {f.contacts.map((c, k) => (
          <li key={`${c.side}${c.frame}`}>
            <label title={`contact frames ${c.frame}..${c.endFrame}`}>
              <input
                type="checkbox"
                checked={f.accepted[k]}
                data-testid="sev-footstep"
                data-frame={c.frame}
                data-side={c.side}
                onChange={(e) => footsteps.setAccepted(k, e.target.checked)}
              />
              {` ${c.side} ${c.frame}`}
            </label>
            <button
              type="button"
              className="link small"
              title={`Go to frame ${c.frame} (${joints?.[c.joint]?.name ?? c.joint})`}
              onClick={() => sessionStore.getState().setPlayhead(c.frame)}
            >
              ↦
            </button>
          </li>
        ))}
        {!f.contacts.length && (
          <li className="dim">
            {f.covered
              ? 'Every contact found has its footstep already (an event of its SE on its foot within 2 frames).'
              : 'No contacts with these thresholds: loosen them and detect again.'}
          </li>
        )}
      </ul>
    </div>
  );
}
