import { z } from 'zod';

/** A scope names what a credential may do: a controller (a resource) and an action on it. */
const scopeToken = z.string().regex(/^(?:\*|[a-z][a-z_]{0,63})$/, { message: 'must be * or a lower-case name' });
export const scopeSchema = z.object({ controller: scopeToken, action: scopeToken });
export type Scope = z.output<typeof scopeSchema>;

export function parseScopeText(text: string): Scope | undefined {
  const [controller, action, ...rest] = text.split('/').map((part) => part.trim());
  if (rest.length > 0 || controller === undefined || action === undefined) return undefined;
  const parsed = scopeSchema.safeParse({ controller, action });
  return parsed.success ? parsed.data : undefined;
}

export function formatScope(scope: Scope): string {
  return `${scope.controller} / ${scope.action}`;
}
