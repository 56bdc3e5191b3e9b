import { ROOT_CONTEXT, SamplingDecision, isValidTraceId } from '@opentelemetry/api';
import { RandomIdGenerator, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RootTraceIdRatio } from './root-trace-ids.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Math.random answering `draws` in turn, as the generator and RootTraceIdRatio consume it. */
function randomAnswering(draws: readonly number[]): void {
  let next = 0;
  vi.spyOn(Math, 'random').mockImplementation(() => draws[next++ % draws.length]!);
}

const word = fc.integer({ min: 0, max: 2 ** 32 - 1 });
/** What Math.random answers for a word: the generator keeps `random × 2^32` truncated. */
const randomFor = (value: number) => value / 2 ** 32;

describe('root trace ids decided from their words', () => {
  it('draws the id the SDK’s RandomIdGenerator draws from the same random numbers, and decides it as TraceIdRatioBasedSampler does', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 4, maxLength: 4 }), fc.double({ min: 0, max: 1, noNaN: true }), (words, ratio) => {
        const draws = words.map(randomFor);
        randomAnswering(draws);
        const expectedId = new RandomIdGenerator().generateTraceId();
        randomAnswering(draws);
        const roots = new RootTraceIdRatio(ratio);
        const sampled = roots.draw();
        expect(roots.traceId()).toBe(expectedId);
        const decision = new TraceIdRatioBasedSampler(ratio).shouldSample(ROOT_CONTEXT, expectedId).decision;
        expect(sampled).toBe(decision === SamplingDecision.RECORD_AND_SAMPLED);
      }),
      { numRuns: 500 },
    );
  });

  it('never draws the invalid id of zeros, as the generator never does', () => {
    randomAnswering([0]);
    const roots = new RootTraceIdRatio(1);
    expect(roots.draw()).toBe(true);
    expect(roots.traceId()).toBe('0'.repeat(31) + '1');
    expect(isValidTraceId(roots.traceId())).toBe(true);
  });

  it('samples all at ratio 1, none at 0, and about the ratio between', () => {
    const all = new RootTraceIdRatio(1);
    const none = new RootTraceIdRatio(0);
    const tenth = new RootTraceIdRatio(0.1);
    let sampled = 0;
    for (let draw = 0; draw < 20_000; draw += 1) {
      expect(all.draw()).toBe(true);
      expect(none.draw()).toBe(false);
      if (tenth.draw()) sampled += 1;
    }
    // 2,000 expected; the binomial's standard deviation is about 42.
    expect(sampled).toBeGreaterThan(1_700);
    expect(sampled).toBeLessThan(2_300);
  });
});
