import { useProject, useSev } from './hooks';
import { sevStore } from './sevStore';
import { ses } from './sevActions';
import { FLOOR_NAMES, resolveName } from './resolve';
import { seColor } from './colors';
import { NameField } from './NameField';

/** The SE definitions: index, name (autocomplete, resolved code or why not), and the 8 floor-attribute variants. */
export function SeTable() {
  const doc = useSev((s) => s.file?.doc ?? null);
  const floor = useSev((s) => s.floor);
  const selectedSe = useSev((s) => s.selectedSe);
  const tables = useProject((p) => p.tables);
  const table = tables?.table ?? null;
  if (!doc) return null;
  const defs = doc.ses.slice().sort((a, b) => a.index - b.index);
  return (
    <div className="sev-list-wrap">
      <datalist id="sev-se-names">
        {(tables?.names ?? []).map((n) => (
          <option key={n} value={n}>{resolveName(table, n).codeText}</option>
        ))}
      </datalist>
      <table className="sev-table sev-defs" data-testid="sev-se-table">
        <thead>
          <tr>
            <th style={{ width: 34 }}>#</th>
            <th style={{ minWidth: 170 }}>SE name · code</th>
            <th style={{ width: 44 }} title="Different SEs per floor/wall attribute">Floors</th>
            {FLOOR_NAMES.map((n, k) => (
              <th key={k} className={k === floor ? 'floor' : ''} title={`floor attribute ${k}: ${n}`}>{`${k} ${n}`}</th>
            ))}
            <th style={{ width: 24 }} />
          </tr>
        </thead>
        <tbody>
          {defs.map((d) => {
            const base = resolveName(table, d.name);
            const used = doc.events.filter((e) => e.se === d.index).length;
            return (
              <tr key={d.index} data-testid="sev-se-row" data-index={d.index} className={selectedSe === d.index ? 'selected' : ''} onMouseDown={() => sevStore.getState().selectSe(d.index)}>
                <td>
                  <span className="sev-swatch" style={{ background: seColor(d.index) }} />
                  {d.index}
                </td>
                <td>
                  <NameField value={d.name} resolved={base} label={`SE ${d.index} name`} testid="sev-se-name" highlight={!d.variants} onCommit={(n) => ses.rename(d.index, n)} />
                  {base.error && <div className="sev-error" data-testid="sev-se-error">{base.error}</div>}
                </td>
                <td>
                  <input type="checkbox" checked={!!d.variants} aria-label={`SE ${d.index} has floor variants`} data-testid="sev-se-variants-on" onChange={(e) => ses.setVariantsOn(d.index, e.target.checked)} />
                </td>
                {FLOOR_NAMES.map((_, k) =>
                  d.variants ? (
                    <td key={k} className={k === floor ? 'floor' : ''}>
                      <NameField compact value={d.variants[k]} resolved={resolveName(table, d.variants[k])} label={`SE ${d.index} floor ${k}`} testid={`sev-se-variant-${k}`} highlight={k === floor} onCommit={(n) => ses.setVariant(d.index, k, n)} />
                    </td>
                  ) : (
                    <td key={k} className={`dim small${k === floor ? ' floor' : ''}`} title="no variants: every floor plays the base SE">{k === 0 ? '= base on every floor' : ''}</td>
                  ),
                )}
                <td>
                  <button type="button" className="tool small" title={used ? `Delete SE ${d.index} and its ${used} event${used === 1 ? '' : 's'}` : `Delete SE ${d.index}`} data-testid="sev-se-delete" onClick={() => ses.remove(d.index)}>✕</button>
                </td>
              </tr>
            );
          })}
          {!defs.length && (
            <tr>
              <td colSpan={12} className="dim">No SEs defined. “Add SE” defines one; events refer to SEs by index.</td>
            </tr>
          )}
        </tbody>
      </table>
      {!tables && <div className="dim small sev-note">SE tables not loaded: names are not checked.</div>}
      {tables && tables.errors.length > 0 && (
        <ul className="warnings small">
          {tables.errors.map((e, i) => <li key={i} className="bad">{e}</li>)}
        </ul>
      )}
    </div>
  );
}
