import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '@dms/http-api';
import { schemaValidator } from './support/response-validator.js';
import { typeCheck } from './support/type-check.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

type Media = { examples?: Record<string, { value: unknown }> };
type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
  'x-codeSamples'?: Array<{ lang: string; label: string; source: string }>;
};
const document = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })));

describe('the published package', () => {
  beforeAll(() => {
    // turbo builds the package before its tests (packages/sdk/turbo.json); run alone, build first.
    const dist = join(packageDir, 'dist/index.js');
    if (!existsSync(dist) || statSync(dist).mtimeMs < statSync(join(packageDir, 'src/client.ts')).mtimeMs) {
      throw new Error('dist/ is missing or older than src/: run `npm run build -w @dms/sdk` first');
    }
  });

  it('passes publint', async () => {
    const { messages, pkg } = await publint({ pkgDir: packageDir, level: 'suggestion', pack: 'npm' });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  });

  it('passes attw --pack: ESM and CJS types resolve under node10, node16 and bundlers', () => {
    // Its bin, found through the one file its exports map lets a package resolve.
    const attw = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist/index.js');
    // Exits non-zero, with the table, on any problem.
    execFileSync(process.execPath, [attw, '--pack', packageDir, '--format', 'table-flipped'], { cwd: packageDir, stdio: 'pipe' });
  });

  it('stays within 9 kB min+gz with openapi-fetch (bench/size.mjs)', () => {
    const output = execFileSync(process.execPath, [join(packageDir, 'bench/size.mjs'), '--check'], { encoding: 'utf8' });
    const { min_gzip_bytes } = JSON.parse(output) as { min_gzip_bytes: number };
    expect(min_gzip_bytes).toBeLessThanOrEqual(9216);
  });
});

describe('the API description the SDK is generated from', () => {
  const schemaAt = schemaValidator();
  const pointer = (path: string, method: string, rest: string) => `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/${rest}`;

  it('has an example for every request and response body, each valid against its schema', () => {
    const problems: string[] = [];
    for (const { path, method, operation } of operations) {
      const bodies: Array<[string, Media | undefined]> = [
        ...(operation.requestBody ? [['requestBody', operation.requestBody.content['application/json']] as [string, Media | undefined]] : []),
        ...Object.entries(operation.responses)
          .filter(([, response]) => response.content)
          .map(([status, response]) => [`responses/${status}`, response.content?.['application/json']] as [string, Media | undefined]),
      ];
      for (const [where, media] of bodies) {
        const examples = Object.values(media?.examples ?? {});
        if (examples.length === 0) problems.push(`${method} ${path} ${where}: no example`);
        const validate = schemaAt(pointer(path, method, `${where}/content/application~1json/schema`));
        // An example named `placeholder` is one the server refuses as it is: by its schema (a user
        // without a password, so that none is published) or by its state (a TOTP code never
        // right, which the schema takes). Every other example must be valid.
        for (const [name, { value }] of Object.entries(media?.examples ?? {})) {
          if (name !== 'placeholder' && !validate(value)) problems.push(`${method} ${path} ${where} ${name}: ${JSON.stringify(validate.errors)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every operation an @dms/sdk code sample that type-checks against the SDK', () => {
    const dir = join(packageDir, 'test-results/code-samples');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = operations.map(({ operation }) => {
      const sample = operation['x-codeSamples']?.find((candidate) => candidate.label === '@dms/sdk');
      expect(sample, operation.operationId).toBeDefined();
      const file = join(dir, `${operation.operationId}.ts`);
      writeFileSync(file, sample!.source);
      return file;
    });
    const problems = typeCheck(files, dir);
    expect(problems).toEqual([]);
  });
});
