/** The project's SE tables: its default.sls and se_define.h, read and merged. */
import { dirnameOf } from '../../shared/project/paths';
import { parseSeDefine } from '../../shared/se-tables/define';
import { parseSls } from '../../shared/se-tables/sls';
import { mergeSeTables } from '../../shared/se-tables/table';
import type { SeTableReadResult } from '../../shared/se-tables/types';
import { plainProblemOf, requireApi } from '../app/appApi';
import { projectStore, type SeTablesState } from './projectStore';
import { message } from './projectMessages';

/** Reads and merges the project's default.sls and se_define.h. */
export async function loadSeTables(): Promise<void> {
  const p = projectStore.getState();
  if (!p.path || !p.json) return;
  const t = p.json.seTables ?? {};
  const sources: SeTableReadResult[] = [];
  const errors: string[] = [];
  const read = async (rel: string | undefined, parse: (text: string, file: string) => SeTableReadResult) => {
    if (typeof rel !== 'string' || !rel) return;
    const path = rel.startsWith('/') || /^[A-Za-z]:/.test(rel) ? rel : `${dirnameOf(p.path!)}/${rel}`;
    try {
      const r = await requireApi().readProjectText({ path });
      if (r.text !== null) sources.push(parse(r.text, path));
    } catch (e) {
      // An unreadable table (not text, say) in words first, then the reader's precise message.
      const plain = plainProblemOf(e);
      errors.push(plain ? `${plain.file}: ${plain.lead} ${plain.advice}\nDetails: ${message(e)}` : message(e));
    }
  };
  await read(t.sls, parseSls);
  await read(t.seDefine, parseSeDefine);
  const merged = mergeSeTables(sources);
  const tables: SeTablesState = {
    table: merged.table,
    names: [...merged.table.byName.keys()].sort(),
    errors: [...errors, ...merged.errors.map((e) => e.message)],
    warnings: merged.warnings.map((w) => w.message),
  };
  projectStore.getState().setTables(tables);
}
