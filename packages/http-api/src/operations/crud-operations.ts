import type { z } from 'zod';
import type { Principal, RawQuery } from '@dms/core';
import type { Core } from '@dms/core/runtime';
import { respondEmpty, respondJson } from '../http/respond.js';
import { readJsonBody } from '../http/json-body.js';
import { rawQuery } from '../http/raw-query.js';
import { defineOperation, type CrudController, type ErrorStatus, type Handle, type Operation, type SingletonController, type Tag } from './operation.js';

/** What the five generic operations of a resource call in the core. */
export interface CrudService {
  list(principal: Principal, raw: RawQuery): Promise<object>;
  show(principal: Principal, ref: string): Promise<object>;
  create(principal: Principal, body: unknown): Promise<object>;
  update(principal: Principal, ref: string, body: unknown): Promise<object>;
  /** What a delete resolves (a pool's released shares, say) is not in its 204 answer. */
  destroy(principal: Principal, ref: string): Promise<unknown>;
}

export interface SingletonService {
  show(principal: Principal): Promise<object>;
  update(principal: Principal, body: unknown): Promise<object>;
}

/** What each operation of a generic family declares itself: its id, its SDK sample, and a handler of its own if the generic one does not do. */
export interface OperationNaming<Id extends string = string> {
  readonly operationId: Id;
  readonly sdkSample: string;
  readonly handle?: Handle;
}

export type CrudAction = 'list' | 'create' | 'show' | 'update' | 'destroy';

export interface CrudResource<Ids extends Record<CrudAction, OperationNaming>> {
  /** Collection path below /api/v2, e.g. `/snmp/traps`. */
  path: string;
  param: string;
  tag: Tag;
  controller: CrudController;
  noun: string;
  /** The list's query parameters, derived from its ListSpec in the core. */
  query: z.ZodObject;
  /** `created` documents a 201 body that differs from `item` (an API key's one-time key). */
  schemas: { item: z.ZodType; created?: z.ZodType; collection: z.ZodType; create: z.ZodType; update: z.ZodType };
  /** Extra error statuses of destroy (409 for a NAS that still has shares). */
  destroyErrors?: readonly ErrorStatus[];
  /** Example bodies for the API reference; `collection` is the list answer. */
  examples: { item: unknown; created?: unknown; collection: unknown; create: unknown; update: unknown };
  /** Why the server refuses `examples.create` as it is, when it is a placeholder (a user's password is not published). */
  createRefused?: string;
  /** Said after each operation's generic description (what is special about this resource). */
  notes?: Partial<Record<CrudAction, string>>;
  /** The core's service the generic handlers call. */
  service: (core: Core) => CrudService;
  operations: Ids;
}

/** Joins a generic description with a resource's own note. */
function describe(text: string, note: string | undefined): string {
  return note ? `${text} ${note}` : text;
}

/**
 * "an API key", "a user", "a NAS": `an` before a vowel letter, but not before `u`, which our
 * nouns ("user") say as "you".
 */
