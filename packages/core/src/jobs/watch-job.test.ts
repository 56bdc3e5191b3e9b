import { describe, expect, it } from 'vitest';
import type { ActiveJobStatus } from '../domain/job.js';
import { JobSignals } from './job-signals.js';
import { watchJob, watchPollMs } from './watch-job.js';

const status = (fields: Partial<ActiveJobStatus>): ActiveJobStatus => ({ job_id: 'j', status: 'working', progress: 0, total: 2, ...fields });

/** A job whose stored status is `now`; each change is signalled, as the engine does. */
function source(first: ActiveJobStatus) {
  const signals = new JobSignals();
  const draining = new AbortController();
  let now = first;
  return {
    watch: { read: async () => now, signals, draining: draining.signal },
    set(next: ActiveJobStatus) {
      now = next;
      signals.changed('j');
    },
    drain: () => draining.abort(),
  };
}

async function collect(statuses: AsyncIterable<ActiveJobStatus>): Promise<ActiveJobStatus[]> {
  const seen: ActiveJobStatus[] = [];
  for await (const one of statuses) seen.push(one);
  return seen;
}

describe('watchJob', () => {
  it('yields the status now, each change (progress included) once, and ends after the finished one', async () => {
    const first = status({ status: 'queued' });
    const job = source(first);
    const seen = collect(watchJob('j', first, job.watch));
    await new Promise((resolve) => setTimeout(resolve, 5));
    job.set(status({ progress: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    job.set(status({ progress: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    job.set(status({ status: 'completed', progress: 2 }));
    expect((await seen).map((s) => [s.status, s.progress])).toEqual([
      ['queued', 0],
      ['working', 1],
      ['working', 2],
      ['completed', 2],
    ]);
  });

  it('ends at once on a finished job, when its signal is aborted, and when the service drains', async () => {
    const done = status({ status: 'failed' });
    expect(await collect(watchJob('j', done, source(done).watch))).toEqual([done]);

    const running = status({});
    const stop = new AbortController();
    const watched = collect(watchJob('j', running, source(running).watch, stop.signal));
    stop.abort();
    expect(await watched).toEqual([running]);

    const draining = source(running);
    const drained = collect(watchJob('j', running, draining.watch));
    draining.drain();
    expect(await drained).toEqual([running]);
  });

  it('wakes at once for a change stored while a read is in flight, not a poll later', async () => {
    const signals = new JobSignals();
    let stored = status({ progress: 1 });
    let duringRead: (() => void) | undefined;
    const read = async () => {
      const row = stored;
      // The change lands after the read saw the row, before the read answers.
      await Promise.resolve();
      duringRead?.();
      duringRead = undefined;
      return row;
    };
    const first = stored;
    const watch = watchJob('j', first, { read, signals, draining: new AbortController().signal });
    expect((await watch.next()).value).toBe(first);
    const started = performance.now();
    stored = status({ progress: 2 });
    duringRead = () => {
      stored = status({ progress: 3 });
      signals.changed('j');
    };
    signals.changed('j');
    expect((await watch.next()).value).toMatchObject({ progress: 2 });
    expect((await watch.next()).value).toMatchObject({ progress: 3 });
    expect(performance.now() - started).toBeLessThan(watchPollMs / 2);
    await watch.return();
  });
});
