import { shareScanCollectionSchema, shareScanListSpec } from '@dms/core';
import { respondJson } from '../http/respond.js';
import { rawQuery } from '../http/raw-query.js';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { collectionExample, shareScanExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';

/**
 * A share's scan history (docs/decisions/090-health-scans-capacity.md). It is under
 * `/nas_shares/{id}` only, as the share's test and scan jobs are: a share is one share whichever
 * family lists it.
 */
export const nasShareScanOperations = [
  defineOperation({
    operationId: 'listNasShareScans',
    sdkSample: `// The share's last ten scans, newest first:
const { count, scans } = await dms.nasShares.scans(7, { limit: 10 });
for (const scan of scans) console.log(scan.at, scan.file_count, scan.file_size_sum);`,
    handle: async (c, core) => respondJson(c, await core.shares.scans(c.get('principal'), { kind: 'all' }, c.req.param('nas_share_id')!, rawQuery(c))),
    method: 'get',
    path: '/nas_shares/:nas_share_id/scans',
    tag: 'nas_shares',
    summary: 'List the scans of a NAS share',
    description: `The share's completed scans, one page and \`count\`, newest first (\`at\` descending) unless \`sort_by\` says otherwise: when each completed (\`at\`), the \`file_count\` and \`file_size_sum\` it found and how long it took (\`duration_ms\`). Every completed scan is kept, saved or scheduled, for \`scan_retention_days\` (see the settings), and a share's latest scan whatever its age; a failed scan is not listed (see \`GET /jobs?kind=share_scan&status=failed\`). Takes \`limit\`/\`offset\` or \`page\`/\`per_page\`, \`sort_by\` and filters (see *Lists* in the introduction) on \`id\`, \`at\` (ISO 8601 UTC, with the compare operators), \`file_count\`, \`file_size_sum\` and \`duration_ms\`. Each also carries the share's \`capacity_bytes\` and \`free_bytes\` when the scan ended (null when the protocol did not tell them). The share by id or name.`,
    scope: { controller: 'nas_shares', action: 'show' },
    query: listQueryParameters(shareScanListSpec),
    success: { status: 200, description: 'share scan collection', schema: shareScanCollectionSchema, example: collectionExample('scans', shareScanExample) },
  }),
];
