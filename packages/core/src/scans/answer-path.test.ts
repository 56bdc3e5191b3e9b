import { describe, expect, it } from 'vitest';
import { answerPath } from './answer-path.js';

const jsonBytes = (text: string) => new TextEncoder().encode(JSON.stringify(text)).length - 2;

describe('answerPath', () => {
  it('keeps a path of at most 600 JSON bytes whole', () => {
    const path = `/${'é'.repeat(299)}`;
    expect(jsonBytes(path)).toBe(599);
    expect(answerPath(path)).toBe(path);
  });

  it('cuts a longer path in the middle, keeping both ends, whole code points, and a hash that tells it apart', () => {
    const one = `/top/${'😀'.repeat(200)}/middle-one/${'\u0001'.repeat(100)}/name.txt`;
    const two = one.replace('middle-one', 'middle-two');
    const cutOne = answerPath(one);
    const cutTwo = answerPath(two);
    expect(jsonBytes(cutOne)).toBeLessThanOrEqual(600);
    expect(cutOne.startsWith('/top/😀')).toBe(true);
    expect(cutOne.endsWith('/name.txt')).toBe(true);
    expect(cutOne).toMatch(/…\([0-9a-f]{8}\)…/);
    expect(cutOne).not.toBe(cutTwo);
    expect(encodeURIComponent(cutOne)).toBeTypeOf('string'); // throws on a lone surrogate: code points were kept whole
  });
});
