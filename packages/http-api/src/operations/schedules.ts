import { scheduleCollectionSchema, scheduleCreateSchema, scheduleListSpec, scheduleSchema, scheduleUpdateSchema } from '@dms/core';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { crudOperations } from './crud-operations.js';
import { collectionExample, scheduleCreateExample, scheduleExample, scheduleUpdateExample } from '../contracts/examples.js';

/** How a rule is written and what dms does with it, said where a rule is sent. */
const ruleText =
  "`rrule` is RFC 5545 text: a `DTSTART` line, a newline, then an `RRULE` line. `DTSTART:20261125T120000Z` is a UTC start; `DTSTART;TZID=Europe/Paris:20261125T120000` is a local wall-clock time in that zone, daylight saving time included (no `Z`). Any `FREQ` is taken, `SECONDLY` and `MINUTELY` too. A rule the parser refuses is 422 on `rrule`, with the parser's reason (`DTSTART without a TZID must be UTC: end it with Z`, `RRULE: BYHOUR takes 0 to 23, not 25` …); so is one that matches no date at all.";

const targetRule =
  'Its target is exactly one of `nas_share_ids` (up to 1,000 share ids), `pool_id`, `nas_id` or `all_shares: true`; the other three may be absent, `null` or (`all_shares`) `false`, as a GET body shows them (422 on `target` otherwise; 422 `not_found` on a field naming a share, pool or NAS that does not exist); a pool, a NAS or all shares are read at each run, so shares added later are included.';

const runRules =
  'A run starts one ordinary job per share (`action` `test` or `scan`), requested by `scheduler` (see `GET /jobs` and the audit log), within the job queue bounds. Read-only: `next` is when the next run is due (UTC; null while disabled or once the rule has ended); `last_run_at` when the last one started; `skipped_count` counts runs not started because the previous run’s jobs were still going; `missed_count` counts occurrences that passed while dms was not running: they are counted, and the schedule runs once, not once per occurrence (and raises a `schedule_missed` alert). Across replicas on one PostgreSQL database each run fires exactly once.';

/** `/schedules` (docs/api.md#schedules): share tests and scans on an RFC 5545 rule. */
export const scheduleOperations = crudOperations({
  path: '/schedules',
  param: 'schedule_id',
  tag: 'schedules',
  controller: 'schedules',
  noun: 'schedule',
  query: listQueryParameters(scheduleListSpec),
  schemas: { item: scheduleSchema, collection: scheduleCollectionSchema, create: scheduleCreateSchema, update: scheduleUpdateSchema },
  examples: {
    item: scheduleExample,
    collection: collectionExample('schedules', scheduleExample),
    create: scheduleCreateExample,
    update: scheduleUpdateExample,
  },
  notes: {
    list: 'Filters on `id`, `name`, `action`, `enabled`, `pool_id`, `nas_id`, `next`, `last_run_at`, `missed_count` and `skipped_count` (`next` and `last_run_at` ISO 8601 UTC, with the compare operators: `next=<2025-01-16T00:00:00Z`).',
    create: `\`name\` (unique), \`action\`, a target and \`rrule\` are required; \`enabled\` defaults to true. ${targetRule} ${ruleText} ${runRules}`,
    show: `By id or name. ${runRules}`,
    update: `A body that names a target replaces the schedule's target (the other target fields are cleared); one with no target field keeps it, and a GET body can be sent back as it is. A new \`rrule\`, or \`enabled\` turned on again, plans \`next\` from now: what passed while it was off is not missed. ${ruleText}`,
    destroy: 'Jobs it already started go on.',
  },
  service: (core) => core.schedules,
  operations: {
    list: {
      operationId: 'listSchedules',
      sdkSample: `// The enabled schedules, the next one due first:
const { count, schedules } = await dms.schedules.list({
  filter: { enabled: eq(true) },
  sortBy: 'next',
});`,
    },
    create: {
      operationId: 'createSchedule',
      sdkSample: `// Scans the pool's shares every night at 02:00, Paris time:
const schedule = await dms.schedules.create({
  name: 'nightly-scan',
  action: 'scan',
  pool_id: 2,
  rrule: 'DTSTART;TZID=Europe/Paris:20250101T020000\\nRRULE:FREQ=DAILY',
});
console.log(schedule.next);`,
    },
    show: {
      operationId: 'showSchedule',
      sdkSample: `const schedule = await dms.schedules.get('nightly-scan');
console.log(schedule.next, schedule.missed_count, schedule.skipped_count);`,
    },
    update: { operationId: 'updateSchedule', sdkSample: `const schedule = await dms.schedules.update('nightly-scan', { enabled: false });` },
    destroy: { operationId: 'deleteSchedule', sdkSample: `await dms.schedules.delete('nightly-scan');` },
  },
});
