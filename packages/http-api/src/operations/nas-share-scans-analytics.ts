import { scanCompareQuerySchema, scanComparisonSchema, shareScanDetailSchema } from '@dms/core';
import { respondJson } from '../http/respond.js';
import { rawQuery } from '../http/raw-query.js';
import { scanComparisonExample, shareScanDetailExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';

/**
 * One scan with its analytics, and two scans compared (docs/decisions/155-scan-analytics-one-pass.md,
 * docs/decisions/156-scan-comparison.md). `compare` is declared before `{scan_id}`: a static
 * segment wins over a parameter, and the order says so to a reader too.
 */
export const nasShareScanAnalyticsOperations = [
  defineOperation({
    operationId: 'compareNasShareScans',
    sdkSample: `// What changed between two scans: the directories that grew and shrank most.
const { top_growers } = await dms.nasShares.compareScans(7, { from: 117, to: 118 });
for (const grower of top_growers) console.log(grower.path, grower.bytes_delta, grower.files_delta);`,
    handle: async (c, core) => respondJson(c, await core.shares.compareScans(c.get('principal'), { kind: 'all' }, c.req.param('nas_share_id')!, rawQuery(c))),
    method: 'get',
    path: '/nas_shares/:nas_share_id/scans/compare',
    tag: 'nas_shares',
    summary: 'Compare two scans of a NAS share',
    description: `What changed between two completed scans of the share, \`from\` and \`to\` (their ids, see \`GET /nas_shares/{nas_share_id}/scans\`): \`top_growers\`, the directories 1 to 3 levels below the share's root whose subtree changed, with \`bytes_delta\` and \`files_delta\` (\`to\` minus \`from\`): the 20 that grew most, then the 20 that shrank most, sorted by \`bytes_delta\`. A directory is compared when both scans list it in \`top_directories\`, or when one lists it and the other lists every directory to that depth (\`top_directories_complete\`: then it counts as empty there). Beside them, \`age_histogram\` and \`size_histogram\` of both scans, bucket by bucket (\`from_files\`, \`from_bytes\`, \`to_files\`, \`to_bytes\`). Paths are share-relative. A scan that is not the share's is 404; one made before scans kept analytics is 409. \`from\` and \`to\` are each required once; any other parameter is 400.`,
    scope: { controller: 'nas_shares', action: 'show' },
    query: scanCompareQuerySchema,
    errors: [409],
    success: { status: 200, description: 'scan comparison', schema: scanComparisonSchema, example: scanComparisonExample },
  }),
  defineOperation({
    operationId: 'showNasShareScanDetail',
    sdkSample: `// The latest scan's analytics: where the space goes.
const { scans } = await dms.nasShares.scans(7, { limit: 1 });
const scan = await dms.nasShares.getScan(7, scans[0]!.id);
for (const directory of scan.analytics?.top_directories ?? []) console.log(directory.path, directory.bytes);`,
    handle: async (c, core) =>
      respondJson(c, await core.shares.scan(c.get('principal'), { kind: 'all' }, c.req.param('nas_share_id')!, c.req.param('scan_id')!)),
    method: 'get',
    path: '/nas_shares/:nas_share_id/scans/:scan_id',
    tag: 'nas_shares',
    summary: 'Show a scan of a NAS share with its analytics',
    description: `One completed scan of the share, as the scan history lists it, with its \`analytics\` (null for a scan made before scans kept them): \`top_directories\` (directories 1 to 3 levels below the share's root: the 100 largest by bytes and the 100 with most files, each with \`path\`, \`bytes\` and \`files\` of its whole subtree; the root's totals are the scan's), \`top_directories_complete\`, \`age_histogram\` by last modification and \`access_histogram\` by last access (null when the protocol gave no access times or they all equal the modification times), each \`[{bucket, files, bytes}]\` over \`< 30 d\`, \`30-90 d\`, \`90 d-1 y\`, \`1-3 y\`, \`> 3 y\` from the scan's time; \`size_histogram\` over \`< 4 KiB\`, \`< 1 MiB\`, \`< 100 MiB\`, \`< 1 GiB\`, \`>= 1 GiB\`; \`extensions\` (the 50 holding most bytes, lower-cased, \`''\` for none) and \`extensions_other\`; \`largest_files\` (20, with \`path\`, \`bytes\`, \`modified_at\`). Paths are share-relative, \`/\`-separated, starting with \`/\`; one longer than 600 bytes keeps its two ends around \`…(hash)…\`. A scan id of another share is 404.`,
    scope: { controller: 'nas_shares', action: 'show' },
    success: { status: 200, description: 'share scan with analytics', schema: shareScanDetailSchema, example: shareScanDetailExample },
  }),
];
