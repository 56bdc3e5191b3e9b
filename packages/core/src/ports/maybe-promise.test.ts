import { describe, expect, it } from 'vitest';
import { recovering, whenReady } from './maybe-promise.js';

describe('whenReady', () => {
  it('continues in the same tick with a ready value', () => {
    expect(whenReady(2, (n) => n * 3)).toBe(6);
  });

  it('continues after a promise settles, and passes its rejection on', async () => {
    const later = whenReady(Promise.resolve(2), (n) => n * 3);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toBe(6);
    await expect(whenReady(Promise.reject(new Error('down')), () => 1)).rejects.toThrow('down');
  });
});

describe('recovering', () => {
  it('answers at once when the run and the recovery do', () => {
    expect(
      recovering(
        () => 1,
        () => 2,
      ),
    ).toBe(1);
    expect(
      recovering(
        () => {
          throw new Error('no');
        },
        (error) => (error as Error).message,
      ),
    ).toBe('no');
  });

  it('recovers a rejection, and lets the recovery rethrow', async () => {
    await expect(
      recovering(
        () => Promise.reject(new Error('late')),
        (error) => `got ${(error as Error).message}`,
      ),
    ).resolves.toBe('got late');
    const rethrown = recovering(
      () => Promise.reject(new Error('first')),
      () => {
        throw new Error('second');
      },
    );
    await expect(rethrown).rejects.toThrow('second');
  });
});
