import { escapeControlsKeepingLines } from '../../shared/errors';
import { JointSelect } from '../components/JointSelect';
import { useMemo, type ReactNode } from 'react';
import { MotionFlag } from '../../shared/motion/types';
import type { ChannelReport, CompressWarning } from '../../shared/compress/types';
import { precisionFloor } from '../../shared/compress/unreachable';
import { useCompression, useDocument, usePreferences, useSession } from '../state/hooks';
import { documentStore, toleranceLabel } from '../state/documentStore';
import { CompressorReadout, CompressorSettings } from './CompressorSettings';
import { preferencesStore } from '../state/preferencesStore';
import { revealChannelFrame } from '../app/playhead';
import { LocksList } from './LocksList';
import { adoptAsDefaults } from './defaultTolerances';
import { parseTypedNumber } from './typedNumber';
import { TypedDecimalField } from './TypedDecimalField';

/**
 * A tolerance editor: a slider (a drag is one undo step) and a number field
 * (each committed value is one step).
 */
/** The keys that move a range input (each press, and each repeat of a held one, changes its value). */
const SLIDER_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End']);

function ToleranceRow(props: {
  label: string;
  unit: string;
  field: 'positionTolerance' | 'rotationToleranceDeg' | 'offsetTolerance';
  max: number;
  testid: string;
  disabled: boolean;
}) {
  const value = useDocument((d) => d.tolerances[props.field]);
  const documentId = useDocument((d) => d.documentId);
  /** The step this slider opens while dragged or while a key is held. */
  const dragLabel = `Drag ${props.label.toLowerCase()}`;
  /**
   * Ends this slider's open step (a drag, a held key), named by the value it ended at. Another slider's step is left
   * alone: pressing on it moves the focus, and this one's blur must not end that drag.
   */
  const commitSliderStep = () => {
    const d = documentStore.getState();
    if (d.transaction?.label === dragLabel)
      d.history.commit(toleranceLabel({ [props.field]: d.tolerances[props.field] }));
  };
  const applyText = (text: string): string | null => {
    const v = parseTypedNumber(text);
    // Say why instead of silently reverting: 0 would ask for a key on every frame and still never be met.
    if (!(Number.isFinite(v) && v > 0)) return toleranceProblem(props.label, text, value, props.unit);
    documentStore.getState().tolerancesActions.set({ [props.field]: v });
    return null;
  };
  return (
    <div className="tol-row">
      <label htmlFor={props.testid}>{props.label}</label>
      <input
        type="range"
        min={0.01}
        max={props.max}
        step={0.01}
        value={Math.min(value, props.max)}
        disabled={props.disabled}
        aria-label={`${props.label} slider`}
        data-testid={`${props.testid}-slider`}
        onPointerDown={() => {
          // The whole drag is one undo step, named by the value it ended at as a typed value is ("Set rotation
          // tolerance to 1.2°", not "Drag rotation"); the release may happen outside the slider.
          documentStore.getState().history.begin(dragLabel);
          const end = () => {
            window.removeEventListener('pointerup', end);
            window.removeEventListener('pointercancel', end);
            commitSliderStep();
          };
          window.addEventListener('pointerup', end);
          window.addEventListener('pointercancel', end);
        }}
        // A held key repeats (a change per repeat): the whole hold is one undo step, as a drag is, named by the value
        // it ended at; each separate press stays a step of its own. Before 2026-12-04 only the keyup was handled, and
        // with no step open it did nothing: a held arrow made one step per repeat.
        onKeyDown={(e) => {
          const d = documentStore.getState();
          if (SLIDER_KEYS.has(e.key) && !d.transaction) d.history.begin(dragLabel);
        }}
        onKeyUp={commitSliderStep}
        onBlur={commitSliderStep}
        onChange={(e) => documentStore.getState().tolerancesActions.set({ [props.field]: Number(e.target.value) })}
      />
      <TypedDecimalField
        shown={String(value)}
        subject={documentId}
        onApply={applyText}
        testid={props.testid}
        unit={props.unit}
        className="num"
        disabled={props.disabled}
        stepsEmpty
      />
    </div>
  );
}

/** Why a typed tolerance was not taken (the field keeps the current value). */
export function toleranceProblem(label: string, text: string, current: number, unit: string): string {
  const shown = text.trim() === '' ? 'an empty field' : `"${text.trim()}"`;
  const why = Number.isFinite(parseTypedNumber(text))
    ? 'must be greater than 0 (0 or less can never be met)'
    : 'must be a number greater than 0';
  return `${label} tolerance ${why}; ${shown} was not applied, it stays ${current}${unit === '°' ? '°' : ` ${unit}`}.`;
}

