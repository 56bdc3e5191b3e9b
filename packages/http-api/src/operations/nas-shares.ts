import type { Context } from 'hono';
import type { z } from 'zod';
import { nasShareCollectionSchema, nasShareCreateSchema, nasShareSchema, nasShareUpdateSchema, shareListSpecs, whenReady } from '@dms/core';
import type { ShareScope } from '@dms/core/runtime';
import type { AppEnv } from '../http/env.js';
import { respondEmpty, respondJson } from '../http/respond.js';
import { readJsonBody } from '../http/json-body.js';
import { rawQuery } from '../http/raw-query.js';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { collectionExample, nasShareCreateExample, nasShareExample, nasShareUpdateExample } from '../contracts/examples.js';
import { defineOperation, type Handle, type Operation } from './operation.js';
import type { OperationNaming } from './crud-operations.js';

/** Reading a share shows its password only with this scope too. */
const passwordNote = 'password with nas_shares / get_password';

type FamilyAction = 'list' | 'show' | 'update' | 'destroy';

interface Family<Ids extends Record<FamilyAction, OperationNaming>> {
  prefix: string;
  query: z.ZodObject;
  where: string;
  /** `list` and `item` tell the three families apart in summaries (the reference's sidebar lists them side by side). */
  list: string;
  item: string;
  /** Which shares the family's paths reach: the ShareService takes it on every call. */
  scopeOf: (c: Context<AppEnv>) => ShareScope;
  operations: Ids;
}

/** The three route families over one ShareService: under a NAS, everywhere, in a pool. */
const underNas = {
  prefix: '/nas/:nas_id/nas_shares',
  query: listQueryParameters(shareListSpecs.nas),
  where: 'of one NAS; a share of another NAS is 404 here',
  list: 'List the NAS shares of a NAS',
  item: ' under its NAS',
  scopeOf: (c) => ({ kind: 'nas', nasRef: c.req.param('nas_id')! }),
  operations: {
    list: {
      operationId: 'listNasSharesByNas',
      sdkSample: `const { count, nas_shares } = await dms.nasShares.list({
  nasId: 'nas1',
  filter: { name: like('proj%') },
  sortBy: 'name:desc',
  limit: 50,
});`,
    },
    show: { operationId: 'showNasShareByNas', sdkSample: `const share = await dms.nasShares.get('projects', { nasId: 'nas1' });` },
    update: {
      operationId: 'updateNasShareByNas',
      sdkSample: `const share = await dms.nasShares.update(
  'projects',
  { path: 'projects/2025' },
  { nasId: 'nas1' },
);`,
    },
    destroy: { operationId: 'deleteNasShareByNas', sdkSample: `await dms.nasShares.delete('projects', { nasId: 'nas1' });` },
  },
} as const satisfies Family<Record<FamilyAction, OperationNaming>>;

const everywhere = {
  prefix: '/nas_shares',
  query: listQueryParameters(shareListSpecs.all),
  where: 'of every NAS',
  list: 'List NAS shares',
  item: '',
  scopeOf: () => ({ kind: 'all' }),
  operations: {
    list: {
      operationId: 'listNasShares',
      sdkSample: `// Every share not in a pool, page after page:
const shares = dms.nasShares.listAll({
  filter: { pool_id: isNull(), id: gt(10) },
});
for await (const share of shares) {
  console.log(share.name, share.file_count);
}`,
    },
    show: { operationId: 'showNasShare', sdkSample: `const share = await dms.nasShares.get(7);` },
    update: { operationId: 'updateNasShare', sdkSample: `const share = await dms.nasShares.update(7, { options: 'domain=CORP', password: null });` },
    destroy: { operationId: 'deleteNasShare', sdkSample: `await dms.nasShares.delete(7);` },
  },
} as const satisfies Family<Record<FamilyAction, OperationNaming>>;

const inPool = {
  prefix: '/pools/:pool_id/nas_shares',
  query: listQueryParameters(shareListSpecs.pool),
  where: 'in one pool; a share outside it is 404 here',
  list: 'List the NAS shares of a pool',
  item: ' in its pool',
  scopeOf: (c) => ({ kind: 'pool', poolRef: c.req.param('pool_id')! }),
  operations: {
    list: {
      operationId: 'listNasSharesByPool',
      sdkSample: `const { count, nas_shares } = await dms.nasShares.list({
  poolId: 'projects',
  filter: { nas_id: inList([1, 2]) },
  limit: 20,
  offset: 40,
});`,
    },
    show: { operationId: 'showNasShareByPool', sdkSample: `const share = await dms.nasShares.get(7, { poolId: 'projects' });` },
    update: {
      operationId: 'updateNasShareByPool',
      sdkSample: `const share = await dms.nasShares.update(
  7,
  { name: 'projects-2024' },
  { poolId: 'projects' },
);`,
    },
    destroy: { operationId: 'deleteNasShareByPool', sdkSample: `await dms.nasShares.delete(7, { poolId: 'projects' });` },
  },
} as const satisfies Family<Record<FamilyAction, OperationNaming>>;

