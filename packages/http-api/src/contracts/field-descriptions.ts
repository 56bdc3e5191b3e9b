/**
 * What each field of the main models means, for the reader of the API reference (the zod
 * schemas in the core say what a value may be; these say what it is). Applied to the
 * document's components by name, after generation; a field marked read-only is set by the
 * service and ignored in a request body.
 */
interface FieldDoc {
  description: string;
  readOnly?: true;
}

const share: Record<string, FieldDoc> = {
  id: { description: 'Identifier of the share.', readOnly: true },
  nas_id: { description: 'The NAS the share belongs to.', readOnly: true },
  pool_id: { description: 'The pool the share is in, null when in none; set through `PUT /pools/{pool_id}` with `nas_share_ids`.', readOnly: true },
  name: { description: 'Unique within its NAS; 1–255 characters, not all digits (a path may take it instead of the id).' },
  path: { description: 'Where the share is: `SHARE/dir` on SMB, the export path on NFS, a directory inside the local roots for `local`.' },
  options: { description: 'Comma-separated mount options, `key` or `key=value` (`port=`, `domain=`, `mountport=`); no whitespace.' },
  username: { description: 'The user a test connects as; null for none.' },
  password: { description: 'Sealed at rest; in an answer only for a principal holding `nas_shares / get_password`. null clears it.' },
  file_count: { description: 'Files found by the last completed scan (0 before any).', readOnly: true },
  file_size_sum: { description: 'Bytes in those files.', readOnly: true },
  health: { description: 'From the latest test, saved or scheduled: `ok`, `unreachable`, or `unknown` before any test.', readOnly: true },
  last_tested_at: { description: 'When the latest test finished; null before any.', readOnly: true },
  last_test_status: { description: 'How the latest test ended: `completed` or `failed`; null before any.', readOnly: true },
  last_scanned_at: {
    description:
      'When the latest scan completed; null until one has: `file_count` and `file_size_sum` are then not counted yet ("not scanned", not "0 files").',
    readOnly: true,
  },
  capacity_bytes: {
    description:
      'Size of the file system the share lies on, read by the latest test or scan as its protocol reports it (statfs locally, smbclient’s blocks line on SMB, FSSTAT on NFS v3, `space_total` on NFS v4); a share on a shared file system shows all of it. Null until read.',
    readOnly: true,
  },
  free_bytes: {
    description: 'Bytes the share’s user may still write there (`bavail`, `abytes`, `space_avail`), not the root’s reserve. Null until read.',
    readOnly: true,
  },
  used_percent: { description: '`(capacity_bytes - free_bytes) / capacity_bytes` in percent, one decimal; null until read.', readOnly: true },
  capacity_checked_at: { description: 'When `capacity_bytes` and `free_bytes` were read; null until then.', readOnly: true },
  days_until_full: {
    description:
      'Days until the forecast reaches `capacity_bytes`, one decimal; null when the share is not growing or its history is too short (see `capacity_forecast`).',
    readOnly: true,
  },
  capacity_forecast: {
    description:
      'The line behind `days_until_full`: a Theil-Sen fit of used bytes over the last 30 days of readings (at least 3, spanning 24 hours), with how many `samples` and `days` it used, the `growth_bytes_per_day` and `full_at`. Null while there is too little history.',
    readOnly: true,
  },
  capacity_warning_percent: {
    description:
      'This share’s `share_nearly_full` threshold, 1-100: used at or past it raises the alert at its level. Null (the default): the source’s `warning_percent` (`GET /alert_settings`).',
  },
  capacity_critical_percent: {
    description:
      'This share’s threshold from which the alert is one level higher, 1-100, not below the warning one (its own or the source’s, whichever applies; a share’s own critical below the source’s warning counts as that warning). Null: the source’s `critical_percent`.',
  },
};

const job: Record<string, FieldDoc> = {
  job_id: { description: 'Identifier of the job, for `GET …?job_id=`.' },
  status: { description: '`queued`, then `working`, then `completed` or `failed`.' },
  progress: { description: 'Steps done so far.' },
  total: { description: 'Steps in all: resolve host, connect, authenticate, open path, list… as the share type needs.' },
  message: { description: 'Why the job failed, in plain words; null otherwise.' },
  steps: { description: 'Each step run so far, with its outcome and duration.' },
  file_count: { description: 'A completed scan: files found.' },
  file_size_sum: { description: 'A completed scan: bytes in those files.' },
};

