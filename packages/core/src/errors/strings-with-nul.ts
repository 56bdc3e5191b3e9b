import { hasNul } from '../domain/common.js';

/** Past this many, the body is refused for the ones found: a client fixes the first and resends. */
const listedAtMost = 20;

/**
 * Where a parsed JSON body holds a string with NUL, as paths (`['users', 0, 'name']`). Walked
 * with a stack rather than recursion, so a deeply nested body cannot overflow the call stack,
 * and stopped at the first `listedAtMost` finds.
 */
export function stringsWithNul(body: unknown): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: body, path: [] }];
  while (stack.length > 0 && found.length < listedAtMost) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (hasNul(value)) found.push(path);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: [...path, index] });
    } else if (typeof value === 'object' && value !== null) {
      // Pushed in reverse, so fields are reported in the order the client wrote them.
      for (const [key, inner] of Object.entries(value).reverse()) stack.push({ value: inner, path: [...path, key] });
    }
  }
  return found;
}
