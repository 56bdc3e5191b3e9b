import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServeProcess, until, type ServeProcess } from '../testing/serve-process.js';

/**
 * Issue 40 item 15: `dms serve | head`, or a log shipper that died or stalled. dms kept serving,
 * but SIGTERM never ended it: the exit's flush retried the write every 100 ms for ever. A stop
 * ends within DMS_SHUTDOWN_TIMEOUT_MS whatever standard output does; the lines it could not
 * write are dropped and counted on standard error. Real `dms serve` processes.
 */
describe('dms serve when standard output stops being read', () => {
  const dirs: string[] = [];
  let dms: ServeProcess | undefined;
  afterEach(() => {
    if (dms?.child.exitCode === null) dms.child.kill('SIGKILL');
    dms = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-stdout-gone-'));
    dirs.push(dir);
    dms = await startServeProcess(dir, 'stdout-gone-password', { DMS_SHUTDOWN_TIMEOUT_MS: '1000' });
    return dms;
  };
  /** Each request writes an access line at info. */
  const request = (served: ServeProcess) => fetch(`${served.url}/api/v2`).then((res) => res.arrayBuffer());
  const droppedLines = (output: string) => Number(/dms: (\d+) log lines \(\d+ bytes\) could not be written to fd 1 and were dropped/.exec(output)?.[1] ?? 0);

  it('issue 40 item 15: SIGTERM ends dms once the reader of its standard output is gone, and the dropped lines are counted', async () => {
    const served = await start();
    // The reading end closes: every later write to the child's stdout fails (EPIPE).
    served.child.stdout!.destroy();
    for (let i = 0; i < 20; i++) await request(served);
    // Still serving.
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
    served.child.kill('SIGTERM');
    const { code } = await served.exited;
    expect(code, served.output()).toBe(0);
    // The access lines and the stop's own lines: none reached a reader, all are counted.
    expect(droppedLines(served.output()), served.output()).toBeGreaterThanOrEqual(20);
  }, 60_000);

  it('issue 40 item 15: SIGTERM ends dms while the reader of its standard output is alive but stopped reading', async () => {
    const served = await start();
    served.child.stdout!.pause();
    // Enough access lines to fill the pipe many times over (a few hundred KiB).
    for (let batch = 0; batch < 40; batch++) await Promise.all(Array.from({ length: 50 }, () => request(served)));
    served.child.kill('SIGTERM');
    const { code } = await served.exited;
    expect(code, served.output()).toBe(0);
    await until(() => droppedLines(served.output()) > 0);
  }, 60_000);
});
