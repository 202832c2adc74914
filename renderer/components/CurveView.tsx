import { useEffect, useMemo, useRef } from 'react';
import { CurvePainter, curveViewRequests } from '../curves/curvePainter';
import { useCompression, useDocument, usePreferences, useSession } from '../state/hooks';
import { sessionStore, type CurveChannel } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';
import { MotionFlag } from '../../shared/motion/types';
import { findChannel } from '../curves/series';
import { userKeysOf } from '../state/keyInfo';
import { JointSelect } from './JointSelect';
import { EULER_ORDERS, bestEulerOrder, type EulerOrder } from '../math/euler';
import { overlayDash } from '../curves/overlay';
import { COLORS } from '../theme';

/**
 * The curve controls, most needed first. The hint is one line (it never takes height from the curves): an item that
 * does not fit wraps onto a hidden line, whole, so a narrow panel shows the first items in full instead of a line
 * cut with "…". The whole list is the hint's tooltip and in docs/user-guide.md.
 */
export const CURVE_HINT_ITEMS = [
  'Ctrl+click: add/remove user key',
  'click: go to frame',
  'drag keys: retime',
  'wheel: zoom',
  'right-drag: pan',
  'Home: fit',
  'drag a box / Shift+click: select keys',
  'Del: delete',
  '↑/↓: previous/next key',
  'PgUp/PgDn: joint',
  'Alt+wheel: zoom values',
  'F: frame selected keys',
  'click an axis label: solo it',
  'Ctrl/Shift+click a timeline label: overlay that joint',
  'right-click: key, lock, trace key here',
];
const CURVE_HINT = CURVE_HINT_ITEMS.join(' · ');

