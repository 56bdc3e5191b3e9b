import { respondJson } from '../http/respond.js';
import { loginRequestSchema, parseInput } from '@dms/core';
import { passwordCredential, type Core } from '@dms/core/runtime';
import type { OperationHandlers } from './route-table.js';
import { readJsonBody } from '../http/json-body.js';
import { crudHandlers, singletonHandlers } from './crud-routes.js';
import { rawQuery } from '../http/raw-query.js';

/** A login body holds a name and a password: nothing longer is read. */
const maxLoginBodyLength = 4096;

/** Handlers of contracts/auth-contracts.ts, admin-contracts.ts and audit-event-contracts.ts. */
export function adminHandlers(core: Core) {
  const settings = singletonHandlers(core.settings);
  const apiKeys = crudHandlers(core.apiKeys, 'api_key_id');
  const users = crudHandlers(core.users, 'user_id');
  const corsRules = crudHandlers(core.corsRules, 'cors_rule_id');
  return {
    login: async (c) => {
      const { username, password } = parseInput(loginRequestSchema, await readJsonBody(c, { maxLength: maxLoginBodyLength }));
      return respondJson(c, await core.access.login(c.get('loginRequest')(passwordCredential(username, password))));
    },
    showCurrentApiKey: async (c) => respondJson(c, await core.apiKeys.current(c.get('principal'))),
    showSettings: settings.show,
    updateSettings: settings.update,
    listApiKeys: apiKeys.list,
    createApiKey: apiKeys.create,
    showApiKey: apiKeys.show,
    updateApiKey: apiKeys.update,
    deleteApiKey: apiKeys.destroy,
    listUsers: users.list,
    createUser: users.create,
    showUser: users.show,
    updateUser: users.update,
    deleteUser: users.destroy,
    listCorsRules: corsRules.list,
    createCorsRule: corsRules.create,
    showCorsRule: corsRules.show,
    updateCorsRule: corsRules.update,
    deleteCorsRule: corsRules.destroy,
    listAuditEvents: async (c) => respondJson(c, await core.auditEvents.list(c.get('principal'), rawQuery(c))),
  } satisfies Partial<OperationHandlers>;
}
