import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Where the electron package would keep its binary; none when it was installed with ELECTRON_SKIP_BINARY_DOWNLOAD. */
export function electronBinary(): string | undefined {
  const packageDir = dirname(require.resolve('electron/package.json'));
  if (!existsSync(join(packageDir, 'path.txt'))) return undefined;
  return require('electron') as string;
}

/** Why a test of the real Electron binary cannot run here. */
export const noElectronBinaryReason = 'no Electron binary (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1)';