function withArticle(noun: string): string {
  return /^[aeioAEIO]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** list / create / show / update / destroy of one resource, page/per_page lists. */
export function crudOperations<const Ids extends Record<CrudAction, OperationNaming>>(
  resource: CrudResource<Ids>,
): Operation<Ids[CrudAction]['operationId']>[] {
  const { path, param, tag, controller, noun, schemas, examples, notes = {}, service, operations } = resource;
  const item = `${path}/:${param}`;
  const ref = (c: Parameters<Handle>[0]) => c.req.param(param)!;
  const generic: Record<CrudAction, Handle> = {
    list: async (c, core) => respondJson(c, await service(core).list(c.get('principal'), rawQuery(c))),
    create: async (c, core) => respondJson(c, await service(core).create(c.get('principal'), await readJsonBody(c)), 201),
    show: async (c, core) => respondJson(c, await service(core).show(c.get('principal'), ref(c))),
    update: async (c, core) => respondJson(c, await service(core).update(c.get('principal'), ref(c), await readJsonBody(c))),
    destroy: async (c, core) => {
      await service(core).destroy(c.get('principal'), ref(c));
      return respondEmpty(c, 204);
    },
  };
  const named = (action: CrudAction) => ({
    operationId: operations[action].operationId,
    sdkSample: operations[action].sdkSample,
    handle: operations[action].handle ?? generic[action],
  });
  return [
    defineOperation({
      ...named('list'),
      method: 'get',
      path,
      tag,
      summary: `List ${noun}s`,
      description: describe(
        `One page of ${noun}s and \`count\`, the number of matches before paging. Takes \`limit\`/\`offset\` or \`page\`/\`per_page\`, \`sort_by\` and filters (see *Lists* in the introduction).`,
        notes.list,
      ),
      scope: { controller, action: 'index' },
      query: resource.query,
      success: { status: 200, description: `${noun} collection`, schema: schemas.collection, example: examples.collection },
    }),
    defineOperation({
      ...named('create'),
      method: 'post',
      path,
      tag,
      summary: `Create ${withArticle(noun)}`,
      description: describe(
        `Creates ${withArticle(noun)} and answers it. An unknown field is 422 (it names the closest known one); a taken unique name is 409.`,
        notes.create,
      ),
      scope: { controller, action: 'create' },
      body: schemas.create,
      bodyExample: examples.create,
      ...(resource.createRefused ? { bodyExampleRefused: resource.createRefused } : {}),
      success: { status: 201, description: noun, schema: schemas.created ?? schemas.item, example: examples.created ?? examples.item },
      errors: [409],
    }),
    defineOperation({
      ...named('show'),
      method: 'get',
      path: item,
      tag,
      summary: `Show ${withArticle(noun)}`,
      description: describe(`Answers one ${noun}, with an \`ETag\`: send it back in \`If-None-Match\` for a 304 while it is unchanged.`, notes.show),
      scope: { controller, action: 'show' },
      success: { status: 200, description: noun, schema: schemas.item, example: examples.item },
    }),
    defineOperation({
      ...named('update'),
      method: 'put',
      path: item,
      tag,
      summary: `Update ${withArticle(noun)} (partial)`,
      description: describe(
        `Changes the fields sent and keeps the others; \`null\` clears an optional field. Read-only fields are ignored, so a GET body can be sent back unchanged.`,
        notes.update,
      ),
      scope: { controller, action: 'update' },
      body: schemas.update,
      bodyExample: examples.update,
      success: { status: 200, description: noun, schema: schemas.item, example: examples.item },
      errors: [409],
    }),
    defineOperation({
      ...named('destroy'),
      method: 'delete',
      path: item,
      tag,
      summary: `Delete ${withArticle(noun)}`,
      description: describe(`Deletes the ${noun}; answers 204 without a body.`, notes.destroy),
      scope: { controller, action: 'destroy' },
      success: { status: 204, description: 'deleted' },
      errors: resource.destroyErrors ?? [],
    }),
  ];
}

export type SingletonAction = 'show' | 'update';

export interface SingletonResource<Ids extends Record<SingletonAction, OperationNaming>> {
  path: string;
  tag: Tag;
  controller: SingletonController;
  noun: string;
  schemas: { item: z.ZodType; update: z.ZodType };
  /** `update` is shown in the description as a change; the body example is empty (see below). */
  examples: { item: unknown; update: unknown };
  /** What the record is for, said in both operations' descriptions. */
  about: string;
  service: (core: Core) => SingletonService;
  operations: Ids;
}

/** show / update of a single record (the SNMP server configuration, the server settings). */
export function singletonOperations<const Ids extends Record<SingletonAction, OperationNaming>>(
  resource: SingletonResource<Ids>,
): Operation<Ids[SingletonAction]['operationId']>[] {
  const { path, tag, controller, noun, schemas, examples, about, service, operations } = resource;
  const generic: Record<SingletonAction, Handle> = {
    show: async (c, core) => respondJson(c, await service(core).show(c.get('principal'))),
    update: async (c, core) => respondJson(c, await service(core).update(c.get('principal'), await readJsonBody(c))),
  };
  const named = (action: SingletonAction) => ({
    operationId: operations[action].operationId,
    sdkSample: operations[action].sdkSample,
    handle: operations[action].handle ?? generic[action],
  });
  return [
    defineOperation({
      ...named('show'),
      method: 'get',
      path,
      tag,
      summary: `Show the ${noun}`,
      description: about,
      scope: { controller, action: 'show' },
      success: { status: 200, description: noun, schema: schemas.item, example: examples.item },
    }),
    defineOperation({
      ...named('update'),
      method: 'put',
      path,
      tag,
      summary: `Update the ${noun} (partial; applied at once)`,
      // The example body is empty: sent as it is from the reference page, it changes nothing
      // (a singleton has no id to make a placeholder of); the description shows a change.
      description: `${about} Changes the fields sent and keeps the others; the change applies at once. For instance \`${JSON.stringify(examples.update)}\`; the example body is empty, so that sending it unedited changes nothing.`,
      scope: { controller, action: 'update' },
      body: schemas.update,
      bodyExample: {},
      success: { status: 200, description: noun, schema: schemas.item, example: examples.item },
    }),
  ];
}
