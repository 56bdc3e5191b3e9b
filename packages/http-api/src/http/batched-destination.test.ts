import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../testing/serve-process.js';
import { batchedDestination } from './batched-destination.js';

/** Lines go to a real file, read back as the operator's log reader would. */
describe('batched destination (issue 27 item 1: stdout written in batches)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const logFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-batched-'));
    dirs.push(dir);
    const file = join(dir, 'out.log');
    return { file, fd: openSync(file, 'w'), read: () => readFileSync(file, 'utf8') };
  };

  it('writes nothing per line below a batch, everything in order once flushed', async () => {
    const log = logFile();
    const destination = batchedDestination({ fd: log.fd, batchBytes: 4096, withinMs: 60_000, maxUnwrittenBytes: 1 << 20 });
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'é'.repeat(i % 7)}\n`);
    for (const line of lines.slice(0, 10)) destination.write(line);
    expect(log.read()).toBe('');
    for (const line of lines.slice(10)) destination.write(line);
    await new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())));
    expect(log.read()).toBe(lines.join(''));
    closeSync(log.fd);
  });

  it('keeps the order around a line longer than its batch buffer', async () => {
    const log = logFile();
    const destination = batchedDestination({ fd: log.fd, batchBytes: 64, withinMs: 60_000, maxUnwrittenBytes: 1 << 20 });
    // 64-byte batches with a 256-byte buffer: the long line (3 bytes a character) goes on its own.
    const lines = ['first\n', `${'€'.repeat(300)}\n`, 'after the long one\n', `${'é'.repeat(40)}\n`, 'last\n'];
    for (const line of lines) destination.write(line);
    await new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())));
    expect(log.read()).toBe(lines.join(''));
    closeSync(log.fd);
  });

  it('writes a lone line within its time limit, unflushed', async () => {
    const log = logFile();
    const destination = batchedDestination({ fd: log.fd, batchBytes: 4096, withinMs: 50, maxUnwrittenBytes: 1 << 20 });
    destination.write('alone\n');
    await until(() => log.read() === 'alone\n', 5_000);
    closeSync(log.fd);
  });

  it('writes the waiting lines when the process exits without a graceful stop', () => {
    const log = logFile();
    const module = fileURLToPath(new URL('./batched-destination.ts', import.meta.url));
    // A process that writes below a batch and exits at once: no flush, no timer fired.
    const script = `
      import { batchedDestination } from ${JSON.stringify(module)};
      const destination = batchedDestination({ fd: 1, batchBytes: 4096, withinMs: 60000, maxUnwrittenBytes: 1 << 20 });
      for (let i = 0; i < 5; i++) destination.write('before exit ' + i + '\\n');
      process.exit(3);
    `;
    const child = spawnSync(process.execPath, ['--experimental-strip-types', '--input-type=module', '-e', script], {
      // Its standard output is the file, as a service's is under systemd's StandardOutput=file:.
      stdio: ['ignore', log.fd, 'pipe'],
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(3);
    expect(log.read()).toBe(Array.from({ length: 5 }, (_, i) => `before exit ${i}\n`).join(''));
    closeSync(log.fd);
  });
});
