import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const heavyModules = ['@node-rs/argon2', 'net-snmp', 'better-sqlite3', 'pg'];

// Imports one entry in a fresh process and lists the heavy modules it left in the CommonJS
// cache (each of them is CommonJS, so an ESM import of it lands there too).
const probe = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
await import(process.argv[1]);
const loaded = Object.keys(require.cache);
const heavy = ${JSON.stringify(heavyModules)};
console.log(JSON.stringify(heavy.filter((name) => loaded.some((path) => path.includes('/node_modules/' + name + '/')))));
`;

async function heavyModulesLoadedBy(entry: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '--eval', probe, entry], {
    // Inside the package, so the entry is resolved by name through its "exports".
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  return JSON.parse(stdout) as string[];
}

describe('what importing an entry of @dms/core loads', () => {
  // The renderer bundles @dms/core, and a short CLI command should not pay for native modules.
  it('@dms/core: no heavy module (argon2, net-snmp, better-sqlite3, pg)', async () => {
    expect(await heavyModulesLoadedBy('@dms/core')).toEqual([]);
  });

  it('@dms/core/runtime: none either, until a data dir is opened', async () => {
    expect(await heavyModulesLoadedBy('@dms/core/runtime')).toEqual([]);
  });

  it('sees a heavy module when an entry does load one', async () => {
    expect(await heavyModulesLoadedBy('@dms/core/sqlite')).toContain('better-sqlite3');
  });
});
