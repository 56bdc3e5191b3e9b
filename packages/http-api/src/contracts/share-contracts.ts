import { nasShareCollectionSchema, nasShareCreateSchema, nasShareSchema, nasShareUpdateSchema, shareListSpecs } from '@dms/core';
import { listQueryParameters } from './list-query-parameters.js';
import type { z } from 'zod';
import { defineContract, type RouteContract } from './route-contract.js';
import { collectionExample, nasShareCreateExample, nasShareExample, nasShareUpdateExample } from './examples.js';

/** Reading a share shows its password only with this scope too. */
const passwordNote = 'password with nas_shares / get_password';

/** The three route families over one ShareService: under a NAS, everywhere, in a pool. */
/** `list` and `item` tell the three families apart in summaries (the reference's sidebar lists them side by side). */
const families: ReadonlyArray<{ prefix: string; query: z.ZodObject; where: string; list: string; item: string }> = [
  {
    prefix: '/nas/:nas_id/nas_shares',
    query: listQueryParameters(shareListSpecs.nas),
    where: 'of one NAS; a share of another NAS is 404 here',
    list: 'List the NAS shares of a NAS',
    item: ' under its NAS',
  },
  { prefix: '/nas_shares', query: listQueryParameters(shareListSpecs.all), where: 'of every NAS', list: 'List NAS shares', item: '' },
  {
    prefix: '/pools/:pool_id/nas_shares',
    query: listQueryParameters(shareListSpecs.pool),
    where: 'in one pool; a share outside it is 404 here',
    list: 'List the NAS shares of a pool',
    item: ' in its pool',
  },
];

const passwordRule =
  '`password` is in the answer only for a principal holding `nas_shares / get_password` (a user always does; a key only through a literal `get_password` action).';

function familyContracts({ prefix, query, where, list, item: inScope }: (typeof families)[number]): RouteContract[] {
  const item = `${prefix}/:nas_share_id`;
  return [
    defineContract({
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
    defineContract({
      method: 'get',
      path: item,
      tag: 'nas_shares',
      summary: `Show a NAS share${inScope}`,
      description: `One share ${where}, by id or name. ${passwordRule}`,
      scope: { controller: 'nas_shares', action: 'show', note: passwordNote },
      success: { status: 200, description: 'nas_share', schema: nasShareSchema, example: nasShareExample },
    }),
    defineContract({
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
    defineContract({
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

/** Spec endpoints 1, 2 and 5–15. */
export const shareContracts: readonly RouteContract[] = [
  ...families.flatMap(familyContracts),
  defineContract({
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
