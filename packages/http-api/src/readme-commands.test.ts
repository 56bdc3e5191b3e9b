import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTools } from '@dms/core/testing';
import { readmeBlocks, type ReadmeBlock } from './testing/readme-blocks.js';

/**
 * Issue 25: every shell block of the README's self-hosting sections runs here, in order, against
 * a `dms serve` of this repository (standing in for the Quick start's `npm start`), so the README
 * cannot drift from what dms does. A block that cannot run in a test (a fresh clone, root and
 * systemd, a container engine) says why in `<!-- doc-test: verify-only REASON -->` just above it
 * and gets a substitute check: its syntax (`bash -n`), and `systemd-analyze verify` for the unit.
 */
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const cliMain = fileURLToPath(new URL('../../cli/src/main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const sections = [
  'Requirements',
  'Quick start',
  'First ten minutes (curl)',
  'Configuration (environment)',
  'Operations',
  'Backups',
  'Running as a service',
  'Container',
] as const;
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const { blocks, indented } = readmeBlocks(readme, sections);
const tools = requireTools(['bash', 'curl', 'systemd-analyze'], 'apt-get install bash curl systemd');

/**
 * What every block runs with: `dms` (and `npx dms`) is this repository's CLI on this node; `npx`
 * fetches nothing else; `curl` fails on an HTTP error; a browser (`xdg-open`, `open`) is a fetch
 * of the page.
 */
const prelude = `
dms() { "${process.execPath}" --conditions=source --import "${tsx}" "${cliMain}" "$@"; }
npx() { if [ "$1" = dms ]; then shift; dms "$@"; else echo "doc test: npx $1 is not run here" >&2; return 127; fi; }
curl() { command curl --fail-with-body -sS "$@"; }
xdg-open() { command curl -fsS -o /dev/null "$1"; }
open() { xdg-open "$@"; }
`;

function where(block: ReadmeBlock): string {
  return `README.md:${block.line} (${block.section})`;
}

function bash(script: string, options: { cwd: string; env: NodeJS.ProcessEnv; syntaxOnly?: boolean }): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const args = options.syntaxOnly ? ['-n', '-c', script] : ['-euo', 'pipefail', '-c', script];
    execFile('bash', args, { cwd: options.cwd, env: options.env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe('README: the self-hosting sections are what dms does', () => {
  it('has its command blocks fenced as ```sh, so that this test runs them', () => {
    expect(blocks.length, 'no ```sh block found in the self-hosting sections').toBeGreaterThan(3);
    expect(
      indented.map((at) => `README.md:${at.line} (${at.section}): an indented command block; write it as a \`\`\`sh block`),
      'indented code blocks',
    ).toEqual([]);
  });

  it('has blocks that are at least valid shell, the verify-only ones included', async () => {
    const failures: string[] = [];
    for (const block of blocks) {
      const { code, output } = await bash(block.code, { cwd: repo, env: process.env, syntaxOnly: true });
      if (code !== 0) failures.push(`${where(block)}: ${output.trim()}`);
    }
    expect(failures).toEqual([]);
  });
});

/** A `dms serve` of this checkout on `dataDir`, on a free port; resolves once it serves. */
async function startServe(cwd: string, dataDir: string): Promise<{ child: ChildProcess; port: number; output: () => string; stop(): Promise<void> }> {
  const { DMS_ADMIN_PASSWORD: _unset, ...env } = process.env;
  const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, cliMain, 'serve'], {
    cwd,
    env: { ...env, DMS_DATA_DIR: dataDir, DMS_PORT: '0', DMS_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  let port = 0;
  while (!(port = Number(/"url":"http:\/\/127\.0\.0\.1:(\d+)\/api\/v2"/.exec(output)?.[1] ?? 0))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`dms serve did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    port,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe.skipIf(!tools.ok)('README: its self-hosting commands run', () => {
  let dir: string;
  let serve: Awaited<ReturnType<typeof startServe>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-readme-'));
    serve = await startServe(dir, join(dir, 'data'));
  }, 90_000);

  afterAll(async () => {
    await serve?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('prints the first admin password once the server listens, and it signs in', async () => {
    const deadline = Date.now() + 30_000;
    while (!/created user 'admin' with password: \S+/.test(serve.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const password = /created user 'admin' with password: (\S+)/.exec(serve.output())?.[1];
    expect(password, serve.output()).toBeDefined();
    const response = await fetch(`http://127.0.0.1:${serve.port}/api/v2/users`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` },
    });
    expect(response.status).toBe(200);
  });

  it('runs every block but the verify-only ones, in order, on this server (its port for 8080)', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DMS_DATA_DIR: join(dir, 'data') };
    delete env['DMS_ADMIN_PASSWORD'];
    const failures: string[] = [];
    for (const block of blocks.filter((candidate) => !candidate.verifyOnly)) {
      if (block.dmsStopped) await serve.stop();
      const script = prelude + block.code.replaceAll('127.0.0.1:8080', `127.0.0.1:${serve.port}`);
      const { code, output: said } = await bash(script, { cwd: dir, env });
      // Each failure names its block, so a block of another section that lands later is found at once.
      if (code !== 0) failures.push(`${where(block)} exited ${code}:\n${block.code}\n--- output ---\n${said.trim()}`);
      if (block.dmsStopped) serve = await startServe(dir, join(dir, 'data'));
    }
    expect(failures.join('\n\n')).toBe('');
  }, 600_000);

  it('verifies contrib/dms.service with systemd-analyze (with ExecStart at this checkout)', async () => {
    // The unit names /opt/dms, where the README installs it; here the checkout stands in for it.
    const unit = join(dir, 'dms.service');
    writeFileSync(unit, readFileSync(join(repo, 'contrib/dms.service'), 'utf8').replaceAll('/opt/dms/', repo));
    const result = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(tools.paths['systemd-analyze']!, ['verify', unit], (error, stdout, stderr) => resolve({ code: error ? 1 : 0, output: `${stdout}${stderr}` })),
    );
    // verify exits 0 on an unknown key or a bad value, and only says so: its output must be empty.
    expect(result).toEqual({ code: 0, output: '' });
  });

  it('says why systemd-analyze is trusted: it reports a misspelt option', async () => {
    const unit = join(dir, 'bad.service');
    writeFileSync(
      unit,
      readFileSync(join(repo, 'contrib/dms.service'), 'utf8').replaceAll('/opt/dms/', repo).replace('ProtectSystem=strict', 'ProtectSystem=stirct'),
    );
    const output = await new Promise<string>((resolve) =>
      execFile(tools.paths['systemd-analyze']!, ['verify', unit], (_error, stdout, stderr) => resolve(stdout + stderr)),
    );
    expect(output).toMatch(/protect system value/i);
  });
});
