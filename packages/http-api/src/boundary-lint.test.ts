import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The boundary rule of eslint.config.js (docs/architecture.md): a host reaches the core through its
 * declared subpaths only. Run through ESLint's API on the repository's own config, so a
 * config change that lets an internal import through fails here, not in review.
 */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });
const hostFile = 'packages/http-api/src/routes/x.ts';

async function ruleHits(code: string, filePath = hostFile): Promise<Array<{ ruleId: string | null; line: number }>> {
  const [result] = await eslint.lintText(code, { filePath });
  if (!result) throw new Error('ESLint returned no result');
  return result.messages.map(({ ruleId, line }) => ({ ruleId, line }));
}

const coreSubpaths = Object.keys(
  (JSON.parse(readFileSync(new URL('../../core/package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> }).exports,
).map((key) => (key === '.' ? '@dms/core' : `@dms/core/${key.slice('./'.length)}`));

describe('host → core boundary lint', () => {
  it.each([
    "import { x } from '@dms/core/src/services/auth-service.js';",
    "import type { X } from '@dms/core/src/services/auth-service.js';",
    "import { x } from '@dms/core/dist/index.js';",
    "export { x } from '@dms/core/src/index.js';",
    "import { x } from '../../core/src/index.js';",
    "import { x } from '../../../core/src/jobs/job-engine.js';",
    "import { x } from '../../../../packages/core/src/index.js';",
  ])('fails on %s', async (code) => {
    expect(await ruleHits(code)).toEqual([{ ruleId: 'no-restricted-imports', line: 1 }]);
  });

  it('fails on an internal import() and typeof import(), which no-restricted-imports does not see', async () => {
    const code = [
      "export const later = () => import('@dms/core/src/index.js');",
      "export type Engine = typeof import('@dms/core/src/jobs/job-engine.js');",
    ].join('\n');
    expect(await ruleHits(code)).toEqual([
      { ruleId: 'no-restricted-syntax', line: 1 },
      { ruleId: 'no-restricted-syntax', line: 2 },
    ]);
  });

  it('fails in bench scripts too', async () => {
    const code = "const { JobEngine } = await import('@dms/core/src/jobs/job-engine.js');\nvoid JobEngine;";
    expect(await ruleHits(code, 'packages/http-api/bench/x.mjs')).toEqual([{ ruleId: 'no-restricted-syntax', line: 1 }]);
  });

  it('passes the root export and every subpath declared in packages/core/package.json', async () => {
    expect(coreSubpaths).toEqual(expect.arrayContaining(['@dms/core', '@dms/core/sqlite', '@dms/core/testing', '@dms/core/drivers', '@dms/core/snmp']));
    const code = [
      "import { createCore } from '@dms/core';",
      ...coreSubpaths.map((subpath, i) => `import * as subpath${i} from '${subpath}';`),
      "export const snmp = () => import('@dms/core/snmp');",
      'void createCore;',
    ].join('\n');
    expect(await ruleHits(code)).toEqual([]);
  });

  it('keeps the core free of its hosts and their frameworks', async () => {
    const code = "import { Hono } from 'hono';\nimport { createApp } from '@dms/http-api';\nimport { x } from '../../http-api/src/app.js';";
    expect(await ruleHits(code, 'packages/core/src/services/x.ts')).toEqual([
      { ruleId: 'no-restricted-imports', line: 1 },
      { ruleId: 'no-restricted-imports', line: 2 },
      { ruleId: 'no-restricted-imports', line: 3 },
    ]);
  });
});

describe('CLI boundary lint', () => {
  const cliFile = 'packages/cli/src/x-command.ts';

  it('issue 41: the CLI imports the core by its declared subpaths and @dms/http-api by its public entry', async () => {
    const code = [
      "import { formatBytes } from '@dms/core';",
      "import { openDms } from '@dms/core/runtime';",
      "import { startServer } from '@dms/http-api';",
      'void [formatBytes, openDms, startServer];',
    ].join('\n');
    expect(await ruleHits(code, cliFile)).toEqual([]);
  });

  it.each([
    "import { readConfig } from '@dms/http-api/src/server/config.js';",
    "import { createApp } from '@dms/http-api/dist/app.js';",
    "import { x } from '@dms/core/src/index.js';",
    "import { x } from '../../http-api/src/server/serve.js';",
  ])('issue 41: fails in the CLI on %s', async (code) => {
    expect(await ruleHits(code, cliFile)).toEqual([{ ruleId: 'no-restricted-imports', line: 1 }]);
  });

  it('issue 41: fails in the CLI on a dynamic import of an http-api internal', async () => {
    expect(await ruleHits("export const later = () => import('@dms/http-api/src/index.js');", cliFile)).toEqual([{ ruleId: 'no-restricted-syntax', line: 1 }]);
  });
});

describe('renderer boundary lint', () => {
  const rendererFile = 'packages/desktop/src/renderer/screens/x.tsx';

  it('lets the renderer import the pure contract from @dms/core', async () => {
    expect(await ruleHits("import { formatBytes } from '@dms/core';\nvoid formatBytes;", rendererFile)).toEqual([]);
  });

  it.each([
    "import { openDms } from '@dms/core/runtime';",
    "import { openSqliteStorage } from '@dms/core/sqlite';",
    "import { createApp } from '@dms/http-api';",
    "import { readFileSync } from 'node:fs';",
  ])('fails in the renderer on %s', async (code) => {
    expect(await ruleHits(code, rendererFile)).toEqual([{ ruleId: 'no-restricted-imports', line: 1 }]);
  });

  it('fails in the renderer on a dynamic import of the running service', async () => {
    expect(await ruleHits("export const later = () => import('@dms/core/runtime');", rendererFile)).toEqual([{ ruleId: 'no-restricted-syntax', line: 1 }]);
  });
});
