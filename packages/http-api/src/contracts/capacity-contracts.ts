import { capacityQuerySchema, capacitySchema, shareScanCollectionSchema, shareScanListSpec } from '@dms/core';
import { listQueryParameters } from './list-query-parameters.js';
import { defineContract, type RouteContract } from './route-contract.js';
import { capacityExample, collectionExample, shareScanExample } from './examples.js';

/**
 * A share's scan history (docs/decisions/090-health-scans-capacity.md) and the capacity summed from it. The history is under
 * `/nas_shares/{id}` only, as the share's test and scan jobs are: a share is one share whichever
 * family lists it.
 */
export const capacityContracts: readonly RouteContract[] = [
  defineContract({
    method: 'get',
    path: '/nas_shares/:nas_share_id/scans',
    tag: 'nas_shares',
    summary: 'List the scans of a NAS share',
    description: `The share's completed scans, one page and \`count\`, newest first (\`at\` descending) unless \`sort_by\` says otherwise: when each completed (\`at\`), the \`file_count\` and \`file_size_sum\` it found and how long it took (\`duration_ms\`). Every completed scan is kept, saved or scheduled, for \`scan_retention_days\` (see the settings), and a share's latest scan whatever its age; a failed scan is not listed (see \`GET /jobs?kind=share_scan&status=failed\`). Takes \`limit\`/\`offset\` or \`page\`/\`per_page\`, \`sort_by\` and filters (see *Lists* in the introduction) on \`id\`, \`at\` (ISO 8601 UTC, with the compare operators), \`file_count\`, \`file_size_sum\` and \`duration_ms\`. Each also carries the share's \`capacity_bytes\` and \`free_bytes\` when the scan ended (null when the protocol did not tell them). The share by id or name.`,
    scope: { controller: 'nas_shares', action: 'show' },
    query: listQueryParameters(shareScanListSpec),
    success: { status: 200, description: 'share scan collection', schema: shareScanCollectionSchema, example: collectionExample('scans', shareScanExample) },
  }),
  defineContract({
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
