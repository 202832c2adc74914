import { useEffect, useRef, useState } from 'react';
import { revealChannelFrame } from '../app/playhead';
import { documentStore } from '../state/documentStore';
import { useCompression, useDocument } from '../state/hooks';
import { parseTypedNumber, quotedTyped, steppedText, typedNumberAttributes } from './typedNumber';
import { objectBoundLine } from '../../shared/compress/unreachable';

/**
 * Compressor choice for the open motion: the classic rule (ActGuy's original
 * greedy) or the refined default, and the skeleton-aware bound on the
 * object-space error with its shell. Empty bound: off.
 */
export function CompressorSettings(props: { disabled: boolean }) {
  const method = useDocument((d) => d.tolerances.method ?? 'refined');
  const objectTolerance = useDocument((d) => d.tolerances.objectTolerance);
  const shell = useDocument((d) => d.tolerances.shell);
  const [objectText, setObjectText] = useState(objectTolerance === undefined ? '' : String(objectTolerance));
  const [shellText, setShellText] = useState(shell === undefined ? '' : String(shell));
  useEffect(() => setObjectText(objectTolerance === undefined ? '' : String(objectTolerance)), [objectTolerance]);
  useEffect(() => setShellText(shell === undefined ? '' : String(shell)), [shell]);
  const [problem, setProblem] = useState<string | null>(null);
  // A bound that cannot be one says why and puts its field back (it was put back without a word: tried cold,
  // round 8); the other field's value is still taken.
  // Escape puts the field's value back (the blur it causes must not apply the typed text: it did, tried cold, round 12).
  const reverting = useRef(false);
  const commit = () => {
    if (reverting.current) {
      reverting.current = false;
      return;
    }
    const o = objectText.trim() === '' ? null : parseTypedNumber(objectText);
    const s = shellText.trim() === '' ? null : parseTypedNumber(shellText);
    const bad = (v: number | null) => v !== null && !(Number.isFinite(v) && v > 0);
    const problems: string[] = [];
    if (bad(o)) {
      problems.push(boundProblem('Object bound', '(empty turns it off)', objectText, objectTolerance, 'off'));
      setObjectText(objectTolerance === undefined ? '' : String(objectTolerance));
    }
    if (bad(s)) {
      problems.push(boundProblem('The shell', '(empty: auto)', shellText, shell, 'auto'));
      setShellText(shell === undefined ? '' : String(shell));
    }
    setProblem(problems.length ? problems.join(' ') : null);
    const oNew = bad(o) ? (objectTolerance ?? null) : o;
    const sNew = bad(s) ? (shell ?? null) : s;
    if (oNew === (objectTolerance ?? null) && (oNew === null || sNew === (shell ?? null))) return;
    documentStore.getState().tolerancesActions.setSkeleton(oNew, sNew);
  };
  // Text, not number fields: those read "0,3" as 3 (typedNumber.ts). ↑ / ↓ step as they did; Enter applies.
  const onKey = (e: React.KeyboardEvent<HTMLInputElement>, text: string, set: (t: string) => void, by: number) => {
    if (e.key === 'Enter') commit();
    if (e.key === 'Escape') {
      reverting.current = true;
      setObjectText(objectTolerance === undefined ? '' : String(objectTolerance));
      setShellText(shell === undefined ? '' : String(shell));
      setProblem(null);
      e.currentTarget.blur();
    }
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      set(steppedText(text, e.key === 'ArrowUp' ? by : -by, 0.001));
    }
  };
  return (
    <div className="compressor-settings">
      <label
        className="check small"
        title="ActGuy's original rule: greedy insertion only (for comparison and fidelity)"
      >
        <input
          type="checkbox"
          data-testid="method-classic"
          checked={method === 'classic'}
          disabled={props.disabled}
          onChange={(e) =>
            documentStore.getState().tolerancesActions.setMethod(e.target.checked ? 'classic' : 'refined')
          }
        />{' '}
        Classic rule (no refinement)
      </label>
      <div
        className="tol-row object-row"
        title="Bound the object-space error (FK at every joint and its virtual points) instead of per-joint degrees; empty: off"
      >
        <label htmlFor="tol-object">Object</label>
        <input
          id="tol-object"
          className="num"
          {...typedNumberAttributes('decimal')}
          placeholder="off"
          value={objectText}
          disabled={props.disabled}
          data-testid="tol-object"
          onChange={(e) => {
            setObjectText(e.target.value);
            setProblem(null);
          }}
          onBlur={commit}
          aria-invalid={problem !== null}
          onKeyDown={(e) => onKey(e, objectText, setObjectText, 0.1)}
        />
        <span className="unit">u</span>
        <label htmlFor="tol-shell">shell</label>
        <input
          id="tol-shell"
          className="num"
          {...typedNumberAttributes('decimal')}
          placeholder="auto"
          value={shellText}
          disabled={props.disabled || objectText.trim() === ''}
          data-testid="tol-shell"
          onChange={(e) => {
            setShellText(e.target.value);
            setProblem(null);
          }}
          onBlur={commit}
          aria-invalid={problem !== null}
          onKeyDown={(e) => onKey(e, shellText, setShellText, 1)}
        />
      </div>
      {problem && (
        <div className="tol-error bad small" role="alert" data-testid="tol-object-error">
          {problem}
        </div>
      )}
    </div>
  );
}