const passwordRule =
  '`password` is in the answer only for a principal holding `nas_shares / get_password` (a user always does; a key only through a literal `get_password` action).';

function familyOperations<const Ids extends Record<FamilyAction, OperationNaming>>({
  prefix,
  query,
  where,
  list,
  item: inScope,
  scopeOf,
  operations,
}: Family<Ids>): Operation<Ids[FamilyAction]['operationId']>[] {
  const item = `${prefix}/:nas_share_id`;
  const ref = (c: Context<AppEnv>) => c.req.param('nas_share_id')!;
  const handles: Record<FamilyAction, Handle> = {
    list: async (c, core) => respondJson(c, await core.shares.list(c.get('principal'), scopeOf(c), rawQuery(c))),
    show: (c, core) => whenReady(core.shares.show(c.get('principal'), scopeOf(c), ref(c)), (share) => respondJson(c, share)),
    update: async (c, core) => respondJson(c, await core.shares.update(c.get('principal'), scopeOf(c), ref(c), await readJsonBody(c))),
    destroy: async (c, core) => {
      await core.shares.destroy(c.get('principal'), scopeOf(c), ref(c));
      return respondEmpty(c, 204);
    },
  };
  const named = (action: FamilyAction) => ({ ...operations[action], handle: handles[action] });
  return [
    defineOperation({
      ...named('list'),
      method: 'get',
      path: prefix,
      tag: 'nas_shares',
      summary: list,
      description: `The shares ${where}: one page and \`count\`, the number of matches before paging. Takes \`limit\`/\`offset\` (or \`page\`/\`per_page\`), \`sort_by=name:desc|id\` and filters such as \`name=~proj%\` (see *Lists* in the introduction). ${passwordRule}`,
      scope: { controller: 'nas_shares', action: 'index', note: passwordNote },
      query,
      success: {
        status: 200,
        description: 'nas_share_collection',
        schema: nasShareCollectionSchema,
        example: collectionExample('nas_shares', nasShareExample),
      },
    }),
    defineOperation({
      ...named('show'),
      method: 'get',
      path: item,
      tag: 'nas_shares',
      summary: `Show a NAS share${inScope}`,
      description: `One share ${where}, by id or name. ${passwordRule}`,
      scope: { controller: 'nas_shares', action: 'show', note: passwordNote },
      success: { status: 200, description: 'nas_share', schema: nasShareSchema, example: nasShareExample },
    }),
    defineOperation({
      ...named('update'),
      method: 'put',
      path: item,
      tag: 'nas_shares',
      summary: `Update a NAS share${inScope} (partial)`,
      description: `Changes the fields sent of a share ${where}; \`null\` clears an optional field, read-only fields are ignored. Changing where it connects (\`path\`, \`options\`, \`username\`) without \`nas_shares / get_password\` forgets the stored password.`,
      scope: { controller: 'nas_shares', action: 'update' },
      body: nasShareUpdateSchema,
      bodyExample: nasShareUpdateExample,
      success: { status: 200, description: 'nas_share', schema: nasShareSchema, example: nasShareExample },
      errors: [409],
    }),
    defineOperation({
      ...named('destroy'),
      method: 'delete',
      path: item,
      tag: 'nas_shares',
      summary: `Delete a NAS share${inScope}`,
      description: `Deletes a share ${where}; answers 204 without a body.`,
      scope: { controller: 'nas_shares', action: 'destroy' },
      success: { status: 204, description: 'deleted' },
    }),
  ];
}

/** NAS shares under a NAS, everywhere and in a pool, then the creation of one under its NAS. */
export const nasShareOperations = [
  ...familyOperations(underNas),
  ...familyOperations(everywhere),
  ...familyOperations(inPool),
  defineOperation({
    operationId: 'createNasShare',
    sdkSample: `const share = await dms.nasShares.create('nas1', {
  name: 'projects',
  path: 'projects/2024',
  username: 'backup',
  password: 's3cret',
});`,
    handle: async (c, core) => respondJson(c, await core.shares.create(c.get('principal'), c.req.param('nas_id')!, await readJsonBody(c)), 201),
    method: 'post',
    path: '/nas/:nas_id/nas_shares',
    tag: 'nas_shares',
    summary: 'Create a NAS share',
    description:
      '`name` (1–255, unique within the NAS) and `path` (1–4096) are required; `options` is a comma-separated list of `key` or `key=value` mount options (`port=`, `domain=` …). `file_count` and `file_size_sum` start at 0 and are set by scans.',
    scope: { controller: 'nas_shares', action: 'create' },
    body: nasShareCreateSchema,
    bodyExample: nasShareCreateExample,
    success: { status: 201, description: 'nas_share', schema: nasShareSchema, example: nasShareExample },
    errors: [409],
  }),
];
