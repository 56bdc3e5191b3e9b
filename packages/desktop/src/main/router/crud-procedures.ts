import { z } from 'zod';
import type { Principal, RawQuery } from '@dms/core';
import type { Core } from '@dms/core/runtime';
import { userProcedure } from '../trpc.js';
import { listQuery, ref } from './inputs.js';

/** A core service with the five calls of a collection: the same calls http-api's crudHandlers serves. */
export interface CrudService<List, Item, Created> {
  list(principal: Principal, raw: RawQuery): Promise<List>;
  show(principal: Principal, ref: string): Promise<Item>;
  create(principal: Principal, body: unknown): Promise<Created>;
  update(principal: Principal, ref: string, body: unknown): Promise<Item>;
  /** What a delete resolves (a pool's released shares, say) is a resource's own procedure's to answer. */
  destroy(principal: Principal, ref: string): Promise<unknown>;
}

export interface CrudOptions<Key extends string, List, Item, Created, CreateBody, UpdateSchema extends z.ZodType> {
  service: (core: Core) => CrudService<List, Item, Created>;
  /** The input field that names one item, by id or name (`{ nas: 'filer' }`). */
  key: Key;
  /**
   * The bodies' types, as parsers that check nothing (`typed<…>()`, `z.custom<…>()`): the core
   * validates every body itself and answers with field details.
   */
  create: (body: unknown) => CreateBody;
  update: UpdateSchema;
}

/**
 * `{ [key]: id or name }` as the client sends it, and what the resolvers read: the ref alone.
 * Typed by hand, as what they are: zod cannot compute an object's type from a key that is still
 * a type parameter.
 */
type ItemInput<Key extends string> = z.ZodType<{ ref: string }, Record<Key, string | number>>;
type ItemBodyInput<Key extends string, Body extends z.ZodType> = z.ZodType<
  { ref: string; body: z.output<Body> },
  Record<Key, string | number> & { body: z.input<Body> }
>;

const itemInput = <Key extends string>(key: Key) => z.object({ [key]: ref }).transform((input) => ({ ref: input[key] as string })) as unknown as ItemInput<Key>;
const itemBodyInput = <Key extends string, Body extends z.ZodType>(key: Key, body: Body) =>
  z.object({ [key]: ref, body }).transform((input) => ({ ref: input[key] as string, body: input.body as z.output<Body> })) as unknown as ItemBodyInput<
    Key,
    Body
  >;

/**
 * list, show, create, update and delete of one core service, each as the signed-in user:
 * spread into a router beside the resource's own procedures (a trap's test, say).
 */
export function crudProcedures<Key extends string, List, Item, Created, CreateBody, UpdateSchema extends z.ZodType>(
  options: CrudOptions<Key, List, Item, Created, CreateBody, UpdateSchema>,
) {
  const { service, key } = options;
  const one = itemInput(key);
  return {
    list: userProcedure.input(listQuery).query(({ ctx, input }) => service(ctx.core).list(ctx.principal, input)),
    show: userProcedure.input(one).query(({ ctx, input }) => service(ctx.core).show(ctx.principal, input.ref)),
    create: userProcedure.input(options.create).mutation(({ ctx, input }) => service(ctx.core).create(ctx.principal, input)),
    update: userProcedure
      .input(itemBodyInput(key, options.update))
      .mutation(({ ctx, input }) => service(ctx.core).update(ctx.principal, input.ref, input.body)),
    delete: userProcedure.input(one).mutation(async ({ ctx, input }) => {
      await service(ctx.core).destroy(ctx.principal, input.ref);
    }),
  };
}
