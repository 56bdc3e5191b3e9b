// The result table every bench section prints, and how its rows reach results.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** "pass (target < 20)" / "FAIL (…)" for a metric with a target; '' for one without. */
export function verdict(targets, name, value) {
  const target = targets[name];
  if (!target) return '';
  if (!Number.isFinite(value)) return `FAIL (no value; target ${target.op} ${target.value})`;
  const ok = target.op === '>=' ? value >= target.value : target.op === '<=' ? value <= target.value : value < target.value;
  return `${ok ? 'pass' : 'FAIL'} (target ${target.op} ${target.value})`;
}

/** The metrics as an aligned table (a target without a value shows n/a), then the notes. */
export function printResults(results, targets, notes) {
  const rows = results.map((r) => [r.name, String(r.value), r.unit, verdict(targets, r.name, r.value)]);
  for (const name of Object.keys(targets)) if (!results.some((r) => r.name === name)) rows.push([name, 'n/a', '', verdict(targets, name, NaN)]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length), ['metric', 'value', 'unit'][i].length));
  const line = (row) => `${row[0].padEnd(widths[0])}  ${row[1].padStart(widths[1])}  ${row[2].padEnd(widths[2])}  ${row[3]}`.trimEnd();
  console.log('\n' + line(['metric', 'value', 'unit', 'target']));
  console.log(line(['-'.repeat(widths[0]), '-'.repeat(widths[1]), '-'.repeat(widths[2]), '------']));
  for (const row of rows) console.log(line(row));
  if (notes.length) console.log('\n' + notes.map((note) => `- ${note}`).join('\n'));
}

/** A section's rows into results.json: a row of the same name replaced, the others kept. */
export function mergeResults(file, results) {
  const previous = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
  const mine = new Set(results.map((r) => r.name));
  writeFileSync(file, JSON.stringify([...previous.filter((r) => !mine.has(r.name)), ...results], null, 2) + '\n');
}
