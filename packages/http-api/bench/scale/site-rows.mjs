// The rows of the scale section's site (issue 48), one source for both seeds (seed.mjs on
// SQLite, seed-postgres.mjs on PostgreSQL): each table as { table, columns, batches(size) },
// its rows (arrays of the columns' values, explicit ids included so that both databases hold the
// same ids and the scans' analytics point at their scans) generated batch by batch, never all in
// memory. Grouped as the seeds time them; `big` marks the tables whose secondary indexes a seed
// drops before and builds after.
import { jobColumns, jobRows } from '../history/seed-jobs.mjs';
import { auditSpanDays, jobSpanDays, rowBatches } from './counts.mjs';

const dayMs = 24 * 3600_000;
const iso = (ms) => new Date(ms).toISOString();

export const auditColumns = [
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'via',
  'client_address',
  'request_id',
  'action',
  'resource_type',
  'resource_id',
  'resource_name',
  'changes',
  'outcome',
];
const actors = [
  { actor_kind: 'user', actor_id: 1, actor_name: 'admin', via: 'console' },
  { actor_kind: 'user', actor_id: 2, actor_name: 'alice', via: 'rest' },
  { actor_kind: 'user', actor_id: 3, actor_name: 'bob', via: 'cli' },
  { actor_kind: 'api_key', actor_id: 1, actor_name: 'ci-deploy', via: 'rest' },
  { actor_kind: 'system', actor_id: null, actor_name: 'scheduler', via: 'scheduler' },
];
const actions = ['update', 'test', 'scan', 'create', 'login', 'delete'];

/** The i-th of `count` audit events, oldest first, spread evenly over `auditSpanDays` up to `now`. */
export function auditRow(i, count, now, shares) {
  const actor = actors[i % actors.length];
  const action = actions[(i * 7) % actions.length];
  const shareId = 1 + ((i * 7919) % shares);
  const onShare = action !== 'login';
  return [
    iso(now - auditSpanDays * dayMs + ((i + 0.5) * auditSpanDays * dayMs) / count),
    actor.actor_kind,
    actor.actor_id,
    actor.actor_name,
    actor.via,
    actor.actor_kind === 'system' ? null : `10.0.${i % 200}.${i % 250}`,
    null,
    action,
    onShare ? 'nas_share' : null,
    onShare ? String(shareId) : null,
    onShare ? `share-${String(shareId - 1).padStart(5, '0')}` : null,
    action === 'update' ? '{"comment":{"from":null,"to":"moved to vol2"}}' : null,
    i % 50 === 0 ? 'failure' : 'success',
  ];
}

/** A scan's analytics, smaller than a real tree's (3 directories, 3 extensions, 2 files) but of the same shape. */
export function analyticsBlob(shareId, files, bytes) {
  const part = (n, d) => Math.floor(n / d);
  return JSON.stringify({
    top_directories: [
      { path: '/projects', bytes: part(bytes, 2), files: part(files, 2) },
      { path: '/archive', bytes: part(bytes, 3), files: part(files, 3) },
      { path: `/home/u${shareId % 97}`, bytes: part(bytes, 8), files: part(files, 8) },
    ],
    top_directories_complete: false,
    age_histogram: [
      { bucket: '< 30 d', files: part(files, 4), bytes: part(bytes, 4) },
      { bucket: '> 3 y', files: files - part(files, 4), bytes: bytes - part(bytes, 4) },
    ],
    access_histogram: null,
    size_histogram: [
      { bucket: '< 1 MiB', files: part(files, 2), bytes: part(bytes, 10) },
      { bucket: '< 1 GiB', files: files - part(files, 2), bytes: bytes - part(bytes, 10) },
    ],
    extensions: [
      { extension: 'pdf', files: part(files, 3), bytes: part(bytes, 3) },
      { extension: 'tif', files: part(files, 5), bytes: part(bytes, 2) },
      { extension: '', files: part(files, 10), bytes: part(bytes, 20) },
    ],
    extensions_other: { files: part(files, 4), bytes: part(bytes, 10) },
    largest_files: [
      { path: '/archive/raw.tif', bytes: part(bytes, 50), modified_at: '2025-03-01T10:00:00.000Z' },
      { path: '/projects/big.iso', bytes: part(bytes, 60), modified_at: '2026-01-12T08:30:00.000Z' },
    ],
  });
}

/** A table of `total` rows of `row(i)`, its id i + 1 prepended. */
const numbered = (table, columns, total, row) => ({
  table,
  columns: ['id', ...columns],
  batches: (size) => rowBatches(total, (i) => [i + 1, ...row(i)], size),
});

