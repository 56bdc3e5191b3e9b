import { sessionCollectionSchema, sessionListSpec } from '@dms/core';
import { respondEmpty, respondJson } from '../http/respond.js';
import { rawQuery } from '../http/raw-query.js';
import { defineOperation } from './operation.js';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { collectionExample, sessionExample } from '../contracts/examples.js';

const who =
  'A user sees and ends its own sessions; an admin user (or a key of an admin holding `users / index`, `users / update`) anyone’s. Each JWT login and console sign-in is a session (docs/decisions/179-sessions.md).';

/** `/sessions` (docs/api.md#sessions): signed-in sessions, and ending one. */
export const sessionOperations = [
  defineOperation({
    operationId: 'listSessions',
    sdkSample: `const { count, sessions } = await dms.sessions.list();`,
    handle: async (c, core) => respondJson(c, await core.sessions.list(c.get('principal'), rawQuery(c))),
    method: 'get',
    path: '/sessions',
    tag: 'admin',
    summary: 'List signed-in sessions',
    description: `${who} Live sessions only: \`created_at\`, \`last_used_at\` (written at most once a minute), \`expires_at\`, \`user_agent\`, \`ip\`. Filters on \`user_id\`, \`created_at\` and \`last_used_at\`.`,
    scope: { controller: 'users', action: 'index', note: 'for everyone’s; a user lists its own without it' },
    query: listQueryParameters(sessionListSpec),
    success: { status: 200, description: 'sessions', schema: sessionCollectionSchema, example: collectionExample('sessions', sessionExample) },
  }),
  defineOperation({
    operationId: 'deleteSession',
    sdkSample: `await dms.sessions.delete('q7C1nB0cXz4w2Jm9dLk3Ug');`,
    handle: async (c, core) => {
      await core.sessions.revoke(c.get('principal'), c.req.param('session_id')!);
      return respondEmpty(c, 204);
    },
    method: 'delete',
    path: '/sessions/:session_id',
    tag: 'admin',
    summary: 'End a session',
    description: `${who} Its token (or console sign-in) is refused from its next request on, on every replica. Audited as \`session_revoked\`. Another user's session is 404 to a non-admin.`,
    scope: { controller: 'users', action: 'update', note: 'for anyone’s; a user ends its own without it' },
    success: { status: 204, description: 'the session is ended' },
  }),
];
