import { escapeControlsKeepingLines } from '../../shared/errors';
import { useEffect, useState } from 'react';
import { useProject } from '../sev/hooks';
import { exactBytes, sizeText } from './byteSize';
import { budgetFieldText, budgetUse, parseBudgetInput, setProjectBudget } from './budget';

const COLORS = ['#4a86e8', '#e69138', '#6aa84f', '#a64d79', '#3d85c6', '#cc4125', '#45818e', '#bf9000'];

function share(bytes: number, total: number): string {
  return `${((bytes / Math.max(total, 1)) * 100).toFixed(1)}%`;
}

/**
 * The project's memory budget: a field to set it (an undo step, saved in the project file) and a bar of the
 * archive's bytes by motion from the last check or build, with the budget marked, and under it a key naming each
 * motion with its bytes and share (docs/formats.md#budget).
 */
export function BudgetBar() {
  const json = useProject((p) => p.json);
  const status = useProject((p) => p.status);
  const use = budgetUse(json, status);
  const [text, setText] = useState(budgetFieldText(use.budget));
  const [error, setError] = useState<string | null>(null);
  // The field follows the project (undo, redo, another project) unless the user is typing something else.
  useEffect(() => {
    setText(budgetFieldText(use.budget));
    setError(null);
  }, [use.budget]);
  const apply = () => {
    const r = parseBudgetInput(text);
    if ('error' in r) {
      setError(r.error);
      return;
    }
    setError(null);
    setProjectBudget(r.bytes);
    setText(budgetFieldText(r.bytes));
  };
  const scale = Math.max(use.budget ?? 0, use.marBytes ?? 0) || 1;
  const over = use.budget !== null && use.marBytes !== null && use.marBytes > use.budget;
  const useText =
    use.marBytes === null
      ? use.budget === null
        ? ''
        : `${sizeText(use.budget)}; check to see the use`
      : use.budget === null
        ? `.mar ${sizeText(use.marBytes)}`
        : `.mar ${sizeText(use.marBytes)} of ${sizeText(use.budget)} (${((use.marBytes / use.budget) * 100).toFixed(1)}%)${over ? `: ${sizeText(use.marBytes - use.budget)} over, a build loosens tolerances to fit` : ''}`;
  return (
    <div className="project-budget" data-testid="project-budget">
      <div className="project-budget-row">
        <label
          className="sub"
          htmlFor="project-budget-input"
          title="Largest .mar size: the build loosens each motion's tolerances (up to x4, overrides as set) where it costs least until the archive fits"
        >
          Budget
        </label>
        <input
          id="project-budget-input"
          className="project-budget-input"
          data-testid="project-budget-input"
          value={text}
          placeholder="none (bytes, or 48K)"
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') apply();
            // Escape puts back the budget the project has (the typed text stayed: tried cold, round 12).
            if (e.key === 'Escape') {
              setText(budgetFieldText(use.budget));
              setError(null);
            }
          }}
        />
        <button
          type="button"
          className="tool small"
          onClick={apply}
          data-testid="project-budget-set"
          title="Set the .mar budget (empty: no budget)"
        >
          Set
        </button>
      </div>
      {useText && (
        <div className={`small project-budget-use${over ? ' bad' : ''}`} data-testid="project-budget-use">
          {useText}
        </div>
      )}
      {error && (
        <div className="bad small" data-testid="project-budget-error">
          {escapeControlsKeepingLines(error)}
        </div>
      )}
      {use.marBytes !== null && (
        <div
          className="project-budget-bar"
          data-testid="project-budget-bar"
          role="img"
          aria-label={`archive bytes by motion: ${use.segments.map((s) => `${s.name} ${s.bytes}`).join(', ')}`}
        >
          {use.segments.map((s, k) => (
            <div
              key={s.name}
              className="project-budget-segment"
              data-testid="project-budget-segment"
              data-name={s.name}
              data-bytes={s.bytes}
              style={{ width: `${((s.bytes / scale) * 100).toFixed(2)}%`, background: COLORS[k % COLORS.length] }}
              title={`${s.name}: ${sizeText(s.bytes)} (${share(s.bytes, use.marBytes!)} of the .mar)`}
            />
          ))}
          {use.budget !== null && (
            <div
              className="project-budget-limit"
              data-testid="project-budget-limit"
              style={{ left: `${((use.budget / scale) * 100).toFixed(2)}%` }}
              title={`budget ${sizeText(use.budget)}`}
            />
          )}
        </div>
      )}
      {use.marBytes !== null && use.segments.length > 0 && (
        // The bar's key, one line a motion: its colour, name, bytes and share. The bar is too narrow for names at
        // 1280x800 (they were cut to "w…"), so they live here, whole (a long name wraps).
        <ul className="project-budget-legend small" data-testid="project-budget-legend">
          {use.segments.map((s, k) => (
            <li key={s.name} data-testid="project-budget-legend-item" data-name={s.name} data-bytes={s.bytes}>
              <span className="project-budget-swatch" style={{ background: COLORS[k % COLORS.length] }} />
              <span className="project-budget-name" data-testid="project-budget-legend-name">
                {s.name}
              </span>
              <span className="project-budget-bytes" title={exactBytes(s.bytes)}>
                {sizeText(s.bytes)}
              </span>
              <span className="project-budget-share dim">{share(s.bytes, use.marBytes!)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