/** What the override field sets (it stood unlabelled beside the joint picker: a number with a ° and no name). */
export function overrideLabel(jointName: string | null, globalDeg: number): string {
  return jointName === null
    ? 'Rotation tolerance of the selected joint (°): select a joint first'
    : `Rotation tolerance of ${jointName} (°), in place of the global ${globalDeg}° (empty: the global one)`;
}

function OverrideEditor({ disabled }: { disabled: boolean }) {
  const joint = useSession((s) => s.selectedJoint);
  const joints = useDocument((d) => d.motion?.joints);
  const overrides = useDocument((d) => d.rotationOverridesDeg);
  const global = useDocument((d) => d.tolerances.rotationToleranceDeg);
  const current = joint >= 0 ? overrides[joint] : undefined;
  const entries = Object.entries(overrides)
    .map(([j, v]) => [Number(j), v] as const)
    .sort((a, b) => a[0] - b[0]);
  const shown = current !== undefined ? String(current) : '';
  // A value that cannot be an override says why and puts the field back (it kept "0" while the joint went on with
  // the global tolerance, and text the number field could not read cleared the override: 2026-12-03).
  const apply = (text: string): string | null => {
    const v = parseTypedNumber(text);
    if (text.trim() === '') documentStore.getState().tolerancesActions.setOverride(joint, null);
    else if (Number.isFinite(v) && v > 0) documentStore.getState().tolerancesActions.setOverride(joint, v);
    else {
      const name = joints?.[joint]?.name ?? `joint ${joint}`;
      const stays = current !== undefined ? `its override stays ${current}°` : `it keeps the global ${global}°`;
      return `The rotation override of ${name} must be a number greater than 0 (empty removes it); "${text.trim()}" was not applied, ${stays}.`;
    }
    return null;
  };
  return (
    <div className="overrides">
      <div className="tol-row">
        <JointSelect testId="override-joint" label="Joint of the override (the selected joint)" />
        <TypedDecimalField
          shown={shown}
          subject={joint}
          onApply={apply}
          testid="override-input"
          unit="°"
          className="num wide"
          disabled={disabled || joint < 0}
          placeholder={`global ${global}`}
          label={overrideLabel(joint >= 0 ? (joints?.[joint]?.name ?? `joint ${joint}`) : null, global)}
          stepsEmpty={false}
        />
      </div>
      {entries.length > 0 && (
        <ul className="override-list" data-testid="override-list">
          {entries.map(([j, v]) => (
            <li key={j}>
              <span>{joints?.[j]?.name ?? `joint ${j}`}</span>
              <span className="dim">{v}°</span>
              <button
                type="button"
                className="tool small hit"
                title={`Remove the rotation override of ${joints?.[j]?.name ?? `joint ${j}`}: it uses the global tolerance again`}
                aria-label={`Remove override of ${joints?.[j]?.name ?? j}`}
                disabled={disabled}
                onClick={() => documentStore.getState().tolerancesActions.setOverride(j, null)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function FlagsEditor({ disabled }: { disabled: boolean }) {
  const flags = useDocument((d) => d.motion?.flags ?? 0);
  const waist = useDocument((d) => d.motion?.waistJoint ?? -1);
  const joints = useDocument((d) => d.motion?.joints);
  const set = (bit: number, on: boolean) => documentStore.getState().motionFlags.set(bit, on);
  const box = (bit: number, label: string, testid: string, title: string) => (
    <label className="check block" title={title}>
      <input
        type="checkbox"
        checked={(flags & bit) !== 0}
        disabled={disabled}
        data-testid={testid}
        onChange={(e) => set(bit, e.target.checked)}
      />{' '}
      {label}
    </label>
  );
  return (
    <div className="flags">
      {box(MotionFlag.OFFSETS, 'Animated offsets', 'flag-offsets', 'Compress joint offsets too (OFFSETS / MT3 ROOT)')}
      {box(
        MotionFlag.DIRECTION,
        'Direction correction',
        'flag-direction',
        'Take the control direction from the waist joint at motion reset',
      )}
      <div className="tol-row indent">
        <label htmlFor="waist-select">Waist joint</label>
        <select
          id="waist-select"
          value={waist}
          disabled={disabled || !joints}
          data-testid="waist-select"
          onChange={(e) => documentStore.getState().motionFlags.setWaistJoint(Number(e.target.value))}
        >
          <option value={-1}>none</option>
          {joints?.map((j, i) => (
            <option key={i} value={i}>
              {i} {j.name}
            </option>
          ))}
        </select>
      </div>
      {(flags & MotionFlag.DIRECTION) !== 0 && waist < 0 && (
        <div className="warn-inline">Direction correction needs a waist joint.</div>
      )}
      {box(MotionFlag.MIRROR_UPPER, 'Mirror upper body', 'flag-mirror-upper', 'The runtime may mirror part-1 joints')}
      {box(MotionFlag.MIRROR_LOWER, 'Mirror lower body', 'flag-mirror-lower', 'The runtime may mirror part-0 joints')}
    </div>
  );
}

function channelName(c: { kind: string; joint: number }, joints: { name: string }[] | undefined): string {
  if (c.kind === 'translation') return 'Root translation';
  const n = joints?.[c.joint]?.name ?? `joint ${c.joint}`;
  return c.kind === 'offset' ? `${n} offset` : n;
}

function worstOf(channels: readonly ChannelReport[], kind: string): ChannelReport | null {
  let w: ChannelReport | null = null;
  for (const c of channels) if (c.kind === kind && (!w || c.maxError > w.maxError)) w = c;
  return w;
}

function Stats() {
  const result = useCompression((c) => c.result);
  const pending = useCompression((c) => c.pending);
  const error = useCompression((c) => c.error);
  const roundTrip = useCompression((c) => c.roundTripMs);
  const stage = useCompression((c) => c.stage);
  const joints = useDocument((d) => d.motion?.joints);
  const readOnly = useDocument((d) => d.readOnly);
  if (readOnly) return <p className="dim">Read-only compressed motion: no recompression. Save As .mtn to tune it.</p>;
  if (!result)
    return (
      <p className="dim">
        {error ? (
          <span className="bad">{escapeControlsKeepingLines(error)}</span>
        ) : pending ? (
          'Compressing…'
        ) : (
          'No motion.'
        )}
      </p>
    );
  const byKind = (['translation', 'rotation', 'offset'] as const)
    .map((k) => [k, worstOf(result.channels, k)] as const)
    .filter(([, w]) => w);
  return (
    <div className={stage === 'greedy' ? 'stats preview' : 'stats'}>
      {stage === 'greedy' && (
        // The greedy pass answers at once while the refined one runs (a slider drag shows only these): its figures
        // are an upper bound, and the refined result that Export writes has fewer keys.
        <p
          className="stat-preview small"
          data-testid="stat-preview"
          title="The greedy pass answers at once; the refined compressor (what Export writes) follows and has fewer keys and bytes."
        >
          Preview (greedy pass): refined figures follow
        </p>
      )}
      <dl className="stat-grid">
        <dt>Total keys</dt>
        <dd data-testid="stat-total-keys">{result.totalKeys}</dd>
        <dt>MT3 bytes</dt>
        <dd data-testid="stat-mt3-bytes">{result.mt3Bytes}</dd>
        <dt>MTN bytes</dt>
        <dd>{result.mtnBytes}</dd>
        <dt>Ratio</dt>
        <dd data-testid="stat-ratio">{result.ratio.toFixed(2)} : 1</dd>
        <dt>Compress</dt>
        <dd className="dim" data-testid="stat-compress-time">
          {result.compressMs.toFixed(1)} ms ({roundTrip.toFixed(0)} ms round trip){pending ? ' …' : ''}
        </dd>
      </dl>
      <div className="max-errors">
        {byKind.map(([k, w]) => (
          <button
            key={k}
            type="button"
            className={w!.met ? 'link' : 'link bad'}
            data-testid={`stat-max-error-${k}`}
            title="Jump to the worst frame"
            onClick={() => revealChannelFrame(w!.joint, w!.maxErrorFrame, w!.kind)}
          >
            max {k}: {w!.maxError.toFixed(3)}
            {k === 'rotation' ? '°' : 'u'} at {channelName(w!, joints)} frame {w!.maxErrorFrame}
          </button>
        ))}
      </div>
      {result.warnings.length > 0 && <UnreachableNote warnings={result.warnings} />}
      {result.warnings.length > 0 && (
        <ul className="warnings" data-testid="warnings" aria-label="Warnings">
          {result.warnings.map((w, i) => (
            <li key={i} data-testid="warning-item">
              <button
                type="button"
                className="link bad"
                onClick={() => revealChannelFrame(w.joint, w.frame, w.kind)}
                title="Jump there"
              >
                ⚠ {channelName(w, joints)}: tolerance {w.tolerance} not reachable at frame {w.frame} (error{' '}
                {w.error.toFixed(3)})
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * What the list of unreachable channels means, said once above it: how many keys cannot meet their tolerance,
 * that every other frame does, and the smallest tolerances this motion can be held to (its precision floor,
 * docs/compression.md#the-guarantee), so a tight tolerance that floods the list says what to set instead.
 */
function UnreachableNote({ warnings }: { warnings: readonly CompressWarning[] }) {
  const motion = useDocument((d) => d.motion);
  const floor = useMemo(() => (motion ? precisionFloor(motion) : null), [motion]);
  const keys = warnings.reduce((s, w) => s + w.keyFrames.length, 0);
  const n = warnings.length;
  const shown = (v: number) => Number(v.toPrecision(3)).toString();
  return (
    <p className="unreachable-note small" data-testid="warnings-summary">
      {keys} key{keys === 1 ? '' : 's'} in {n} channel{n === 1 ? '' : 's'} cannot meet the tolerance: the 16-bit format
      stores the source no closer there. Every frame between keys is within tolerance.
      {floor && (
        <>
          {' '}
          This motion is held everywhere from {shown(floor.position)} u (root), {shown(floor.rotationDeg)}° (rotations)
          {floor.offset !== null ? `, ${shown(floor.offset)} u (offsets)` : ''}.
        </>
      )}
    </p>
  );
}

/** Keys and error of every channel, worst first; click a row to jump to its worst frame. */
function ChannelTable() {
  const result = useCompression((c) => c.result);
  const joints = useDocument((d) => d.motion?.joints);
  const sortByError = usePreferences((p) => p.channelSortByError);
  const setSortByError = (on: boolean) => preferencesStore.getState().set({ channelSortByError: on });
  if (!result) return null;
  const rows = [...result.channels].sort((a, b) =>
    sortByError ? b.maxError / b.tolerance - a.maxError / a.tolerance : 0,
  );
  return (
    <div>
      <div className="channel-table-head">
        <span>Keys per channel</span>
        <label className="check small">
          <input type="checkbox" checked={sortByError} onChange={(e) => setSortByError(e.target.checked)} /> worst first
        </label>
      </div>
      <table className="channel-table" data-testid="channel-table">
        <thead>
          <tr>
            <th>Channel</th>
            <th title="keys (user keys)">Keys</th>
            <th>Max err</th>
            <th>@</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr
              key={`${c.kind}:${c.joint}`}
              className={c.met ? '' : 'bad'}
              onClick={() => revealChannelFrame(c.joint, c.maxErrorFrame, c.kind)}
            >
              <td>{channelName(c, joints)}</td>
              <td>
                {c.keyFrames.length}
                {c.userKeyFrames.length ? <span className="user-keys"> ({c.userKeyFrames.length})</span> : null}
              </td>
              <td>{c.maxError.toFixed(3)}</td>
              <td>{c.maxErrorFrame}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A section of the tuning panel whose header folds it to that one line, so a short window reaches the sections
 * below without scrolling; which sections are folded is remembered (preferences).
 */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const folded = usePreferences((p) => p.tuningFolded.includes(id));
  const toggle = () => {
    const all = preferencesStore.getState().tuningFolded;
    preferencesStore.getState().set({ tuningFolded: folded ? all.filter((s) => s !== id) : [...all, id] });
  };
  return (
    <section className="tuning-section" data-testid={`tuning-section-${id}`}>
      <h3>
        <button
          type="button"
          className="tuning-fold"
          aria-expanded={!folded}
          data-testid={`tuning-fold-${id}`}
          title={folded ? 'Show this section' : 'Fold this section to its header (remembered)'}
          onClick={toggle}
        >
          <span aria-hidden="true">{folded ? '▸' : '▾'}</span> {title}
        </button>
      </h3>
      {!folded && children}
    </section>
  );
}

/** Tolerances, overrides, motion flags and live compression stats. */
export function TuningPanel() {
  const disabled = useDocument((d) => !d.motion || d.readOnly);
  return (
    <aside className="panel tuning-panel" aria-label="Tuning" data-testid="tuning-panel">
      <div className="panel-header">
        <span className="panel-title">Tuning</span>
      </div>
      <div className="panel-scroll">
        <h3>Tolerances</h3>
        <ToleranceRow
          label="Position"
          unit="u"
          field="positionTolerance"
          max={5}
          testid="tol-position"
          disabled={disabled}
        />
        <ToleranceRow
          label="Rotation"
          unit="°"
          field="rotationToleranceDeg"
          max={5}
          testid="tol-rotation"
          disabled={disabled}
        />
        <ToleranceRow label="Offset" unit="u" field="offsetTolerance" max={5} testid="tol-offset" disabled={disabled} />
        <button
          type="button"
          className="link small"
          disabled={disabled}
          title="New motions start with these tolerances (one undo step)"
          data-testid="tol-use-as-defaults"
          onClick={() => adoptAsDefaults(documentStore.getState().tolerances)}
        >
          Use as defaults for new motions
        </button>
        <CompressorSettings disabled={disabled} />
        <Section id="compression" title="Compression">
          <Stats />
          <CompressorReadout />
        </Section>
        <Section id="override" title="Rotation override (selected joint)">
          <OverrideEditor disabled={disabled} />
        </Section>
        <Section id="flags" title="Motion flags">
          <FlagsEditor disabled={disabled} />
        </Section>
        <Section id="locks" title="Locks & trace keys">
          <LocksList disabled={disabled} />
        </Section>
        <Section id="channels" title="Channels">
          <ChannelTable />
        </Section>
      </div>
    </aside>
  );
}
