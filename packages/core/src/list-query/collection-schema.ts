import { z } from 'zod';

export type CollectionShape<K extends string, T extends z.ZodType> = { count: z.ZodNumber } & { [P in K]: z.ZodArray<T> };

/** A list answer: `{ count, [key]: item[] }`, where count is the total before pagination. */
export function collectionSchema<K extends string, T extends z.ZodType>(key: K, item: T): z.ZodObject<CollectionShape<K, T>> {
  // A computed key widens to `string` in TypeScript; the cast restores the literal key.
  const shape = { count: z.number().int(), [key]: z.array(item) } as CollectionShape<K, T>;
  return z.object(shape);
}
