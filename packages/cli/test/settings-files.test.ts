import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandEnvironment } from '../src/command-environment.js';
import { parseSettings } from '../src/settings-file.js';
import { cli } from './support/cli-run.js';

const cliMain = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** `dms --config FILE`, the data dir's `dms.env` and `--data-dir` (docs/decisions/138-settings-files.md). */
describe('settings files', () => {
  const saved = { ...process.env };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dms-cli-settings-'));
    for (const name of Object.keys(process.env)) if (name.startsWith('DMS_')) delete process.env[name];
  });
  afterEach(() => {
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  it('issue 45: KEY=value lines with blank lines and # comments; a bad line or an unknown key is refused naming the file and line', () => {
    expect(parseSettings('# dms\n\nDMS_PORT=9090\n  DMS_HOST=\nDMS_LOG_LEVEL="debug"\r\nDMS_DATABASE_URL=postgres://u:p@h/d?a=b\n', 'a.env')).toEqual({
      DMS_PORT: '9090',
      DMS_LOG_LEVEL: 'debug',
      DMS_DATABASE_URL: 'postgres://u:p@h/d?a=b',
      DMS_HOST: '',
    });
    expect(() => parseSettings('DMS_HOST = x\n', 'a.env')).toThrow('a.env:1: not a KEY=value line');
  });

  it('issue 45: a line that is not KEY=value, or a key that is not a dms setting, names the file and line', () => {
    expect(() => parseSettings('DMS_PORT=1\nexport DMS_HOST=x\n', 'a.env')).toThrow('a.env:2: not a KEY=value line');
    expect(() => parseSettings('\n# x\nDMS_PROT=1\n', 'b.env')).toThrow(/^b\.env:3: DMS_PROT is not a dms setting; the settings are DMS_HOST, DMS_PORT/);
  });

  it('issue 45: the environment wins over --config, which wins over the data dir dms.env; --data-dir names the data dir', () => {
    const data = join(dir, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'dms.env'), 'DMS_PORT=7001\nDMS_LOG_LEVEL=warn\nDMS_HOST=10.0.0.1\n');
    writeFileSync(join(dir, 'dms.conf'), `DMS_DATA_DIR=${data}\nDMS_PORT=7002\n`);
    const env = commandEnvironment({ config: join(dir, 'dms.conf') }, { DMS_HOST: '127.0.0.2' });
    expect(env).toMatchObject({ DMS_DATA_DIR: data, DMS_PORT: '7002', DMS_LOG_LEVEL: 'warn', DMS_HOST: '127.0.0.2' });
    expect(commandEnvironment({ dataDir: data }, { DMS_DATA_DIR: join(dir, 'elsewhere') })).toMatchObject({ DMS_DATA_DIR: data, DMS_PORT: '7001' });
    writeFileSync(join(data, 'dms.env'), `DMS_DATA_DIR=${dir}\n`);
    expect(() => commandEnvironment({ dataDir: data }, {})).toThrow(`${join(data, 'dms.env')}: DMS_DATA_DIR cannot be set`);
    expect(() => commandEnvironment({ config: join(dir, 'missing.conf') }, {})).toThrow('cannot read settings file');
  });

  it('issue 45: a second shell needs no exports: dms --data-dir DIR reads DIR/dms.env; a bad dms.env exits 1 naming it', async () => {
    const data = join(dir, 'data');
    expect((await cli('--data-dir', data, 'migrate')).code).toBe(0);
    expect((await cli('nas', 'add', 'here', '--host', 'localhost', '--type', 'local', '--data-dir', data)).code).toBe(0);
    // DMS_LOCAL_ROOTS from dms.env: a path outside it is refused, one inside it taken.
    mkdirSync(join(dir, 'elsewhere', 'media'), { recursive: true });
    expect((await cli('--data-dir', data, 'shares', 'add', 'here', 'media', '--path', join(dir, 'elsewhere', 'media'))).code).toBe(1);
    writeFileSync(join(data, 'dms.env'), `# local shares\nDMS_LOCAL_ROOTS=${join(dir, 'elsewhere')}\n`);
    const added = await cli('--data-dir', data, 'shares', 'add', 'here', 'media', '--path', join(dir, 'elsewhere', 'media'));
    expect(added.errors).toBe('');
    expect(added.code).toBe(0);
    writeFileSync(join(data, 'dms.env'), 'DMS_LOCAL_ROOT=/srv\n');
    const refused = await cli('--data-dir', data, 'nas', 'list');
    expect(refused.code).toBe(1);
    expect(refused.errors).toContain(`${join(data, 'dms.env')}:1: DMS_LOCAL_ROOT is not a dms setting`);
    // --help reads no file.
    expect((await cli('--data-dir', data, 'nas', 'list', '--help')).code).toBe(0);
  });

  it('issue 45: dms serve --config FILE serves with its settings (data dir, port, first admin password); a bad file exits 1 before anything starts', async () => {
    const data = join(dir, 'data');
    const bad = join(dir, 'bad.conf');
    writeFileSync(bad, `DMS_DATA_DIR=${data}\nDMS_PORT 0\n`);
    const refused = await cli('serve', '--config', bad);
    expect(refused.code).toBe(1);
    expect(refused.errors).toContain(`${bad}:2: not a KEY=value line`);
    expect(existsSync(data)).toBe(false);

    const config = join(dir, 'dms.conf');
    writeFileSync(config, `# dms serve --config\nDMS_DATA_DIR=${data}\nDMS_PORT=0\nDMS_LOG_LEVEL=info\nDMS_ADMIN_PASSWORD='from-the-file-1'\n`);
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DMS_')));
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, 'serve', '--config', config], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const look = (chunk: Buffer) => {
          output += chunk.toString();
          const found = /"url":"(http:\/\/[^"]+?\/api\/v2)"/.exec(output)?.[1];
          if (found) resolve(found);
        };
        child.stdout.on('data', look);
        child.stderr.on('data', look);
        child.once('exit', () => reject(new Error(`dms serve exited: ${output}`)));
      });
      expect(output).toContain(`dms: data dir ${data}`);
      const response = await fetch(`${url}/users`, { headers: { authorization: `Basic ${Buffer.from('admin:from-the-file-1').toString('base64')}` } });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
