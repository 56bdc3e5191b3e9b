import { silenceCollectionSchema, silenceCreateSchema, silenceListSpec, silenceSchema, silenceUpdateSchema } from '@dms/core';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { collectionExample, silenceCreateExample, silenceExample, silenceUpdateExample } from '../contracts/examples.js';
import { crudOperations } from './crud-operations.js';

const changedByAdmins =
  'Changed by admins only (an admin user, or an API key with the scope whose creator is an admin): a silence mutes what every channel is told.';

const when =
  '`matchers` names at least one of `source`, `resource_type`, `resource_id`, `nas_id` (alerts about that NAS or a share on it), `pool_id` (that pool or a share in it) and `max_level` (alerts at or below it); an alert matches when every one named matches. Exactly one of `ends_at` (after `starts_at`, which is now when left out), `rrule` with `duration_seconds` (a maintenance window at each occurrence: RFC 5545 `DTSTART` and `RRULE` lines as schedules take them, occurrences no closer than a window lasts) and `until_cleared` (ends when an alert it matches clears). While a silence holds, the alerts it matches are raised and listed (`silenced`: true) but their raise, change and clear are sent to no channel and as no trap; once it is over, an alert still open is told once, as `alert.raised`.';

/** `/silences` (docs/api.md#silences): alerts raised and listed, but not told, for a while. */
export const silenceOperations = crudOperations({
  path: '/silences',
  param: 'silence_id',
  tag: 'alerts',
  controller: 'silences',
  noun: 'silence',
  query: listQueryParameters(silenceListSpec),
  schemas: { item: silenceSchema, collection: silenceCollectionSchema, create: silenceCreateSchema, update: silenceUpdateSchema },
  examples: {
    item: silenceExample,
    collection: collectionExample('silences', silenceExample),
    create: silenceCreateExample,
    update: silenceUpdateExample,
  },
  notes: {
    list: 'Newest first. Filters on `id`, `starts_at`, `ends_at`, `until_cleared`, `created_by`, `window_starts_at`, `window_ends_at` and `created_at`; `active` says whether it holds now.',
    create: `${changedByAdmins} ${when} \`created_by\` is the id of the user who made it (an API key's owner).`,
    show: 'By id.',
    update: `${changedByAdmins} What is sent replaces what is stored and the whole is checked again: to move from \`ends_at\` to an \`rrule\`, send \`"ends_at": null\` with it. A silence that has ended for good is 409: make another.`,
    destroy: `${changedByAdmins} It ends at once: an alert it held that is still open is told once.`,
  },
  service: (core) => core.silences,
  operations: {
    list: { operationId: 'listSilences', sdkSample: `const { count, silences } = await dms.silences.list({ filter: { until_cleared: false } });` },
    create: {
      operationId: 'createSilence',
      sdkSample: `const silence = await dms.silences.create({
  matchers: { nas_id: 3 },
  ends_at: '2026-12-01T06:00:00Z',
  reason: 'replacing the NAS controller',
});`,
    },
    show: { operationId: 'showSilence', sdkSample: `const silence = await dms.silences.get(12);` },
    update: { operationId: 'updateSilence', sdkSample: `const silence = await dms.silences.update(12, { ends_at: '2026-12-01T08:00:00Z' });` },
    destroy: { operationId: 'deleteSilence', sdkSample: `await dms.silences.delete(12);` },
  },
});
