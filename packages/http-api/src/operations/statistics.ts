import { capacityQuerySchema, capacitySchema } from '@dms/core';
import { respondJson } from '../http/respond.js';
import { rawQuery } from '../http/raw-query.js';
import { capacityExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';

/** The capacity summed from each share's scans (docs/decisions/090-health-scans-capacity.md). */
export const statisticsOperations = [
  defineOperation({
    operationId: 'showCapacity',
    sdkSample: `const capacity = await dms.statistics.capacity({ days: 90 });
console.log(capacity.totals.file_size_sum, capacity.totals.growth.file_size_sum);`,
    handle: async (c, core) => respondJson(c, await core.statistics.capacity(c.get('principal'), rawQuery(c))),
    method: 'get',
    path: '/statistics/capacity',
    tag: 'statistics',
    summary: 'Show capacity and its growth',
    description: `What dms has scanned, from each share's latest completed scan: \`totals\` over every share, then per NAS (\`nas\`, every NAS) and per pool (\`pools\`, every pool), each with \`file_count\`, \`file_size_sum\`, \`shares_scanned\` and \`shares_not_scanned\` (never scanned: not in the sums). \`growth\` is the change over the last \`days\` days (see the parameter; \`period_days\` in the answer), from \`since\` to now: for each scanned share, its latest scan minus its last scan at or before \`since\` (or, for a share first scanned within the period, its first scan), summed; so a share scanned once has grown by 0. Each group also sums the file systems its shares lie on, from each share's latest test or scan: \`capacity_bytes\`, \`free_bytes\` (what the shares' users may still write), \`used_percent\`, \`growth_bytes_per_day\` (the sum of the shares' forecasts, see \`capacity_forecast\` on a share) and \`days_until_full\` (\`free_bytes / growth_bytes_per_day\`, null when not growing). Shares of one NAS that reported the same size and free space lie on one file system and are counted once: \`shares_merged\` says how many were not added again, \`shares_with_capacity\` how many had a reading. A \`days\` that is not an integer in range, or any other parameter, is 400.`,
    scope: { controller: 'statistics', action: 'show' },
    query: capacityQuerySchema,
    success: { status: 200, description: 'capacity', schema: capacitySchema, example: capacityExample },
  }),
];
