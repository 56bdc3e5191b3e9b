import { z } from 'zod';

type Path = readonly PropertyKey[];

/** Strips the wrappers that do not change what a value must look like. */
export function unwrapField(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodDefault || current instanceof z.ZodPrefault) current = current.unwrap() as z.ZodType;
    else return current;
  }
}

/**
 * The schema that checked the value at `path` of an issue, so that a message can quote the
 * rule itself (its bounds, its fields): the issue alone holds only the side that failed.
 */
export function schemaAt(root: z.ZodType, path: Path): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (const key of path) {
    if (current === undefined) return undefined;
    const inner = unwrapField(current);
    if (inner instanceof z.ZodObject && typeof key === 'string') current = (inner.shape as Record<string, z.ZodType>)[key];
    else if (inner instanceof z.ZodArray && typeof key === 'number') current = inner.element as z.ZodType;
    else return undefined;
  }
  return current;
}

/** The field names an object schema at `path` knows, in their declared order. */
export function fieldsAt(root: z.ZodType, path: Path): string[] {
  const schema = schemaAt(root, path);
  const inner = schema === undefined ? undefined : unwrapField(schema);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}

/** A path as the API writes it in messages: `api_key_scopes[0].controller`. */
export function fieldLabel(path: Path): string {
  if (path.length === 0) return 'body';
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}

/** A path as `details` keys it (unchanged since v2.0: clients match on it): `nas_share_ids.0`. */
export function detailKey(path: Path): string {
  return path.length === 0 ? 'base' : path.map(String).join('.');
}