/**
 * The site of `counts` as of `now`, its shares on `directories` (real folders, so the scheduled
 * tests really run): `{ what, tables }[]` in the order the seeds write them.
 */
export function siteTables(counts, { now, directories }) {
  const at = iso(now);
  // Day-major: the scans' ids grow with time, as scans arrive.
  const scanRow = (i) => {
    const day = Math.floor(i / counts.shares);
    const shareId = 1 + (i % counts.shares);
    const files = 100_000 + shareId + day * 10;
    return [
      shareId,
      iso(now - (counts.scanDays - day) * dayMs + shareId * 1000),
      files,
      files * 40_960,
      60_000,
      2 ** 42,
      2 ** 41 - shareId * 1_000_000 - day * 10_000_000,
    ];
  };
  const scans = counts.shares * counts.scanDays;
  const shares = Array.from({ length: counts.shares }, (_, s) => ({ id: s + 1, nas_id: 1 + (s % counts.nas) }));
  return [
    {
      what: 'nas, pools, shares, alerts',
      tables: [
        numbered('nas', ['name', 'host', 'type', 'comment', 'created_at', 'updated_at'], counts.nas, (n) => [
          `filer-${String(n).padStart(3, '0')}`,
          'localhost',
          'local',
          'seeded by the scale bench',
          at,
          at,
        ]),
        numbered('pools', ['name', 'type', 'content', 'created_at', 'updated_at'], counts.pools, (p) => [`pool-${p}`, 'primary', 'nas', at, at]),
        numbered(
          'nas_shares',
          [
            'nas_id',
            'pool_id',
            'name',
            'path',
            'file_count',
            'file_size_sum',
            'created_at',
            'updated_at',
            'last_scanned_at',
            'capacity_bytes',
            'free_bytes',
            'capacity_checked_at',
          ],
          counts.shares,
          (s) => [
            1 + (s % counts.nas),
            1 + (s % counts.pools),
            `share-${String(s).padStart(5, '0')}`,
            directories[s % directories.length],
            100_000 + s,
            (100_000 + s) * 40_960,
            at,
            at,
            at,
            2 ** 42,
            2 ** 41 - s * 1_000_000,
            at,
          ],
        ),
        numbered(
          'alerts',
          ['source', 'level', 'resource_type', 'resource_id', 'resource_name', 'message', 'raised_at', 'last_seen_at', 'open_key'],
          counts.openAlerts,
          (a) => [
            'scan_failed',
            3,
            'nas_share',
            String(a + 1),
            `share-${String(a).padStart(5, '0')}`,
            'scan failed: EACCES: permission denied, scandir',
            at,
            at,
            `scan_failed:nas_share:${a + 1}`,
          ],
        ),
      ],
    },
    {
      what: `${scans} scans with analytics and capacity readings`,
      tables: [
        numbered('share_scans', ['share_id', 'at', 'file_count', 'file_size_sum', 'duration_ms', 'capacity_bytes', 'free_bytes'], scans, scanRow),
        {
          table: 'share_scan_analytics',
          columns: ['scan_id', 'analytics'],
          batches: (size) =>
            rowBatches(
              scans,
              (i) => {
                const [shareId, , files, bytes] = scanRow(i);
                return [i + 1, analyticsBlob(shareId, files, bytes)];
              },
              size,
            ),
        },
        numbered('share_capacity_samples', ['share_id', 'at', 'capacity_bytes', 'free_bytes'], scans, (i) => {
          const [shareId, scanAt, , , , capacity, free] = scanRow(i);
          return [shareId, scanAt, capacity, free];
        }),
      ],
    },
    {
      what: `${counts.jobs} finished jobs`,
      tables: [
        {
          table: 'jobs',
          big: true,
          columns: jobColumns,
          // A day's share of the jobs generated at a time, so the rows never all sit in memory.
          *batches(size) {
            const chunk = Math.ceil(counts.jobs / jobSpanDays);
            for (let from = 0, part = 0; from < counts.jobs; from += chunk, part++) {
              const count = Math.min(chunk, counts.jobs - from);
              const newestAt = now - 3600_000 - (jobSpanDays - 1 - part) * dayMs;
              const rows = jobRows({ count, shares, newestAt, spanDays: 1, seed: 0x5eed + part }).map((job) => jobColumns.map((column) => job[column]));
              for (let r = 0; r < rows.length; r += size) yield rows.slice(r, r + size);
            }
          },
        },
      ],
    },
    {
      what: `${counts.auditEvents} audit events`,
      tables: [{ ...numbered('audit_events', auditColumns, counts.auditEvents, (i) => auditRow(i, counts.auditEvents, now, counts.shares)), big: true }],
    },
  ];
}
