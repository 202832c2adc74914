import type { FootContactOptions } from '../../shared/sev/footsteps';
import { useDocument, usePreferences } from '../state/hooks';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { useSev } from './hooks';
import { footsteps } from './sevActions';
import { useEffect, useRef, useState } from 'react';
import {
  parseTypedNumber,
  parseTypedWholeNumber,
  quotedTyped,
  steppedText,
  typedNumberAttributes,
} from '../tuner/typedNumber';

interface FootstepFieldSpec {
  key: keyof FootContactOptions;
  label: string;
  title: string;
  step: number;
}

const FIELDS: FootstepFieldSpec[] = [
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
  // Why a typed threshold was not taken (its field shows the kept value).
  const [problem, setProblem] = useState<string | null>(null);
  const region = useRef<HTMLDivElement>(null);
  const open = !!f;
  // The panel takes the keyboard when it opens, so Escape leaves it at once (it stayed open to Escape, the focus on
  // the toolbar's Suggest footsteps: tried cold, round 11) and Tab reaches its thresholds and actions next.
  useEffect(() => {
    if (open) region.current?.focus();
  }, [open]);
  if (!f) return null;
  const count = f.accepted.filter(Boolean).length;
  // Leaving the panel (Escape, Cancel, Add) hands the keyboard back to the button that opened it, not to the page.
  const leave = (action: () => void) => {
    action();
    document.querySelector<HTMLButtonElement>('[data-testid="sev-suggest-footsteps"]')?.focus();
  };
  return (
    <div
      className="sev-footsteps"
      data-testid="sev-footsteps"
      role="region"
      aria-label="Suggested footsteps"
      tabIndex={-1}
      ref={region}
      onKeyDown={(e) => {
        // A threshold field's Escape puts its value back (and leaves the field); the next one leaves the panel.
        if (e.key !== 'Escape' || e.defaultPrevented || e.target instanceof HTMLInputElement) return;
        e.preventDefault();
        e.stopPropagation();
        leave(footsteps.close);
      }}
    >
      <div className="sev-footsteps-head">
        <b>Suggested footsteps</b>
        <span className="dim" data-testid="sev-footsteps-count">
          {f.contacts.length} new contact{f.contacts.length === 1 ? '' : 's'} (ghost markers on the event row)
          {f.covered ? ` · ${f.covered} already ha${f.covered === 1 ? 's its' : 've their'} footstep` : ''}
        </span>
        {FIELDS.map((x) => (
          <FootstepField key={x.key} field={x} options={options} onApply={setOptions} onProblem={setProblem} />
        ))}
        {problem && (
          <span className="bad small" role="alert" data-testid="sev-footsteps-error">
            {problem}
          </span>
        )}
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
            onClick={() => leave(footsteps.accept)}
          >
            Add {count} footstep{count === 1 ? '' : 's'}
          </button>
          <button
            type="button"
            className="tool"
            data-testid="sev-footsteps-cancel"
            title="Close the suggestions without adding any (Esc)"
            onClick={() => leave(footsteps.close)}
          >
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

/** Why a typed detection threshold was not taken (the threshold stays). */
export function footstepProblem(label: string, key: keyof FootContactOptions, text: string, current: number): string {
  const what = key === 'minContactFrames' ? 'a whole number, 1 or more' : 'a number, 0 or more';
  return `Footsteps "${label.trim()}" must be ${what}; ${quotedTyped(text)} was not applied, it stays ${current}.`;
}

/** The threshold `text` says, or null when it says none this field takes. */
function readThreshold(key: keyof FootContactOptions, text: string): number | null {
  const v = key === 'minContactFrames' ? parseTypedWholeNumber(text) : parseTypedNumber(text);
  return Number.isFinite(v) && v >= (key === 'minContactFrames' ? 1 : 0) ? v : null;
}

/**
 * A detection threshold: a text field, not a number field, which read "0,5" (a decimal comma) as 5 without a word
 * (typedNumber.ts). A number it takes is applied as it is typed, as before; anything else is named on Enter or
 * leaving the field, which shows the kept value again. ↑ / ↓ step as the number field did.
 */
function FootstepField(props: {
  field: FootstepFieldSpec;
  options: FootContactOptions;
  onApply: (o: FootContactOptions) => void;
  onProblem: (p: string | null) => void;
}) {
  const { field, options } = props;
  const current = options[field.key];
  // The text being typed; null: the field shows the threshold.
  const [text, setText] = useState<string | null>(null);
  const reverting = useRef(false);
  // The threshold when the field got the keyboard: a number is applied as it is typed, so Escape puts this back (it
  // only showed the typed value again, already applied: tried cold, round 12). A preference, not an undo step.
  const atFocus = useRef<number | null>(null);
  const apply = (t: string) => {
    const v = readThreshold(field.key, t);
    if (v !== null && v !== current) props.onApply({ ...options, [field.key]: v });
  };
  const commit = () => {
    if (reverting.current) {
      reverting.current = false;
      return;
    }
    if (text === null) return;
    if (readThreshold(field.key, text) === null)
      props.onProblem(footstepProblem(field.label, field.key, text, current));
    setText(null);
  };
  return (
    <label className="dim small" title={field.title}>
      {field.label}{' '}
      <input
        className="num"
        {...typedNumberAttributes('decimal')}
        value={text ?? String(current)}
        data-testid={`sev-footsteps-${field.key}`}
        onChange={(e) => {
          setText(e.target.value);
          props.onProblem(null);
          apply(e.target.value);
        }}
        onFocus={() => {
          atFocus.current = current;
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
            e.preventDefault();
            const min = field.key === 'minContactFrames' ? 1 : 0;
            const next = steppedText(text ?? String(current), e.key === 'ArrowUp' ? field.step : -field.step, min);
            setText(next);
            props.onProblem(null);
            apply(next);
          }
          if (e.key === 'Escape') {
            reverting.current = true;
            setText(null);
            props.onProblem(null);
            if (atFocus.current !== null && atFocus.current !== current)
              props.onApply({ ...options, [field.key]: atFocus.current });
          }
          // Leaving the field keeps the keyboard in the panel, so the next Escape leaves the panel.
          if (e.key === 'Enter' || e.key === 'Escape') {
            const panel = e.currentTarget.closest<HTMLElement>('[data-testid="sev-footsteps"]');
            if (panel) panel.focus();
            else e.currentTarget.blur();
          }
        }}
      />
    </label>
  );
}