/** Why a typed object bound or shell was not taken (its field keeps the current value). */
export function boundProblem(
  label: string,
  empty: string,
  text: string,
  current: number | undefined,
  unset: string,
): string {
  const why = Number.isFinite(parseTypedNumber(text))
    ? 'must be greater than 0 (0 or less can never be met)'
    : 'must be a number greater than 0';
  return `${label} ${why} ${empty}; ${quotedTyped(text)} was not applied, it stays ${current === undefined ? unset : `${current} u`}.`;
}

/**
 * Which compression is on screen (greedy while the refined one runs, then
 * refined, with the bytes refining saved) and the object-space error per
 * joint, with a jump to the worst frame.
 */
export function CompressorReadout() {
  const result = useCompression((c) => c.result);
  const stage = useCompression((c) => c.stage);
  const greedyBytes = useCompression((c) => c.greedyMt3Bytes);
  const joints = useDocument((d) => d.motion?.joints);
  const [open, setOpen] = useState(false);
  if (!result) return null;
  const oe = result.objectError;
  const saved = greedyBytes !== null ? greedyBytes - result.mt3Bytes : 0;
  const name = (j: number) => joints?.[j]?.name ?? `joint ${j}`;
  const label =
    stage === 'greedy'
      ? 'greedy (refining…)'
      : result.method === 'classic'
        ? 'classic rule'
        : `refined${saved > 0 ? `: ${saved} bytes saved vs greedy` : ''}`;
  return (
    <div className="compressor-readout">
      <p className="small" data-testid="compress-stage" data-stage={stage} data-method={result.method}>
        On screen: {label}
      </p>
      {result.skeleton && (
        <p
          className={result.skeleton.met ? 'small' : 'small bad'}
          data-testid="skeleton-status"
          title={objectBoundLine(result.skeleton)}
        >
          {result.skeleton.requestedObjectTolerance !== undefined
            ? `Object bound ${result.skeleton.requestedObjectTolerance} u is below this motion's floor: held to ${Number(result.skeleton.objectTolerance.toPrecision(3))} u, `
            : `Object bound ${result.skeleton.objectTolerance} u `}
          {result.skeleton.met ? 'met' : 'NOT met'} ({result.skeleton.rounds} round
          {result.skeleton.rounds === 1 ? '' : 's'})
        </p>
      )}
      {oe && (
        <>
          <button
            type="button"
            className="link"
            data-testid="object-error-worst"
            title="Jump to the frame with the largest object-space error"
            onClick={() => revealChannelFrame(oe.maxErrorJoint, oe.maxErrorFrame, 'rotation')}
          >
            max object-space: {oe.maxError.toFixed(3)}u at {name(oe.maxErrorJoint)} frame {oe.maxErrorFrame} (shell{' '}
            {oe.shell.toPrecision(3)})
          </button>
          <button type="button" className="link small" data-testid="object-error-toggle" onClick={() => setOpen(!open)}>
            {open ? 'Hide' : 'Show'} per-joint object-space error
          </button>
          {open && (
            <table className="channel-table" data-testid="object-error-table">
              <thead>
                <tr>
                  <th>Joint</th>
                  <th>Max err (u)</th>
                  <th>@</th>
                </tr>
              </thead>
              <tbody>
                {oe.jointMaxError
                  .map((e, j) => [j, e] as const)
                  .sort((a, b) => b[1] - a[1])
                  .map(([j, e]) => (
                    <tr key={j} onClick={() => revealChannelFrame(j, oe.jointMaxErrorFrame[j], 'rotation')}>
                      <td>{name(j)}</td>
                      <td>{e.toFixed(3)}</td>
                      <td>{oe.jointMaxErrorFrame[j]}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </div>
  );
}
