import { z } from 'zod';

export const corsMethods = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** `*`, an origin (`https://app.example.com:8443`) or a DNS name (any scheme and port). */
const originEntry = z
  .string()
  .max(255)
  .regex(/^(?:\*|https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?|\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+)$/, {
    message: 'must be *, an origin such as https://app.example.com or a DNS name',
  })
  // The opaque `null` origin is shared by sandboxed frames and file: pages: never allowed.
  .refine((entry) => entry.toLowerCase() !== 'null', { message: 'the null origin cannot be allowed' });

/** `*` or an absolute path with `*` wildcards, e.g. `/api/v2/nas_shares*`. */
const pathPattern = z.string().min(1).max(1024).regex(/^(?:\*|\/[^\s]*)$/, { message: 'must be * or a path starting with /' });

export const corsRuleCreateSchema = z.object({
  origins: z.array(originEntry).min(1).max(100),
  path: pathPattern.default('*'),
  methods: z.array(z.enum(corsMethods)).min(1).max(4),
});
// Not `corsRuleCreateSchema.partial()`: the path's default would reset an absent path to `*`.
export const corsRuleUpdateSchema = corsRuleCreateSchema.extend({ path: pathPattern }).partial();
export const corsRuleSchema = z
  .object({ id: z.number().int(), origins: z.array(z.string()), path: z.string(), methods: z.array(z.string()) })
  .meta({ id: 'cors_rule' });

export type CorsRule = z.output<typeof corsRuleSchema>;

function originMatches(entry: string, origin: string): boolean {
  if (entry === '*' || entry === origin) return true;
  if (entry.includes('://')) return false;
  try {
    return new URL(origin).hostname === entry;
  } catch {
    return false;
  }
}

function pathMatches(pattern: string, path: string): boolean {
  if (pattern === '*') return true;
  const expression = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${expression}$`).test(path);
}

/** The first rule that allows this origin, path and method, if any. */
export function findCorsRule<R extends Pick<CorsRule, 'origins' | 'path' | 'methods'>>(
  rules: readonly R[],
  origin: string,
  path: string,
  method: string,
): R | undefined {
  return rules.find(
    (rule) =>
      rule.methods.includes(method.toUpperCase()) &&
      pathMatches(rule.path, path) &&
      rule.origins.some((entry) => originMatches(entry, origin)),
  );
}
