import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface ReadmeExample {
  /** `packages/sdk/README.md:42`: where the block's first line of code is. */
  where: string;
  /** The heading the block is under, which names its fixtures. */
  heading: string;
  code: string;
  /** The generated module: type-checked, then imported and run. */
  file: string;
}

/**
 * The ```ts blocks of a markdown file, each with the nearest heading above it; from `section`
 * (a `## ` heading) to the next `## ` only, when given.
 */
export function codeBlocks(markdown: string, section?: string): Array<{ line: number; heading: string; code: string }> {
  const lines = markdown.split('\n');
  const blocks: Array<{ line: number; heading: string; code: string }> = [];
  let heading = '';
  let inSection = section === undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      const end = lines.findIndex((candidate, j) => j > i && candidate.startsWith('```'));
      if (inSection && line === '```ts') blocks.push({ line: i + 2, heading, code: lines.slice(i + 1, end).join('\n') });
      i = end;
      continue;
    }
    const title = /^(#{1,6}) (.*)$/.exec(line);
    if (!title) continue;
    if (section !== undefined && title[1] === '##') inSection = title[2] === section;
    heading = title[2]!;
  }
  return blocks;
}

/** The address examples are written against; the generated module reads the test server's instead. */
const exampleUrl = `'http://127.0.0.1:8080'`;
/** What an example that imports nothing may use. */
const defaultImports = `import { createClient, login, DmsApiError, DmsJobFailedError, eq, ne, gt, gte, lt, lte, inList, notInList, like, notLike, isNull } from '@dms/sdk';`;

/**
 * Each block as a module whose default export runs it: the block's lines keep their numbers
 * (from line 2; its imports hoisted below, blank lines left in their place) inside a block of
 * an async function whose parameters are what examples take as given: `dms` (a client with an
 * API key, unless the example makes its own), `process.env.DMS_API_KEY`, `console`, and
 * `readmeBaseUrl` in place of the examples' `'http://127.0.0.1:8080'`.
 */
export function writeExamples(sources: Array<{ path: string; label: string; section?: string }>, dir: string): ReadmeExample[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return sources.flatMap(({ path, label, section }) =>
    codeBlocks(readFileSync(path, 'utf8'), section).map(({ line, heading, code }) => {
      const lines = code.split('\n');
      const imports = lines.filter((text) => text.startsWith('import '));
      const body = lines.map((text) => (text.startsWith('import ') ? '' : text.replaceAll(exampleUrl, 'readmeBaseUrl')));
      const file = join(dir, `${basename(label).replace(/\W+/g, '-')}-${line}.ts`);
      writeFileSync(
        file,
        [
          'export default async function example({ dms, process, console, readmeBaseUrl }: Givens): Promise<void> { {',
          ...body,
          '} }',
          ...(imports.some((text) => text.includes(`from '@dms/sdk'`)) ? imports : [defaultImports, ...imports]),
          `import type { DmsClient } from '@dms/sdk';`,
          `export interface Givens { dms: DmsClient; process: { env: Record<string, string | undefined> }; console: Pick<Console, 'log' | 'error'>; readmeBaseUrl: string }`,
          '',
        ].join('\n'),
      );
      return { where: `${label}:${line}`, heading, code, file };
    }),
  );
}

/** `file:line message` of the type check, read back as the README's own line. */
export function readmeLine(problem: string, examples: readonly ReadmeExample[]): string {
  for (const example of examples) {
    const prefix = `${basename(example.file)}:`;
    if (!problem.startsWith(prefix)) continue;
    const [label, first] = example.where.split(/:(?=\d+$)/);
    return problem.replace(/^[^:]+:(\d+)/, (_all, line: string) => `${label}:${Number(first) + Number(line) - 2}`);
  }
  return problem;
}
