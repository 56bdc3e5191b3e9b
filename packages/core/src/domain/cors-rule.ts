import { z } from 'zod';
import { compileGlob } from './glob-match.js';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';

export const corsMethods = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** `*`, an origin (`https://app.example.com:8443`) or a DNS name (any scheme and port). */
const originEntry = z
  .string()
  .max(255)
  .regex(/^(?:\*|https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?|\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+)$/, {
    message: 'must be *, an origin such as https://app.example.com or a DNS name',
  })
  // The opaque `null` origin is shared by sandboxed frames and file: pages: never allowed.
  .refine((entry) => entry.toLowerCase() !== 'null', { message: 'must not be null: sandboxed frames and file: pages all send that origin' });

/** `*` or an absolute path with `*` wildcards, e.g. `/api/v2/nas_shares*`. */
const pathPattern = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^(?:\*|\/[^\s]*)$/, { message: 'must be * or a path starting with /' });

const corsRuleFields = z.object({
  origins: z.array(originEntry).min(1).max(100),
  path: pathPattern.default('*'),
  methods: z.array(z.enum(corsMethods)).min(1).max(4),
});
const corsRuleReadOnly = { readOnly: ['id'] };
export const corsRuleCreateSchema = strictInput(corsRuleFields, corsRuleReadOnly);
// Not `corsRuleFields.partial()`: the path's default would reset an absent path to `*`.
export const corsRuleUpdateSchema = strictInput(corsRuleFields.extend({ path: pathPattern }).partial(), corsRuleReadOnly);
export const corsRuleSchema = z
  .object({ id: z.number().int(), origins: z.array(z.string()), path: z.string(), methods: z.array(z.string()) })
  .meta({ id: 'cors_rule' });

export const corsRuleCollectionSchema = collectionSchema('cors_rules', corsRuleSchema).meta({ id: 'cors_rule_collection' });

export type CorsRule = z.output<typeof corsRuleSchema>;

type CorsRuleFields = Pick<CorsRule, 'origins' | 'path' | 'methods'>;

/** Finds the first rule that allows this origin, path and method, if any. */
export type CorsRuleFinder<R> = (origin: string, path: string, method: string) => R | undefined;

/**
 * `scheme://host[:port]`, as a browser serialises a tuple origin. Not the opaque `null`
 * (sandboxed frames, file: pages, redirects: any page can send it, so allowing it, even
 * through `*`, would allow everyone), nor a list, a path or anything else a client made up.
 * The character classes are disjoint where they meet, so the test cannot backtrack.
 */
const serialisedOrigin = /^[a-z][a-z0-9+.-]*:\/\/(?:[^\x00-\x20\x7f/?#@:[\]\\%<>^|]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export function isSerialisedOrigin(origin: string): boolean {
  return serialisedOrigin.test(origin);
}

function hostnameOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname;
  } catch {
    return undefined;
  }
}

/** Does one entry of a rule's `origins` allow this (serialised) origin? */
function originMatches(entry: string, origin: string, hostname: () => string | undefined): boolean {
  if (entry === '*' || entry === origin) return true;
  if (entry.includes('://')) return false;
  return hostname() === entry;
}

/**
 * Compiles the rules once, when they are loaded: the path globs become linear-time
 * matchers (see glob-match.ts) instead of being rebuilt on every request with an Origin.
 */
export function compileCorsRules<R extends CorsRuleFields>(rules: readonly R[]): CorsRuleFinder<R> {
  const compiled = rules.map((rule) => ({ rule, methods: new Set(rule.methods), pathMatches: compileGlob(rule.path) }));
  return (origin, path, method) => {
    if (!isSerialisedOrigin(origin)) return undefined;
    const upperMethod = method.toUpperCase();
    let parsedHostname: { value: string | undefined } | undefined;
    // Parsed at most once, and only when a rule names a DNS name.
    const hostname = () => (parsedHostname ??= { value: hostnameOf(origin) }).value;
    return compiled.find(
      ({ rule, methods, pathMatches }) => methods.has(upperMethod) && pathMatches(path) && rule.origins.some((entry) => originMatches(entry, origin, hostname)),
    )?.rule;
  };
}

/** The first rule that allows this origin, path and method, if any. Compiles the rules on each call: cache `compileCorsRules` instead where they are reused. */
export function findCorsRule<R extends CorsRuleFields>(rules: readonly R[], origin: string, path: string, method: string): R | undefined {
  return compileCorsRules(rules)(origin, path, method);
}

// Lists: the attributes a list sorts and filters on, and the query parameters they give.
const { integer, string } = listFields;

// origins and methods are JSON lists in one column each: no sort or filter on them.
export const corsRuleListSpec: ListSpec = {
  fields: { id: integer, path: string },
  filterable: ['id', 'path'],
};
export const corsRuleListQuerySchema = listQuerySchema(corsRuleListSpec);
