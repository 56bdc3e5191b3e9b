import { respondEmpty, respondJson } from '../http/respond.js';
import type { z } from 'zod';
import type { Principal, RawQuery } from '@dms/core';
import type { RouteTable } from '../http/route-table.js';
import { readJsonBody } from '../http/json-body.js';
import { listQuerySchema } from '../http/openapi-schemas.js';
import { rawQuery } from '../http/raw-query.js';

export interface CrudService {
  list(principal: Principal, raw: RawQuery): Promise<object>;
  show(principal: Principal, ref: string): Promise<object>;
  create(principal: Principal, body: unknown): Promise<object>;
  update(principal: Principal, ref: string, body: unknown): Promise<object>;
  destroy(principal: Principal, ref: string): Promise<void>;
}

export interface CrudResource {
  /** Collection path below /api/v2, e.g. `/snmp/traps`. */
  path: string;
  param: string;
  tag: string;
  controller: string;
  noun: string;
  filters: readonly string[];
  /** `created` documents a 201 body that differs from `item` (an API key's one-time key). */
  schemas: { item: z.ZodType; created?: z.ZodType; collection: z.ZodType; create: z.ZodType; update: z.ZodType };
  /** Extra error statuses of destroy (409 for a NAS that still has shares). */
  destroyErrors?: number[];
}

/** list/create/show/update/destroy of one resource, page/per_page lists. */
export function registerCrudRoutes(routes: RouteTable, resource: CrudResource, service: CrudService): void {
  const { path, param, tag, controller, noun, schemas } = resource;
  const item = `${path}/:${param}`;
  routes.add({
    method: 'get',
    path,
    tag,
    summary: `List ${noun}s`,
    scope: `${controller} / index`,
    query: listQuerySchema(resource.filters, 'page'),
    success: { status: 200, description: `${noun} collection`, schema: schemas.collection },
    handler: async (c) => respondJson(c, await service.list(c.get('principal'), rawQuery(c))),
  });
  routes.add({
    method: 'post',
    path,
    tag,
    summary: `Create a ${noun}`,
    scope: `${controller} / create`,
    body: schemas.create,
    success: { status: 201, description: noun, schema: schemas.created ?? schemas.item },
    errors: [409, 413, 422],
    handler: async (c) => respondJson(c, await service.create(c.get('principal'), await readJsonBody(c)), 201),
  });
  routes.add({
    method: 'get',
    path: item,
    tag,
    summary: `Show a ${noun}`,
    scope: `${controller} / show`,
    success: { status: 200, description: noun, schema: schemas.item },
    errors: [404],
    handler: async (c) => respondJson(c, await service.show(c.get('principal'), c.req.param(param)!)),
  });
  routes.add({
    method: 'put',
    path: item,
    tag,
    summary: `Update a ${noun} (partial)`,
    scope: `${controller} / update`,
    body: schemas.update,
    success: { status: 200, description: noun, schema: schemas.item },
    errors: [404, 409, 413, 422],
    handler: async (c) => respondJson(c, await service.update(c.get('principal'), c.req.param(param)!, await readJsonBody(c))),
  });
  routes.add({
    method: 'delete',
    path: item,
    tag,
    summary: `Delete a ${noun}`,
    scope: `${controller} / destroy`,
    success: { status: 204, description: 'deleted' },
    errors: [404, ...(resource.destroyErrors ?? [])],
    handler: async (c) => {
      await service.destroy(c.get('principal'), c.req.param(param)!);
      return respondEmpty(c, 204);
    },
  });
}

export interface SingletonService {
  show(principal: Principal): Promise<object>;
  update(principal: Principal, body: unknown): Promise<object>;
}

/** show/update of a single record (the SNMP server configuration, the server settings). */
export function registerSingletonRoutes(
  routes: RouteTable,
  resource: { path: string; tag: string; controller: string; noun: string; schemas: { item: z.ZodType; update: z.ZodType } },
  service: SingletonService,
): void {
  const { path, tag, controller, noun, schemas } = resource;
  routes.add({
    method: 'get',
    path,
    tag,
    summary: `Show the ${noun}`,
    scope: `${controller} / show`,
    success: { status: 200, description: noun, schema: schemas.item },
    handler: async (c) => respondJson(c, await service.show(c.get('principal'))),
  });
  routes.add({
    method: 'put',
    path,
    tag,
    summary: `Update the ${noun} (partial; applied at once)`,
    scope: `${controller} / update`,
    body: schemas.update,
    success: { status: 200, description: noun, schema: schemas.item },
    errors: [413, 422],
    handler: async (c) => respondJson(c, await service.update(c.get('principal'), await readJsonBody(c))),
  });
}
