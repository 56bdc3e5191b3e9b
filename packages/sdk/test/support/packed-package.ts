import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
/** Async: the server a scratch program calls runs in this process and must keep answering. */
export const run = promisify(execFile);

/** Throws unless dist/ is newer than src/ (turbo builds before tests; run alone, build first). */
export function requireFreshBuild(): void {
  const dist = join(packageDir, 'dist/index.cjs');
  if (!existsSync(dist) || statSync(dist).mtimeMs < statSync(join(packageDir, 'src/client.ts')).mtimeMs) {
    throw new Error('dist/ is missing or older than src/: run `npm run build -w @dms/sdk` first');
  }
}

export interface Installed {
  /** A scratch directory in os.tmpdir() whose node_modules holds the package as npm would install it. */
  root: string;
  tarball: string;
  /** The packed package.json. */
  manifest: { name: string; version: string; dependencies: Record<string, string> };
}

/**
 * `npm pack`, then installed without a registry: the tarball unpacked to
 * node_modules/@dms/sdk (what `npm install <tarball>` puts there), and each of its
 * `dependencies` linked from the repository's node_modules (what npm would have fetched;
 * those resolve their own dependencies where they really are). No network, no npm cache; what
 * runs is the tarball's files, resolved through its own package.json.
 */
export async function packAndInstall(): Promise<Installed> {
  const root = mkdtempSync(join(tmpdir(), 'dms-sdk-packed-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', root], { cwd: packageDir });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  const tarball = join(root, filename);
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '@dms'), { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', root]);
  renameSync(join(root, 'package'), join(modules, '@dms/sdk'));
  const manifest = JSON.parse(readFileSync(join(modules, '@dms/sdk/package.json'), 'utf8')) as Installed['manifest'];
  // What a TypeScript project in Node has anyway; the compiler, from the repository.
  for (const name of [...Object.keys(manifest.dependencies ?? {}), '@types/node']) {
    const source = dirname(require.resolve(`${name}/package.json`, { paths: [packageDir] }));
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(source, join(modules, name), 'dir');
  }
  return { root, tarball, manifest };
}

/** The repository's TypeScript compiler, run as `tsc -p <dir>`: answers its output, throws with it on errors. */
export async function tsc(project: string): Promise<string> {
  const bin = join(dirname(require.resolve('typescript/package.json', { paths: [packageDir] })), 'bin/tsc');
  try {
    return (await run(process.execPath, [bin, '-p', project])).stdout;
  } catch (error) {
    throw new Error(`tsc -p ${project} failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
  }
}
