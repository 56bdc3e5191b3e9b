import { spawn, spawnSync } from 'node:child_process';
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

  /**
   * Node's arguments for a child process that runs `body` with `destination` made on its fd 1 from
   * `options`; `dropped` counts the bytes it drops and `flushed()` waits for what it wrote.
   */
  const childArgs = (options: string, body: string) => {
    const module = fileURLToPath(new URL('./batched-destination.ts', import.meta.url));
    const script = `
      import { batchedDestination } from ${JSON.stringify(module)};
      let dropped = 0;
      const destination = batchedDestination({ fd: 1, ${options}, onDrop: (bytes) => (dropped += bytes) });
      const flushed = () => new Promise((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())));
      ${body}
    `;
    return ['--import', 'tsx', '--input-type=module', '-e', script];
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
    // A process that writes below a batch and exits at once: no flush, no timer fired.
    const args = childArgs(
      'batchBytes: 4096, withinMs: 60000, maxUnwrittenBytes: 1 << 20',
      `for (let i = 0; i < 5; i++) destination.write('before exit ' + i + '\\n');
       process.exit(3);`,
    );
    const child = spawnSync(process.execPath, args, {
      // Its standard output is the file, as a service's is under systemd's StandardOutput=file:.
      stdio: ['ignore', log.fd, 'pipe'],
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(3);
    expect(log.read()).toBe(Array.from({ length: 5 }, (_, i) => `before exit ${i}\n`).join(''));
    closeSync(log.fd);
  });

  /** A process whose standard output is a pipe (as under journald or Docker), running `body` as `childArgs` does. */
  const onPipe = (options: string, body: string) => spawn(process.execPath, childArgs(options, body), { stdio: ['ignore', 'pipe', 'pipe'] });
  /** Collects the child's output from the start: a paused stream with a listener stays unread, even past the child's exit. */
  const collect = (child: ReturnType<typeof spawn>) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    return { stdout: () => stdout, stderr: () => stderr, closed };
  };

  it('on a pipe, writes every line in order, the last ones at an exit without a graceful stop', async () => {
    const child = onPipe(
      'batchBytes: 4096, withinMs: 60000, maxUnwrittenBytes: 1 << 24',
      `for (let i = 0; i < 3000; i++) destination.write('line ' + i + ' ' + 'é'.repeat(i % 7) + '\\n');
       await flushed();
       for (let i = 0; i < 5; i++) destination.write('before exit ' + i + '\\n');
       process.exit(3);`,
    );
    const output = collect(child);
    expect(await output.closed, output.stderr()).toBe(3);
    const stdout = output.stdout();
    const want = [...Array.from({ length: 3000 }, (_, i) => `line ${i} ${'é'.repeat(i % 7)}\n`), ...Array.from({ length: 5 }, (_, i) => `before exit ${i}\n`)];
    expect(stdout).toBe(want.join(''));
  });

  it('on a pipe nobody reads, drops and counts what is past its cap; the rest arrives in order once read', async () => {
    // 2 MiB of lines against a 64 KiB cap (and the pipe's own buffer): most are dropped.
    const child = onPipe(
      'batchBytes: 4096, withinMs: 60000, maxUnwrittenBytes: 65536',
      `const line = (i) => 'line ' + String(i).padStart(6, '0') + ' ' + 'x'.repeat(100) + '\\n';
       for (let i = 0; i < 18000; i++) destination.write(line(i));
       process.stderr.write('handed on, dropped ' + dropped + '\\n');
       await flushed();
       process.stderr.write('flushed\\n');`,
    );
    const output = collect(child);
    child.stdout!.pause();
    await until(() => output.stderr().includes('handed on'), 20_000);
    const dropped = Number(/dropped (\d+)/.exec(output.stderr())![1]);
    const lineBytes = 'line 000000 '.length + 100 + 1;
    expect(dropped).toBeGreaterThan(0);
    expect(dropped % lineBytes).toBe(0);
    child.stdout!.resume();
    expect(await output.closed, output.stderr()).toBe(0);
    expect(output.stderr()).toContain('flushed');
    const stdout = output.stdout();
    expect(stdout.length + dropped).toBe(18000 * lineBytes);
    const numbers = stdout
      .split('\n')
      .slice(0, -1)
      .map((text) => Number(text.slice(5, 11)));
    expect(numbers.every((n, i) => i === 0 || n > numbers[i - 1]!)).toBe(true);
  });
});
