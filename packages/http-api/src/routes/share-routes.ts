import { respondEmpty, respondJson } from '../http/respond.js';
import type { Context } from 'hono';
import { nasShareCollectionSchema, nasShareCreateSchema, nasShareSchema, nasShareUpdateSchema, type Core, type ShareScope } from '@dms/core';
import type { AppEnv } from '../http/env.js';
import type { RouteTable } from '../http/route-table.js';
import { readJsonBody } from '../http/json-body.js';
import { listQuerySchema } from '../http/openapi-schemas.js';
import { rawQuery } from '../http/raw-query.js';

type ScopeOf = (c: Context<AppEnv>) => ShareScope;

const families: Array<{ prefix: string; tag: string; scopeOf: ScopeOf; filters: string[] }> = [
  {
    prefix: '/nas/:nas_id/nas_shares',
    tag: 'nas_shares',
    scopeOf: (c) => ({ kind: 'nas', nasRef: c.req.param('nas_id')! }),
    filters: ['id', 'name', 'path', 'options', 'username', 'pool_id'],
  },
  {
    prefix: '/nas_shares',
    tag: 'nas_shares',
    scopeOf: () => ({ kind: 'all' }),
    filters: ['id', 'name', 'path', 'options', 'username', 'nas_id', 'pool_id'],
  },
  {
    prefix: '/pools/:pool_id/nas_shares',
    tag: 'nas_shares',
    scopeOf: (c) => ({ kind: 'pool', poolRef: c.req.param('pool_id')! }),
    filters: ['id', 'name', 'path', 'options', 'username', 'nas_id'],
  },
];

/** Endpoints 1, 2 and 5–15 of the spec: the three route families over one ShareService. */
export function registerShareRoutes(routes: RouteTable, core: Core): void {
  for (const { prefix, tag, scopeOf, filters } of families) {
    routes.add({
      method: 'get',
      path: prefix,
      tag,
      summary: 'List NAS shares',
      scope: 'nas_shares / index (password with nas_shares / get_password)',
      query: listQuerySchema(filters, 'limit_offset'),
      success: { status: 200, description: 'nas_share_collection', schema: nasShareCollectionSchema },
      errors: [404],
      handler: async (c) => respondJson(c, await core.shares.list(c.get('principal'), scopeOf(c), rawQuery(c))),
    });
    const item = `${prefix}/:nas_share_id`;
    routes.add({
      method: 'get',
      path: item,
      tag,
      summary: 'Show a NAS share',
      scope: 'nas_shares / show (password with nas_shares / get_password)',
      success: { status: 200, description: 'nas_share', schema: nasShareSchema },
      errors: [404],
      handler: async (c) => respondJson(c, await core.shares.show(c.get('principal'), scopeOf(c), c.req.param('nas_share_id')!)),
    });
    routes.add({
      method: 'put',
      path: item,
      tag,
      summary: 'Update a NAS share (partial)',
      scope: 'nas_shares / update',
      body: nasShareUpdateSchema,
      success: { status: 200, description: 'nas_share', schema: nasShareSchema },
      errors: [404, 409, 413, 422],
      handler: async (c) =>
        respondJson(c, await core.shares.update(c.get('principal'), scopeOf(c), c.req.param('nas_share_id')!, await readJsonBody(c))),
    });
    routes.add({
      method: 'delete',
      path: item,
      tag,
      summary: 'Delete a NAS share',
      scope: 'nas_shares / destroy',
      success: { status: 204, description: 'deleted' },
      errors: [404],
      handler: async (c) => {
        await core.shares.destroy(c.get('principal'), scopeOf(c), c.req.param('nas_share_id')!);
        return respondEmpty(c, 204);
      },
    });
  }
  routes.add({
    method: 'post',
    path: '/nas/:nas_id/nas_shares',
    tag: 'nas_shares',
    summary: 'Create a NAS share',
    scope: 'nas_shares / create',
    body: nasShareCreateSchema,
    success: { status: 201, description: 'nas_share', schema: nasShareSchema },
    errors: [404, 409, 413, 422],
    handler: async (c) => respondJson(c, await core.shares.create(c.get('principal'), c.req.param('nas_id')!, await readJsonBody(c)), 201),
  });
}