/** Curves of the selected joint (canvas in CurvePainter) with its header controls. */
export function CurveView() {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const p = new CurvePainter(host.current);
    return () => p.dispose();
  }, []);
  const joint = useSession((s) => s.selectedJoint);
  const channel = useSession((s) => s.curveChannel);
  const overlayJoints = useSession((s) => s.overlayJoints);
  const motion = useDocument((d) => d.motion);
  const offsets = useDocument((d) => !!d.motion && (d.motion.flags & MotionFlag.OFFSETS) !== 0);
  const result = useCompression((c) => c.result);
  const showSource = usePreferences((p) => p.showSource);
  const showDecoded = usePreferences((p) => p.showDecoded);
  const showError = usePreferences((p) => p.showError);
  const normalize = usePreferences((p) => p.curveNormalize);
  // Normalize (View menu, N over the curves) is shown on the panel's title while on: the values read -1..1.
  const eulerOrder = usePreferences((p) => p.eulerOrder);
  const rotation = motion?.rotation;
  const jointCount = motion?.joints.length ?? 0;
  const frames = motion ? motion.frameCount + 1 : 0;
  const autoOrder = useMemo(
    () =>
      rotation && joint >= 0 && joint < jointCount
        ? bestEulerOrder(rotation, joint * 4, jointCount * 4, frames)
        : 'XYZ',
    [rotation, joint, jointCount, frames],
  );
  const kind = joint < 0 ? 'translation' : channel === 'offset' ? 'offset' : 'rotation';
  const report = findChannel(result?.channels, kind, joint < 0 ? -1 : joint);
  const userKeys = motion ? userKeysOf(motion, joint).length : 0;
  const tabs: { id: CurveChannel; label: string; title: string }[] = [
    { id: 'euler', label: 'Euler°', title: 'Rotation as Euler angles in degrees (rotate order beside)' },
    { id: 'quat', label: 'Quat', title: 'Rotation quaternion x, y, z, w' },
    {
      id: 'offset',
      label: 'Offset',
      title: offsets ? 'Joint offset per axis' : 'Joint offset per axis (not compressed: OFFSETS flag off)',
    },
  ];
  return (
    <section className="panel curve-panel" aria-label="Curves" data-testid="curve-view">
      <div className="panel-header">
        <span className="panel-title">Curves</span>
        {normalize && (
          <button
            type="button"
            className="link small"
            data-testid="curve-normalized"
            title="Curves normalized to -1..1 (View › Normalize curves, or N over the curves): click to show the values"
            onClick={() => preferencesStore.getState().set({ curveNormalize: false })}
          >
            normalized ×
          </button>
        )}
        <JointSelect />
        <div className="segmented" role="tablist" aria-label="Channel">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={joint >= 0 && channel === t.id}
              disabled={joint < 0}
              title={t.title}
              data-testid={`channel-${t.id}`}
              onClick={() => sessionStore.getState().setCurveChannel(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        {joint >= 0 && channel === 'euler' && (
          <select
            className="order-select"
            aria-label="Rotate order"
            title="Rotate order of the Euler curves. Auto picks, per joint, the order whose middle angle stays farthest from ±90° (gimbal lock), so a joint that turns around does not draw 180° swings."
            data-testid="euler-order"
            value={eulerOrder}
            onChange={(e) => {
              preferencesStore.getState().set({ eulerOrder: e.target.value as EulerOrder | 'auto' });
              e.currentTarget.blur();
            }}
          >
            <option value="auto">Auto ({autoOrder})</option>
            {EULER_ORDERS.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        )}
        <span className="stat" data-testid="curve-key-count" title="Keys on this channel (user keys)">
          {report ? `${report.keyFrames.length} keys` : '— keys'} · {userKeys} user
        </span>
        {report && (
          <span className={report.met ? 'stat' : 'stat bad'} data-testid="curve-max-error">
            max {report.maxError.toFixed(3)}
            {kind === 'rotation' ? '°' : 'u'} @{report.maxErrorFrame}
          </span>
        )}
        {joint >= 0 && overlayJoints.length > 0 && motion && (
          <span
            className="legend overlay-legend"
            data-testid="curve-overlay-legend"
            title="Overlaid joints (Ctrl/Shift+click a timeline label to add or remove one)"
          >
            <svg width="18" height="6" aria-hidden="true">
              <line x1="0" y1="3" x2="18" y2="3" stroke={COLORS.text} strokeWidth="1.5" />
            </svg>
            {motion.joints[joint]?.name}
            {overlayJoints.map((j, i) => (
              <span key={j} className="overlay-item" data-testid="curve-overlay-item">
                <svg width="18" height="6" aria-hidden="true">
                  <line
                    x1="0"
                    y1="3"
                    x2="18"
                    y2="3"
                    stroke={COLORS.text}
                    strokeWidth="1.5"
                    strokeDasharray={overlayDash(i).join(' ')}
                  />
                </svg>
                {motion.joints[j]?.name ?? `joint ${j}`}
                <button
                  type="button"
                  className="link"
                  title="Remove from the overlay"
                  aria-label={`Remove ${motion.joints[j]?.name ?? j} from the overlay`}
                  onClick={() => sessionStore.getState().toggleOverlayJoint(j)}
                >
                  ×
                </button>
              </span>
            ))}
          </span>
        )}
        <span className="spacer" />
        <label className="check">
          <input
            type="checkbox"
            checked={showSource}
            onChange={(e) => preferencesStore.getState().set({ showSource: e.target.checked })}
          />{' '}
          Source
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={showDecoded}
            onChange={(e) => preferencesStore.getState().set({ showDecoded: e.target.checked })}
          />{' '}
          Decoded
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={showError}
            onChange={(e) => preferencesStore.getState().set({ showError: e.target.checked })}
          />{' '}
          Error
        </label>
        <button
          type="button"
          className="tool"
          data-testid="curve-frame-all"
          title="Frame all: every frame, values fitted (Home over the curves, or double-click; F frames the selected keys)"
          onClick={() => curveViewRequests.setState((r) => ({ frameAll: r.frameAll + 1 }))}
        >
          Fit
        </button>
      </div>
      <div className="canvas-host" ref={host} />
      <div className="hint first-line-only" data-testid="curve-hint" title={CURVE_HINT}>
        {CURVE_HINT_ITEMS.map((item, i) => (
          <span key={item} className="hint-item">
            {i > 0 && <span className="hint-sep"> · </span>}
            {item}
          </span>
        ))}
      </div>
    </section>
  );
}
