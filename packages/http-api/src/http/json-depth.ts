/** Deepest nesting of arrays and objects accepted in a request body; dms bodies need 3. */
export const maxJsonDepth = 32;

const openBrace = 0x7b;
const openBracket = 0x5b;
const closeBrace = 0x7d;
const closeBracket = 0x5d;
const quote = 0x22;
const backslash = 0x5c;

/**
 * Whether JSON text nests deeper than `limit`, found in one pass over its characters before
 * JSON.parse builds anything: a body of a million brackets costs this loop, not a parse that
 * holds the event loop. Malformed text is left for JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, limit: number = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === backslash) i++;
      else if (code === quote) inString = false;
    } else if (code === quote) {
      inString = true;
    } else if (code === openBrace || code === openBracket) {
      if (++depth > limit) return true;
    } else if (code === closeBrace || code === closeBracket) {
      depth--;
    }
  }
  return false;
}
