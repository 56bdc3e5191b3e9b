import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Above the port: a spy on node:crypto shows which comparison decides, which no timing could.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});
const { digestsMatch } = await import('./usm-digest.js');

describe('digestsMatch', () => {
  afterEach(() => vi.mocked(crypto.timingSafeEqual).mockClear());
  const digest = Buffer.from('36b6ecdcb278af93cf9ab15bfa20ef1ccf2f34a968b6a1d7', 'hex');
  const differingAt = (index: number) => {
    const copy = Buffer.from(digest);
    copy[index]! ^= 0x01;
    return copy;
  };

  it('issue 40 item 6: compares digests in constant time with timingSafeEqual, wherever they differ', () => {
    expect(digestsMatch(digest, Buffer.from(digest))).toBe(true);
    expect(digestsMatch(digest, differingAt(0))).toBe(false);
    expect(digestsMatch(digest, differingAt(digest.length - 1))).toBe(false);
    expect(vi.mocked(crypto.timingSafeEqual)).toHaveBeenCalledTimes(3);
  });

  it('issue 40 item 6: refuses a digest of another length, or none, before comparing (timingSafeEqual would throw)', () => {
    expect(digestsMatch(digest, digest.subarray(0, 12))).toBe(false);
    expect(digestsMatch(digest, Buffer.concat([digest, Buffer.alloc(1)]))).toBe(false);
    expect(digestsMatch(Buffer.alloc(0), Buffer.alloc(0))).toBe(false);
    expect(vi.mocked(crypto.timingSafeEqual)).not.toHaveBeenCalled();
  });
});
