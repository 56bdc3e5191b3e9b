import { maxAnswerPathBytes } from '../domain/scan-analytics.js';

const encoder = new TextEncoder();

/** FNV-1a over UTF-16 units, 8 hex digits: tells apart long paths whose ends agree. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** UTF-8 bytes of a text's JSON form without its quotes (a control character costs 6). */
function jsonBytes(text: string): number {
  return encoder.encode(JSON.stringify(text)).length - 2;
}

/** Code points from one end whose JSON form fits `budget` bytes. */
function takeWithin(codePoints: readonly string[], budget: number): string[] {
  const taken: string[] = [];
  let used = 0;
  for (const codePoint of codePoints) {
    const cost = jsonBytes(codePoint);
    if (used + cost > budget) break;
    taken.push(codePoint);
    used += cost;
  }
  return taken;
}

/**
 * A path as an answer carries it (decision 155): whole when its JSON form is at most 600 bytes;
 * otherwise its beginning and its end (the share's top directories and the file's name) around
 * `…(h)…`, h being 8 hex digits of a hash of the whole path so that two long paths with the same
 * ends stay apart, in at most 600 bytes. This bounds a scan's stored analytics whatever names a
 * share holds.
 */
export function answerPath(path: string, maxBytes: number = maxAnswerPathBytes): string {
  if (path.length * 6 <= maxBytes || jsonBytes(path) <= maxBytes) return path;
  const codePoints = [...path];
  const marker = `…(${shortHash(path)})…`;
  const half = Math.floor((maxBytes - jsonBytes(marker)) / 2);
  const head = takeWithin(codePoints, half);
  const tail = takeWithin(codePoints.slice(head.length).reverse(), half).reverse();
  return head.join('') + marker + tail.join('');
}
