/** NUL: no stored text holds one, and PostgreSQL refuses it in text parameters (an error, not a miss). */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

/** Past this many, the body is refused for the ones found: a client fixes the first and resends. */
const listedAtMost = 20;

/** A value met in the walk, linked to its container so a path is only built for what is found. */
interface Step {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Step | undefined;
}

function pathOf(step: Step): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Where a parsed JSON body holds a string with NUL, as paths (`['users', 0, 'name']`). Linear
 * in the body's size however deep it nests: a stack rather than recursion (no stack overflow),
 * parent links rather than a copied path per value, and stopped at the first `listedAtMost` finds.
 */
export function stringsWithNul(body: unknown): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  const stack: Step[] = [{ value: body, key: undefined, parent: undefined }];
  while (stack.length > 0 && found.length < listedAtMost) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === 'string') {
      if (hasNul(value)) found.push(pathOf(step));
    } else if (Array.isArray(value)) {
      // Pushed in reverse, so finds come in the order the client wrote them.
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], key: index, parent: step });
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index--) stack.push({ value: entries[index]![1], key: entries[index]![0], parent: step });
    }
  }
  return found;
}
