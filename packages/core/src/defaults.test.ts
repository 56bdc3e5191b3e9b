import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { environmentDefaults } from './defaults.js';

/** README's "Configuration (environment)" table: each variable with the default cell it shows. */
function readmeDefaults(): Map<string, string> {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.split('## Configuration (environment)')[1]?.split('\n#')[0];
  if (section === undefined) throw new Error('README.md has no "## Configuration (environment)" section');
  const shown = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const [, names = '', defaults = ''] = cells;
    const variables = [...names.matchAll(/`(DMS_[A-Z0-9_]+)`/g)].map((match) => match[1]!);
    if (variables.length === 0) continue;
    // A row may name two variables (`DMS_HOST` / `DMS_PORT`): its defaults are split the same way.
    const values = variables.length === 1 ? [defaults] : defaults.split(' / ');
    expect(values, `README row of ${variables.join(', ')}`).toHaveLength(variables.length);
    variables.forEach((variable, i) => shown.set(variable, values[i]!));
  }
  return shown;
}

describe('README configuration table', () => {
  const shown = readmeDefaults();
  const declared = new Map<string, string | number | undefined>(Object.entries(environmentDefaults));

  it('lists exactly the variables defaults.ts declares', () => {
    expect([...shown.keys()].sort()).toEqual([...declared.keys()].sort());
  });

  it.each([...declared])('shows the default of %s that defaults.ts declares', (variable, value) => {
    const cell = shown.get(variable);
    expect(cell, `${variable} is missing from README's table`).toBeDefined();
    if (value === undefined) {
      // Nothing takes its place (off, or generated): the cell says so in words, with no value of its own first.
      expect(cell).not.toMatch(/^`/);
    } else {
      expect(cell?.match(/^`([^`]*)`/)?.[1]).toBe(String(value));
    }
  });
});