const schedule: Record<string, FieldDoc> = {
  id: { description: 'Identifier of the schedule.', readOnly: true },
  name: { description: 'Unique; 1–255 characters, not all digits (a path may take it instead of the id).' },
  action: { description: 'What a run starts on each share of the target: a `test` or a `scan` job.' },
  nas_share_ids: { description: 'Target: these shares (one of the four target fields; null when another is used).' },
  pool_id: { description: 'Target: the shares of this pool at each run.' },
  nas_id: { description: 'Target: the shares of this NAS at each run.' },
  all_shares: { description: 'Target: every share at each run (`true` in a body; false when another target is used).' },
  rrule: {
    description: 'RFC 5545: `DTSTART:…Z` (UTC) or `DTSTART;TZID=Zone:…` (local), a newline, then `RRULE:…`; sub-minute rules (`FREQ=SECONDLY`) allowed.',
  },
  enabled: { description: 'A disabled schedule starts nothing and has no `next`; enabled again, it is planned from now.' },
  next: { readOnly: true, description: 'When the next run is due (UTC).' },
  last_run_at: { description: 'When the last run started; null before any.', readOnly: true },
  missed_count: { readOnly: true, description: 'Occurrences missed while dms was not running.' },
  skipped_count: { readOnly: true, description: 'Runs skipped while the previous run’s jobs were still going.' },
  created_at: { description: 'When it was created.', readOnly: true },
  updated_at: { description: 'When it was last changed (a run changes it too).', readOnly: true },
};

