import type { BuildReportBudget } from '../../shared/project/plan';
import { exactBytes, sizeText } from './byteSize';
import { budgetLooseningNote } from './budget';

/**
 * A budget build's choice in the build dialog: the .mar against the budget, the motion that limits the stage,
 * and per motion the scale applied to its tolerances, its bytes and its worst error over its own tolerance
 * (docs/formats.md#budget).
 */
export function BuildBudget({ budget }: { budget: BuildReportBudget }) {
  const note = budgetLooseningNote(budget);
  return (
    <div className="build-budget" data-testid="build-budget">
      <p className="small">
        Budget: the .mar takes{' '}
        <b data-testid="build-budget-used" title={exactBytes(budget.usedBytes)}>
          {sizeText(budget.usedBytes)}
        </b>{' '}
        of <span title={exactBytes(budget.marBytes)}>{sizeText(budget.marBytes)}</span> (
        {((budget.usedBytes / budget.marBytes) * 100).toFixed(1)}%). Worst error / tolerance{' '}
        {budget.worstRatio.toFixed(3)}, limited by <b data-testid="build-budget-limiting">{budget.limitingMotion}</b>.
      </p>
      {/* Past ×1.5 the lead is asked to look, in words over the table, not left to read the scales (round 17). */}
      {note && (
        <p className="build-budget-loose small" role="note" data-testid="build-budget-loose">
          {note}
        </p>
      )}
      <table className="channel-table build-table" data-testid="build-budget-motions">
        <thead>
          <tr>
            <th>Motion</th>
            <th title="factor applied to the motion's tolerances (overrides stay as set)">Tolerance scale</th>
            <th title="the motion's compressed size in the .mar">MT3 size</th>
            <th title="worst channel error over its own tolerance as set">Error / tol</th>
          </tr>
        </thead>
        <tbody>
          {budget.motions.map((m) => (
            <tr
              key={m.name}
              data-testid="build-budget-motion"
              data-name={m.name}
              data-scale={m.scale}
              className={m.name === budget.limitingMotion ? 'limiting' : ''}
            >
              <td>
                {m.name}
                {m.name === budget.limitingMotion && <span className="dim"> (limits)</span>}
              </td>
              <td data-testid="build-budget-scale">×{m.scale.toFixed(3)}</td>
              <td data-testid="build-budget-bytes" title={exactBytes(m.mt3Bytes)}>
                {sizeText(m.mt3Bytes)}
              </td>
              <td>{m.worstRatio.toFixed(3)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
