import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const cliMain = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/**
 * `dms serve` run until it logs that it serves, its standard output a pipe or, through `script`,
 * a pseudo-terminal; what it wrote to standard output (and, under `script`, stderr too).
 */
async function serveUntilServing(dataDir: string, terminal: boolean, extraEnv: Record<string, string> = {}): Promise<string> {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DMS_'))),
    DMS_DATA_DIR: dataDir,
    DMS_PORT: '0',
    DMS_ADMIN_PASSWORD: 'log-format-admin-1',
    ...extraEnv,
  };
  const command = [process.execPath, '--conditions=source', '--import', 'tsx', cliMain, 'serve'];
  const child = terminal
    ? spawn('script', ['-q', '-e', '-c', command.join(' '), '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('dms serving')) resolve();
      });
      child.once('exit', () => reject(new Error(`dms serve exited: ${output}`)));
    });
    return output;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('log format (docs/decisions/151-log-format-by-terminal.md)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dms-log-format-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('issue 45: dms serve with standard output a pipe writes JSON lines', async () => {
    const output = await serveUntilServing(join(dir, 'data'), false);
    const serving = output.split('\n').find((line) => line.includes('dms serving'));
    expect(JSON.parse(serving!)).toMatchObject({ msg: 'dms serving', level: 30 });
  });

  it('issue 45: dms serve on a terminal writes lines for people; DMS_LOG_FORMAT=json still wins there', async () => {
    const pretty = await serveUntilServing(join(dir, 'data'), true);
    const serving = pretty.split(/\r?\n/).find((line) => line.includes('dms serving'))!;
    // pino-pretty's line: `[12:00:00.000] INFO: dms serving`, colours aside, and no JSON.
    expect(serving.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: dms serving$/);
    const json = await serveUntilServing(join(dir, 'data'), true, { DMS_LOG_FORMAT: 'json' });
    expect(json).toMatch(/\{"level":30,.*"msg":"dms serving"\}/);
  });
});
