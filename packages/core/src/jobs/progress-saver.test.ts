import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressSaver } from './progress-saver.js';

describe('ProgressSaver', () => {
  let written: number[];
  /** Snapshots whose write has begun (a held write has begun, not ended). */
  let begun: number[];
  let errors: unknown[];
  let release: (() => void) | undefined;
  let holdWrites = false;

  const saver = (intervalMs = 250) =>
    new ProgressSaver(0, {
      write: async (snapshot) => {
        begun.push(snapshot);
        if (holdWrites) await new Promise<void>((resolve) => (release = resolve));
        written.push(snapshot);
      },
      intervalMs,
      now: () => Date.now(),
      onError: (error) => errors.push(error),
    });

  beforeEach(() => {
    vi.useFakeTimers();
    written = [];
    begun = [];
    errors = [];
    holdWrites = false;
    release = undefined;
  });
  afterEach(() => vi.useRealTimers());

  it('writes nothing for reports within the first interval when closed before it ends (claim then finish)', async () => {
    const progress = saver();
    progress.report(1);
    progress.report(2);
    await vi.advanceTimersByTimeAsync(249);
    await progress.close();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([]);
  });

  it('saves the latest report once the interval is over, then at most once an interval', async () => {
    const progress = saver();
    progress.report(1);
    progress.report(2);
    await vi.advanceTimersByTimeAsync(250);
    expect(written).toEqual([2]);
    progress.report(3);
    await vi.advanceTimersByTimeAsync(100);
    progress.report(4);
    expect(written).toEqual([2]);
    await vi.advanceTimersByTimeAsync(150);
    expect(written).toEqual([2, 4]);
    await progress.close();
  });

  it('saves at once when a report comes after a quiet interval', async () => {
    const progress = saver();
    await vi.advanceTimersByTimeAsync(300);
    progress.report(7);
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([7]);
    await progress.close();
  });

  it('a heartbeat saves at once when nothing waits, and never brings a report forward', async () => {
    const progress = saver();
    progress.save();
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([0]);
    progress.report(5);
    progress.save();
    await vi.advanceTimersByTimeAsync(249);
    expect(written).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([0, 5]);
    await progress.close();
  });

  it('counts the interval from the end of a save, so a slow write is not followed at once by the next', async () => {
    holdWrites = true;
    const progress = saver();
    await vi.advanceTimersByTimeAsync(250);
    progress.report(1);
    await vi.advanceTimersByTimeAsync(10);
    progress.report(2);
    // The write of 1 takes 200 ms; 2 is saved 250 ms after it ended, not 250 ms after it began.
    await vi.advanceTimersByTimeAsync(190);
    release!();
    await vi.advanceTimersByTimeAsync(249);
    expect(begun).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(begun).toEqual([1, 2]);
    release!();
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1, 2]);
    await progress.close();
  });

  it('keeps one write in flight and close waits for it, so the finish is written after it', async () => {
    holdWrites = true;
    const progress = saver(10);
    progress.save();
    progress.report(1);
    await vi.advanceTimersByTimeAsync(10);
    // The second save waits for the first to end, and then for the interval.
    expect(written).toEqual([]);
    let closed = false;
    const closing = progress.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    release!();
    await closing;
    // Closed before its turn: 1 is not saved, the finish carries it.
    expect(written).toEqual([0]);
  });

  it('a failed write goes to onError and later saves still happen', async () => {
    let fail = true;
    const progress = new ProgressSaver(0, {
      write: async (snapshot) => {
        if (fail) throw new Error('connection lost');
        written.push(snapshot);
      },
      intervalMs: 250,
      now: () => Date.now(),
      onError: (error) => errors.push(error),
    });
    progress.save();
    await vi.advanceTimersByTimeAsync(0);
    fail = false;
    progress.report(3);
    // After a refused save the next waits twice the interval.
    await vi.advanceTimersByTimeAsync(500);
    await progress.close();
    expect(errors).toEqual([new Error('connection lost')]);
    expect(written).toEqual([3]);
  });

  it('issue 40 item A: a refused save is tried again by itself after a pause that grows while refusals go on (to 5 s at most), and is back to the interval once one lands', async () => {
    let refusing = true;
    const tries: number[] = [];
    const progress = new ProgressSaver(0, {
      write: async (snapshot) => {
        tries.push(Date.now());
        if (refusing) throw new Error('database or disk is full');
        written.push(snapshot);
      },
      intervalMs: 250,
      now: () => Date.now(),
      onError: (error) => errors.push(error),
    });
    const start = Date.now();
    progress.report(1);
    await vi.advanceTimersByTimeAsync(250 + 500 + 1000 + 2000 + 4000 + 5000 + 5000);
    expect(tries.map((at) => at - start)).toEqual([250, 750, 1750, 3750, 7750, 12750, 17750]);
    expect(written).toEqual([]);
    refusing = false;
    await vi.advanceTimersByTimeAsync(5000);
    expect(written).toEqual([1]);
    progress.report(2);
    await vi.advanceTimersByTimeAsync(250);
    expect(written).toEqual([1, 2]);
    await progress.close();
  });
});
