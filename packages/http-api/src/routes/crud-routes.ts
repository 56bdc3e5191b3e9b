import { respondEmpty, respondJson } from '../http/respond.js';
import type { Principal, RawQuery } from '@dms/core';
import type { RouteHandler } from '../pipeline/step.js';
import { readJsonBody } from '../http/json-body.js';
import { rawQuery } from '../http/raw-query.js';

export interface CrudService {
  list(principal: Principal, raw: RawQuery): Promise<object>;
  show(principal: Principal, ref: string): Promise<object>;
  create(principal: Principal, body: unknown): Promise<object>;
  update(principal: Principal, ref: string, body: unknown): Promise<object>;
  /** What a delete resolves (a pool's released shares, say) is not in its 204 answer. */
  destroy(principal: Principal, ref: string): Promise<unknown>;
}

export interface CrudHandlers {
  list: RouteHandler;
  create: RouteHandler;
  show: RouteHandler;
  update: RouteHandler;
  destroy: RouteHandler;
}

/** Handlers of crudContracts: `param` names the item's path parameter. */
export function crudHandlers(service: CrudService, param: string): CrudHandlers {
  return {
    list: async (c) => respondJson(c, await service.list(c.get('principal'), rawQuery(c))),
    create: async (c) => respondJson(c, await service.create(c.get('principal'), await readJsonBody(c)), 201),
    show: async (c) => respondJson(c, await service.show(c.get('principal'), c.req.param(param)!)),
    update: async (c) => respondJson(c, await service.update(c.get('principal'), c.req.param(param)!, await readJsonBody(c))),
    destroy: async (c) => {
      await service.destroy(c.get('principal'), c.req.param(param)!);
      return respondEmpty(c, 204);
    },
  };
}

export interface SingletonService {
  show(principal: Principal): Promise<object>;
  update(principal: Principal, body: unknown): Promise<object>;
}

/** Handlers of singletonContracts. */
export function singletonHandlers(service: SingletonService): { show: RouteHandler; update: RouteHandler } {
  return {
    show: async (c) => respondJson(c, await service.show(c.get('principal'))),
    update: async (c) => respondJson(c, await service.update(c.get('principal'), await readJsonBody(c))),
  };
}
