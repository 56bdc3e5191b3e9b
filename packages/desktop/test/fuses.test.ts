import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flipFuses, FuseV1Options, FuseVersion, getCurrentFuseWire, type FuseV1Config } from '@electron/fuses';
import { parse } from 'yaml';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { electronBinary, noElectronBinaryReason } from './electron-binary.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/** Every fuse @electron/fuses knows, under the name electron-builder's `electronFuses` gives it (RunAsNode: runAsNode). */
const fuseIndexByKey = new Map(
  Object.entries(FuseV1Options)
    .filter((entry): entry is [string, FuseV1Options] => typeof entry[1] === 'number')
    .map(([name, index]) => [name[0]!.toLowerCase() + name.slice(1), index]),
);

const fuses = z
  .object({ electronFuses: z.record(z.string(), z.boolean()) })
  .parse(parse(readFileSync(join(packageDir, 'electron-builder.yml'), 'utf8'))).electronFuses;

/** The config electron-builder hands to flipFuses for our `electronFuses` (resetAdHocDarwinSignature is no fuse). */
function flipConfig(): FuseV1Config {
  const config: FuseV1Config = { version: FuseVersion.V1 };
  for (const [key, index] of fuseIndexByKey) config[index] = fuses[key];
  return config;
}

// '1' on, '0' off, as Electron writes its fuse wire.
const ON = '1'.charCodeAt(0);
const OFF = '0'.charCodeAt(0);
const expectedWire = () => [...fuseIndexByKey].map(([key, index]) => [key, index, fuses[key] ? ON : OFF] as const);

describe('finding 20.15: Electron fuses (electron-builder.yml electronFuses)', () => {
  it('sets each fuse as decided', () => {
    expect(fuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
      resetAdHocDarwinSignature: true,
    });
  });

  it('decides every fuse @electron/fuses knows, under keys electron-builder accepts', () => {
    // A fuse added by an upgrade is a decision to make here, not a default to inherit.
    for (const key of fuseIndexByKey.keys()) expect(fuses, key).toHaveProperty(key);
    const schemaFile = require.resolve('app-builder-lib/scheme.json', { paths: [dirname(require.resolve('electron-builder/package.json'))] });
    const schema = z
      .object({ definitions: z.object({ FuseOptionsV1: z.object({ properties: z.record(z.string(), z.unknown()) }) }) })
      .parse(JSON.parse(readFileSync(schemaFile, 'utf8')));
    expect(Object.keys(schema.definitions.FuseOptionsV1.properties).sort()).toEqual(Object.keys(fuses).sort());
  });

  it('flips the wire of a binary shaped like Electron 41’s (its defaults, the opposite of ours for most) to the decided states', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-fuses-'));
    try {
      // Electron's defaults: RunAsNode, NODE_OPTIONS, --inspect and file: privileges on; the rest off.
      const defaults = '10110001';
      const file = join(dir, 'electron');
      writeFileSync(
        file,
        Buffer.concat([
          Buffer.from('\0ELF…'),
          Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
          Buffer.from([1, defaults.length]),
          Buffer.from(defaults),
          Buffer.from('…'),
        ]),
      );
      await flipFuses(file, flipConfig());
      const wire = await getCurrentFuseWire(file);
      for (const [key, index, state] of expectedWire()) expect(wire[index], key).toBe(state);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const binary = electronBinary();
if (!binary) console.log(`[desktop] skipping the fuse flip on the real Electron binary: ${noElectronBinaryReason}`);

describe.skipIf(!binary)('finding 20.15: Electron fuses on the real Electron binary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dms-fuses-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('flips every decided fuse of the installed Electron, and the wire reads back as decided', async () => {
    // On macOS the wire lives in the framework beside the executable, as @electron/fuses finds it.
    const wireFile = binary!.includes('.app') ? resolve(binary!, '..', '..', 'Frameworks', 'Electron Framework.framework', 'Electron Framework') : binary!;
    const copy = join(dir, 'electron-copy');
    copyFileSync(wireFile, copy);
    await flipFuses(copy, flipConfig());
    const wire = await getCurrentFuseWire(copy);
    for (const [key, index, state] of expectedWire()) expect(wire[index], key).toBe(state);
  });
});
