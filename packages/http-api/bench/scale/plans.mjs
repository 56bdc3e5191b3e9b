// The statements the core runs for the scale section's list requests, and their plans on the
// seeded database (SQLite or PostgreSQL): the bench opens the storage itself, calls the core's list as the route would
// (statements noted by history/statement-plans.mjs), then explains each one. A list's cost grows
// with what its plan reads: a whole table (flagged), or the matches of its filter its count visits
// (for the audit and job lists, up to the page's end plus 10,000: docs/decisions/186-history-list-counts.md).
import { captureStatements, explainStatements, rawQuery, withCore } from '../history/statement-plans.mjs';

/**
 * For each `{ table, list: 'auditEvents' | 'jobs', paths }`, each path's statements on `table`
 * with their plans: `{ path, sql, plan, wholeTable }[]`; on the SQLite `file` (adapter 'sqlite')
 * or the PostgreSQL database `url` (adapter 'postgres').
 */
export async function listPlans(target, groups) {
  const { adapter, file, url } = target;
  return withCore(target, async (core, systemPrincipal) => {
    const out = [];
    for (const { table, list, paths } of groups) {
      for (const path of paths) {
        const raw = rawQuery(path.split('?')[1] ?? '');
        const statements = await captureStatements(adapter, () => core[list].list(systemPrincipal, raw));
        const onTable = statements.filter((statement) => new RegExp(`\\bfrom "${table}"`).test(statement.sql));
        for (const plan of await explainStatements({ adapter, file, url, table }, onTable)) out.push({ path, ...plan });
      }
    }
    return out;
  });
}

/** A plan as log lines: the statement (its column list shortened), then its steps; a whole-table read called out. */
export function planLines({ path, sql, parameters, plan, wholeTable }) {
  const text = sql.replace(/\s+/g, ' ').replace(/^select ("\w+"\."\w+", )+"\w+"\."\w+" from/, 'select <every column> from');
  return [
    `${path}: ${text}  -- ${JSON.stringify(parameters)}`,
    ...plan.map((line) => `    ${line}`),
    ...(wholeTable ? [`    NOT ON AN INDEX: '${wholeTable.trim()}'`] : []),
  ];
}
