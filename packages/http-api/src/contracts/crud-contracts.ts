import type { z } from 'zod';
import { defineContract, type ErrorStatus, type RouteContract, type Tag } from './route-contract.js';

export interface CrudResource {
  /** Collection path below /api/v2, e.g. `/snmp/traps`. */
  path: string;
  param: string;
  tag: Tag;
  controller: string;
  noun: string;
  /** The list's query parameters, derived from its ListSpec in the core. */
  query: z.ZodObject;
  /** `created` documents a 201 body that differs from `item` (an API key's one-time key). */
  schemas: { item: z.ZodType; created?: z.ZodType; collection: z.ZodType; create: z.ZodType; update: z.ZodType };
  /** Extra error statuses of destroy (409 for a NAS that still has shares). */
  destroyErrors?: readonly ErrorStatus[];
}

/** list / create / show / update / destroy of one resource, page/per_page lists. */
export function crudContracts(resource: CrudResource): readonly RouteContract[] {
  const { path, param, tag, controller, noun, schemas } = resource;
  const item = `${path}/:${param}`;
  return [
    defineContract({
      method: 'get',
      path,
      tag,
      summary: `List ${noun}s`,
      scope: { controller, action: 'index' },
      query: resource.query,
      success: { status: 200, description: `${noun} collection`, schema: schemas.collection },
    }),
    defineContract({
      method: 'post',
      path,
      tag,
      summary: `Create a ${noun}`,
      scope: { controller, action: 'create' },
      body: schemas.create,
      success: { status: 201, description: noun, schema: schemas.created ?? schemas.item },
      errors: [409, 413, 422],
    }),
    defineContract({
      method: 'get',
      path: item,
      tag,
      summary: `Show a ${noun}`,
      scope: { controller, action: 'show' },
      success: { status: 200, description: noun, schema: schemas.item },
      errors: [404],
    }),
    defineContract({
      method: 'put',
      path: item,
      tag,
      summary: `Update a ${noun} (partial)`,
      scope: { controller, action: 'update' },
      body: schemas.update,
      success: { status: 200, description: noun, schema: schemas.item },
      errors: [404, 409, 413, 422],
    }),
    defineContract({
      method: 'delete',
      path: item,
      tag,
      summary: `Delete a ${noun}`,
      scope: { controller, action: 'destroy' },
      success: { status: 204, description: 'deleted' },
      errors: [404, ...(resource.destroyErrors ?? [])],
    }),
  ];
}

export interface SingletonResource {
  path: string;
  tag: Tag;
  controller: string;
  noun: string;
  schemas: { item: z.ZodType; update: z.ZodType };
}

/** show / update of a single record (the SNMP server configuration, the server settings). */
export function singletonContracts(resource: SingletonResource): readonly RouteContract[] {
  const { path, tag, controller, noun, schemas } = resource;
  return [
    defineContract({
      method: 'get',
      path,
      tag,
      summary: `Show the ${noun}`,
      scope: { controller, action: 'show' },
      success: { status: 200, description: noun, schema: schemas.item },
    }),
    defineContract({
      method: 'put',
      path,
      tag,
      summary: `Update the ${noun} (partial; applied at once)`,
      scope: { controller, action: 'update' },
      body: schemas.update,
      success: { status: 200, description: noun, schema: schemas.item },
      errors: [413, 422],
    }),
  ];
}
