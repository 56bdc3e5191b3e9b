import { respondJson } from '../http/respond.js';
import { z } from 'zod';
import {
  apiKeyCreateSchema,
  apiKeySchema,
  apiKeyUpdateSchema,
  corsRuleCreateSchema,
  corsRuleSchema,
  corsRuleUpdateSchema,
  scopeSchema,
  settingsSchema,
  settingsUpdateSchema,
  userCreateSchema,
  userUpdateSchema,
  type Core,
} from '@dms/core';
import type { RouteTable } from '../http/route-table.js';
import { readJsonBody } from '../http/json-body.js';
import { registerCrudRoutes, registerSingletonRoutes } from './crud-routes.js';

const userSchema = z.object({ id: z.number().int(), username: z.string(), admin: z.boolean(), created_at: z.string() }).meta({ id: 'user' });
const tokenSchema = z.object({ token: z.string(), expires_at: z.string() }).meta({ id: 'jwt_token' });
const loginSchema = z.object({ username: z.string(), password: z.string() });

/** The administration surface: settings, JWT login, API keys, users, CORS rules. */
export function registerAdminRoutes(routes: RouteTable, core: Core): void {
  registerSingletonRoutes(
    routes,
    { path: '/settings', tag: 'admin', controller: 'settings', noun: 'server settings (JWT mode)', schemas: { item: settingsSchema, update: settingsUpdateSchema } },
    core.settings,
  );
  routes.add({
    method: 'post',
    path: '/auth/login',
    tag: 'admin',
    summary: 'Log in with a user’s credentials and get a JWT (JWT mode only)',
    public: true,
    body: loginSchema,
    success: { status: 200, description: 'a signed token', schema: tokenSchema },
    errors: [422, 429],
    handler: async (c) => respondJson(c, await core.auth.login(await readJsonBody(c))),
  });
  routes.add({
    method: 'get',
    path: '/api_keys/current',
    tag: 'admin',
    summary: 'What the caller’s own credential may do',
    success: { status: 200, description: 'the caller', schema: z.object({ kind: z.string(), name: z.string(), api_key_scopes: z.array(scopeSchema) }) },
    handler: async (c) => respondJson(c, await core.apiKeys.current(c.get('principal'))),
  });
  const createKeyResponse = apiKeySchema.extend({ key: z.string().describe('the key itself, shown only in this response') });
  registerCrudRoutes(
    routes,
    {
      path: '/api_keys',
      param: 'api_key_id',
      tag: 'admin',
      controller: 'api_keys',
      noun: 'API key',
      filters: ['id', 'name'],
      schemas: { item: apiKeySchema, created: createKeyResponse, collection: z.object({ count: z.number().int(), api_keys: z.array(apiKeySchema) }), create: apiKeyCreateSchema, update: apiKeyUpdateSchema },
    },
    core.apiKeys,
  );
  registerCrudRoutes(
    routes,
    {
      path: '/users',
      param: 'user_id',
      tag: 'admin',
      controller: 'users',
      noun: 'user',
      filters: ['id', 'username'],
      schemas: { item: userSchema, collection: z.object({ count: z.number().int(), users: z.array(userSchema) }), create: userCreateSchema, update: userUpdateSchema },
      destroyErrors: [409],
    },
    core.users,
  );
  registerCrudRoutes(
    routes,
    {
      path: '/cors_rules',
      param: 'cors_rule_id',
      tag: 'admin',
      controller: 'cors_rules',
      noun: 'CORS rule',
      filters: ['id', 'path'],
      schemas: { item: corsRuleSchema, collection: z.object({ count: z.number().int(), cors_rules: z.array(corsRuleSchema) }), create: corsRuleCreateSchema, update: corsRuleUpdateSchema },
    },
    core.corsRules,
  );
}