export const fieldDescriptions: Readonly<Record<string, Record<string, FieldDoc>>> = {
  schedule,
  alert: {
    id: { description: 'Identifier of the alert.', readOnly: true },
    source: { description: 'What raised it (see `GET /alert_settings` for every source).', readOnly: true },
    level: { description: '1 info, 2 notice, 3 warning, 4 error, 5 critical, as traps; from the source’s setting.', readOnly: true },
    resource: {
      description: 'What the condition is about, `{type, id, name}` as in audit events (`nas_shares`, `schedules`, `api_keys`); null for the service itself.',
      readOnly: true,
    },
    message: { description: 'The condition in plain words, as last seen.', readOnly: true },
    raised_at: { description: 'When the condition started.', readOnly: true },
    last_seen_at: { readOnly: true, description: 'When the condition was last seen.' },
    cleared_at: { readOnly: true, description: 'When the condition ended; null while open.' },
    dismissed_at: { readOnly: true, description: 'When an operator dismissed it; null if not.' },
  },
  alert_setting: {
    source: { description: 'The alert source (the path parameter of PUT).', readOnly: true },
    enabled: { description: 'Whether the source raises alerts; turned off, its open alerts are cleared.' },
    level: { description: 'The level of its alerts: 1 info … 5 critical (traps are filtered by it).' },
    description: { description: 'What the source watches, and what clears its alerts.', readOnly: true },
    raise_after_seconds: {
      description:
        'How long the condition must last before the alert is raised and sent (0–86400); a condition gone sooner leaves nothing. Null (the default): automatic, 0 except 300 for `share_unreachable` when the failing test belongs to a schedule running more often than every 5 minutes.',
    },
    clear_after_seconds: {
      description: 'How long the condition must be gone before the alert clears (0–86400; default 0); seen again sooner, the alert stays open.',
    },
  },
  share_scan: {
    id: { description: 'Identifier of the scan record.', readOnly: true },
    at: { description: 'When the scan completed.', readOnly: true },
    file_count: { description: 'Files found.', readOnly: true },
    file_size_sum: { description: 'Bytes in those files.', readOnly: true },
    duration_ms: { description: 'How long the walk took.', readOnly: true },
    capacity_bytes: { description: 'The share’s file-system size when the scan ended; null when its protocol did not tell it.', readOnly: true },
    free_bytes: { description: 'The bytes the share’s user could still write then.', readOnly: true },
  },
  capacity: {
    period_days: { description: 'The period growth is measured over (`days`).' },
    since: { description: 'Its start: now minus `period_days`.' },
    totals: { description: 'Over every share.' },
    nas: { description: 'Per NAS, every NAS (zeros for one never scanned).' },
    pools: { description: 'Per pool, every pool.' },
  },
  nas_share: share,
  nas_share_input: share,
  active_job_status: job,
  nas: {
    id: { description: 'Identifier of the NAS.', readOnly: true },
    name: { description: 'Unique; not all digits.' },
    host: { description: 'Host name or address shares are reached at.' },
    type: { description: 'How its shares are reached: SMB 1, 2.1 or 3, NFS 3 or 4, StorNext 5, or `local` (a directory on the server).' },
    comment: { description: 'Free text; null for none.' },
    price: { description: 'A decimal, as text; null for none.' },
  },
  pool: {
    id: { description: 'Identifier of the pool.', readOnly: true },
    name: { description: 'Unique; not all digits.' },
    comment: { description: 'Free text; null for none.' },
    type: { description: 'What the pool is for.' },
    content: { description: 'What it holds; only a `nas` pool takes NAS shares.' },
    primary_id: { description: 'The primary pool this one belongs to, if any.', readOnly: true },
    nas_share_ids: { description: 'Its shares; a PUT with this list replaces them (a share is in at most one pool).' },
  },
  trap: {
    snmp_trap_id: { description: 'Identifier of the target, as a decimal string.', readOnly: true },
    activation: { description: '1: the target receives events; 0: it does not.' },
    version: { description: 'SNMP version of the notifications: `v1`, `v2c`, or `v3` (user-based security; the v3 fields below).' },
    manager: { description: 'Host name, IPv4 or `[IPv6]`, with an optional `:port` (162).' },
    community: { description: 'Community string, printable ASCII (v1 and v2c; unused with v3).' },
    severity_low: { description: 'Lowest severity sent: 1 info, 2 notice, 3 warning, 4 error, 5 critical.' },
    severity_high: { description: 'Highest severity sent; at least `severity_low`.' },
    notify_type: {
      description:
        '`trap` (default) or `inform` (v2c and v3): an inform is acknowledged by the manager and re-sent with backoff until it is (4 datagrams over 15 s); unacknowledged, it raises the alert `trap_target_unreachable` on the target, cleared by the next acknowledged one.',
    },
    security_name: { description: 'v3: the USM user name (1–32 characters); null for v1 and v2c.' },
    security_level: { description: 'v3: `noAuthNoPriv`, `authNoPriv` or `authPriv` (the default with v3).' },
    auth_protocol: { description: 'v3 with authNoPriv or authPriv: `SHA-256` or `SHA-512` (recommended) or `SHA-1` (flagged in `messages`); MD5 is refused.' },
    auth_passphrase: {
      description:
        'v3: at least 8 characters; sealed at rest, in an answer only for a principal holding `traps / get_password` (a `*` action does not grant it); forgotten when a caller without it changes the manager.',
    },
    priv_protocol: { description: 'v3 with authPriv: `AES-128` or `AES-256` (Net-SNMP’s AES-256, Blumenthal key extension); DES is refused.' },
    priv_passphrase: { description: 'v3 with authPriv: as `auth_passphrase`.' },
    messages: { description: 'Warnings about an allowed but weak choice (SHA-1); absent when there are none.', readOnly: true },
  },
  server_configuration: {
    version: { description: 'SNMP version the agent answers.' },
    community: { description: 'Community string the agent answers to.' },
    location: { description: 'sysLocation of the agent.' },
    contact: { description: 'sysContact of the agent.' },
  },
  model_error: {
    details: { description: 'Each invalid attribute or parameter → what is wrong with it.' },
    messages: { description: 'The same in English sentences.' },
  },
  attribute_error: {
    error: {
      description:
        '`blank`, `invalid`, `taken`, `too_short`, `too_long`, `greater_than_or_equal_to`, `less_than_or_equal_to`, `not_found`, `frozen`, `forbidden` or `unknown`.',
    },
    count: { description: 'The limit that applies (a length, a bound).' },
    value: { description: 'The value refused.' },
  },
};

type Schema = { properties?: Record<string, Record<string, unknown>> };

/** Adds each known field's description (unless the schema has one) and read-only mark. */
export function describeFields(schemas: Record<string, unknown>): void {
  for (const [name, fields] of Object.entries(fieldDescriptions)) {
    const properties = (schemas[name] as Schema | undefined)?.properties;
    if (!properties) continue;
    for (const [field, doc] of Object.entries(fields)) {
      const property = properties[field];
      if (!property) continue;
      property['description'] ??= doc.description;
      // An input schema takes no read-only field, so the mark is for output schemas only.
      if (doc.readOnly && !name.endsWith('_input')) property['readOnly'] = true;
    }
  }
}
