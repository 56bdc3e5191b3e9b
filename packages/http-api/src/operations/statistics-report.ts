import { accepts } from 'hono/accepts';
import { reportQuerySchema, statisticsReportSchema } from '@dms/core';
import { z } from 'zod';
import { respond, respondJson } from '../http/respond.js';
import { rawQuery } from '../http/raw-query.js';
import { statisticsReportExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';

const csvType = 'text/csv';

/** The period's report, JSON or CSV by `Accept` (docs/decisions/157-statistics-report.md). */
export const statisticsReportOperations = [
  defineOperation({
    operationId: 'showStatisticsReport',
    sdkSample: `const report = await dms.statistics.report({ days: 7 });
for (const share of report.shares) console.log(share.name, share.used_bytes, share.days_until_full, share.failed_tests);`,
    handle: async (c, core) => {
      const report = await core.statistics.report(c.get('principal'), rawQuery(c));
      const wanted = accepts(c, { header: 'Accept', supports: ['application/json', csvType], default: 'application/json' });
      if (wanted !== csvType) return respondJson(c, report);
      // csv-stringify is loaded by the first CSV report, not with every server (decision 188).
      const { reportCsv } = await import('../formats/report-csv.js');
      return respond(c, reportCsv(report), 'text/csv; charset=utf-8; header=present', 200, {
        'Content-Disposition': `attachment; filename="dms-report-${report.period_days}d.csv"`,
      });
    },
    method: 'get',
    path: '/statistics/report',
    tag: 'statistics',
    summary: 'Report per share over a period',
    description: `A report of the last \`days\` days (1–366, 7 by default) per share, every share by id: \`file_count\` and \`file_size_sum\` of its latest scan, \`capacity_bytes\`, \`used_bytes\` and \`free_bytes\` of the file system it lies on (null until read), \`growth_bytes\` and \`growth_files\` over the period (as \`GET /statistics/capacity\` counts growth), \`days_until_full\` from its forecast, \`failed_tests\` (share tests of the period that failed), and \`top_growers\`: the 5 directories that grew most between the period's first and latest scans (null when either has no analytics, or for shares beyond the 100 that grew or shrank most). With \`Accept: text/csv\` the same as RFC 4180 CSV (UTF-8, CRLF, a header line, one line per share, null as an empty field, the growers in the columns \`top_grower_N_path\`, \`top_grower_N_bytes_delta\`, \`top_grower_N_files_delta\` for N = 1…5; a text field starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return is prefixed with \`'\` so that a spreadsheet shows it rather than runs it). A \`days\` out of range, or any other parameter, is 400.`,
    scope: { controller: 'statistics', action: 'show' },
    query: reportQuerySchema,
    success: {
      status: 200,
      description: 'statistics report',
      schema: statisticsReportSchema,
      example: statisticsReportExample,
      alternatives: {
        [csvType]: {
          schema: z.string().describe('RFC 4180 CSV, one line per share'),
          example:
            'nas_share_id,name,nas_id,nas_name,…,top_grower_1_path,top_grower_1_bytes_delta,top_grower_1_files_delta,…\r\n7,projects,1,nas1,…,/2024,6291456,130,…\r\n',
        },
      },
    },
  }),
];
