import { z } from 'zod';
import type { RawQuery } from '@dms/core';
import type { ShareScope } from '@dms/core/runtime';

/**
 * Input parsers that only give the client its types: the core validates every body itself
 * and answers with field details, so nothing is checked twice or differently here.
 */
export const typed =
  <T>() =>
  (value: unknown): T =>
    value as T;

/** What a client may send to a core schema: its input type, before the core's defaults. */
export type Input<Schema extends z.ZodType> = z.input<Schema>;

/** A resource addressed by id or name, as the core's `ref` takes it. */
export const ref = z.union([z.string(), z.number().int()]).transform(String);

/** List parameters as the REST query has them (`limit`, `page`, `sort_by`, filters …). */
export const listQuery = z
  .record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]))
  .optional()
  .transform((query): RawQuery => Object.fromEntries(Object.entries(query ?? {}).map(([key, value]) => [key, Array.isArray(value) ? value : [String(value)]])));

/** A parameter repeated, as REST takes `created_at=>=A&created_at=<=B` (a range): a few times at most, the core bounds the rest. */
const repeated = z.array(z.string()).min(1).max(4);

/**
 * A history's query (jobs, audit events) as the resource's list schema declares it: each
 * parameter a string as REST takes it, operator included (`status=working`,
 * `created_at=>2026-01-01T00:00:00Z`), or a few of them for a range; a name the schema lacks is
 * refused here, the values are parsed by the core.
 */
export function historyQuery(schema: z.ZodObject<Record<string, z.ZodOptional<z.ZodString>>>) {
  const names = Object.keys(schema.shape);
  return z
    .object(Object.fromEntries(names.map((name) => [name, z.union([z.string(), repeated]).optional()])))
    .strict()
    .optional()
    .transform((query): RawQuery =>
      Object.fromEntries(Object.entries(query ?? {}).flatMap(([key, value]) => (value === undefined ? [] : [[key, Array.isArray(value) ? value : [value]]]))),
    );
}

/** Which shares a call reaches: those of a NAS, of a pool, or all of them. */
export const shareScope = z
  .object({ nas: ref.optional(), pool: ref.optional() })
  .optional()
  .transform((scope): ShareScope => {
    if (scope?.nas !== undefined) return { kind: 'nas', nasRef: scope.nas };
    if (scope?.pool !== undefined) return { kind: 'pool', poolRef: scope.pool };
    return { kind: 'all' };
  });
