import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeCheck } from './support/type-check.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** What the README's `ts` examples take as given: the package's exports, a client, an AbortController. */
const imports = `import { createClient, login, DmsApiError, DmsJobFailedError, eq, ne, gt, gte, lt, lte, inList, notInList, like, notLike, isNull } from '@dms/sdk';`;
const givens = `import type { DmsClient as ReadmeClient } from '@dms/sdk';
declare const controller: AbortController;
declare const process: { env: Record<string, string | undefined> };`;

describe('the README', () => {
  it('has examples that type-check against the SDK', () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const dir = join(packageDir, 'test-results/readme-examples');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => {
      const block = match[1]!;
      const firstLine = readme.slice(0, match.index).split('\n').length + 1;
      // After the example, so its lines keep their numbers (imports and declarations hoist). An
      // example that imports the package or makes its own client keeps what it made.
      const givensOf = [block.includes("from '@dms/sdk'") ? '' : imports, givens, /\bconst dms\b/.test(block) ? '' : 'declare const dms: ReadmeClient;'];
      const file = join(dir, `README.md-${firstLine}.ts`);
      writeFileSync(file, `${block}\n${givensOf.join('\n')}\n`);
      return file;
    });
    expect(files.length).toBeGreaterThan(10);
    // `README.md-<first line>.ts:<line>` read as the README's own line.
    const problems = typeCheck(files, dir).map((problem) =>
      problem.replace(/^README\.md-(\d+)\.ts:(\d+)/, (_all, first: string, line: string) => `README.md:${Number(first) + Number(line) - 1}`),
    );
    expect(problems).toEqual([]);
  });
});
