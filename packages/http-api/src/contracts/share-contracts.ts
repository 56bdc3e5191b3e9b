import { nasShareCollectionSchema, nasShareCreateSchema, nasShareSchema, nasShareUpdateSchema, shareListQuerySchemas } from '@dms/core';
import type { z } from 'zod';
import { defineContract, type RouteContract } from './route-contract.js';

/** Reading a share shows its password only with this scope too. */
const passwordNote = 'password with nas_shares / get_password';

/** The three route families over one ShareService: under a NAS, everywhere, in a pool. */
const families: ReadonlyArray<{ prefix: string; query: z.ZodObject }> = [
  { prefix: '/nas/:nas_id/nas_shares', query: shareListQuerySchemas.nas },
  { prefix: '/nas_shares', query: shareListQuerySchemas.all },
  { prefix: '/pools/:pool_id/nas_shares', query: shareListQuerySchemas.pool },
];

function familyContracts(prefix: string, query: z.ZodObject): RouteContract[] {
  const item = `${prefix}/:nas_share_id`;
  return [
    defineContract({
      method: 'get',
      path: prefix,
      tag: 'nas_shares',
      summary: 'List NAS shares',
      scope: { controller: 'nas_shares', action: 'index', note: passwordNote },
      query,
      success: { status: 200, description: 'nas_share_collection', schema: nasShareCollectionSchema },
      errors: [404],
    }),
    defineContract({
      method: 'get',
      path: item,
      tag: 'nas_shares',
      summary: 'Show a NAS share',
      scope: { controller: 'nas_shares', action: 'show', note: passwordNote },
      success: { status: 200, description: 'nas_share', schema: nasShareSchema },
      errors: [404],
    }),
    defineContract({
      method: 'put',
      path: item,
      tag: 'nas_shares',
      summary: 'Update a NAS share (partial)',
      scope: { controller: 'nas_shares', action: 'update' },
      body: nasShareUpdateSchema,
      success: { status: 200, description: 'nas_share', schema: nasShareSchema },
      errors: [404, 409, 413, 422],
    }),
    defineContract({
      method: 'delete',
      path: item,
      tag: 'nas_shares',
      summary: 'Delete a NAS share',
      scope: { controller: 'nas_shares', action: 'destroy' },
      success: { status: 204, description: 'deleted' },
      errors: [404],
    }),
  ];
}

/** Spec endpoints 1, 2 and 5–15. */
export const shareContracts: readonly RouteContract[] = [
  ...families.flatMap(({ prefix, query }) => familyContracts(prefix, query)),
  defineContract({
    method: 'post',
    path: '/nas/:nas_id/nas_shares',
    tag: 'nas_shares',
    summary: 'Create a NAS share',
    scope: { controller: 'nas_shares', action: 'create' },
    body: nasShareCreateSchema,
    success: { status: 201, description: 'nas_share', schema: nasShareSchema },
    errors: [404, 409, 413, 422],
  }),
];
