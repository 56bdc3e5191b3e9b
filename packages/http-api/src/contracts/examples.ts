/**
 * Example bodies of the API description: what a reader sees in the API reference and what a
 * generator can show. Each one is a real answer's shape; the SDK's tests validate every
 * example against the schema it illustrates, so an example that drifts from its schema fails.
 */

export const nasExample = { id: 1, name: 'nas1', host: 'nas1.example.com', type: 'smb_v3', comment: 'first floor', price: '1200.00' };
export const nasCreateExample = { name: 'nas1', host: 'nas1.example.com', type: 'smb_v3', comment: 'first floor' };
export const nasUpdateExample = { comment: 'moved to the second floor' };

export const poolExample = { id: 2, name: 'projects', comment: null, type: 'primary', content: 'nas', primary_id: null, nas_share_ids: [7] };
export const poolCreateExample = { name: 'projects', type: 'primary', content: 'nas' };
export const poolUpdateExample = { comment: 'shares of the 2024 projects' };

export const nasShareExample = {
  id: 7,
  nas_id: 1,
  pool_id: 2,
  name: 'projects',
  path: 'projects/2024',
  options: 'domain=CORP',
  username: 'backup',
  file_count: 1520,
  file_size_sum: 73400320,
  health: 'ok',
  last_tested_at: '2025-01-15T09:30:00.172Z',
  last_test_status: 'completed',
  last_scanned_at: '2025-01-15T03:00:04.310Z',
  capacity_bytes: 4000787030016,
  free_bytes: 1200236109004,
  used_percent: 70,
  capacity_checked_at: '2025-01-15T09:30:00.172Z',
  days_until_full: 112.5,
  capacity_forecast: { samples: 121, days: 30, growth_bytes_per_day: 10668632000, full_at: '2025-05-07T21:30:00.172Z' },
  capacity_warning_percent: null,
  capacity_critical_percent: null,
};
// No `password`: an example is sent as it is by the reference page's "Test request", and must
// not set or clear a stored secret (contracts/example-bodies.test.ts), nor move a share.
export const nasShareCreateExample = { name: 'projects', path: 'projects/2024', options: 'domain=CORP', username: 'backup' };
export const nasShareUpdateExample = { name: 'projects-2024' };

export const jobQueuedExample = { job_id: '0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10', status: 'queued', progress: 0, total: 4, message: null, steps: [] };
export const jobCompletedExample = {
  job_id: '0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10',
  status: 'completed',
  progress: 4,
  total: 4,
  message: null,
  steps: [
    { name: 'resolve_host', outcome: 'ok', duration_ms: 2 },
    { name: 'connect', outcome: 'ok', duration_ms: 11 },
    { name: 'authenticate', outcome: 'ok', duration_ms: 35 },
    { name: 'open_path', outcome: 'ok', duration_ms: 4 },
  ],
};

/** A job as GET /jobs shows it: what ran, on what, for whom, and when. */
export const jobExample = {
  ...jobCompletedExample,
  kind: 'share_test',
  nas_share_id: 7,
  nas_id: 1,
  requester: 'alice',
  created_at: '2025-01-15T09:30:00.000Z',
  started_at: '2025-01-15T09:30:00.120Z',
  finished_at: '2025-01-15T09:30:00.172Z',
};
export const jobWorkingExample = { ...jobExample, status: 'working', progress: 2, steps: jobCompletedExample.steps.slice(0, 2), finished_at: null };

/** A change of a share's path and password through REST: the password only as "changed". */
export const auditEventExample = {
  id: 812,
  at: '2025-01-15T09:31:12.000Z',
  actor: { kind: 'user', id: 2, name: 'alice' },
  via: 'rest',
  client_address: '10.20.0.15',
  request_id: '5f0c2a8e-7d4b-4c1e-9a3f-6b2d8e1c0a47',
  action: 'update',
  resource: { type: 'nas_shares', id: '7', name: 'projects' },
  changes: { path: { from: 'projects/2024', to: 'projects/2025' }, password: 'changed' },
  outcome: 'success',
  count: 1,
};

/** A nightly scan of a pool's shares at 02:00 Paris time (01:00 UTC in winter). */
export const scheduleExample = {
  id: 3,
  name: 'nightly-scan',
  action: 'scan',
  nas_share_ids: null,
  pool_id: 2,
  nas_id: null,
  all_shares: false,
  rrule: 'DTSTART;TZID=Europe/Paris:20250101T020000\nRRULE:FREQ=DAILY',
  enabled: true,
  next: '2025-01-16T01:00:00.000Z',
  last_run_at: '2025-01-15T01:00:00.004Z',
  missed_count: 0,
  skipped_count: 1,
  not_started_count: 0,
  creator_user_id: 1,
  creator_key_id: null,
  retry_at: null,
  last_error: null,
  created_at: '2025-01-01T10:12:40.000Z',
  updated_at: '2025-01-15T01:00:00.004Z',
};
/** Created disabled: sent as it is, it queues no scan. */
export const scheduleCreateExample = {
  name: 'nightly-scan',
  action: 'scan',
  pool_id: 2,
  rrule: 'DTSTART;TZID=Europe/Paris:20250101T020000\nRRULE:FREQ=DAILY',
  enabled: false,
};
export const scheduleUpdateExample = { name: 'nightly-scan-projects' };

/** A share whose test failed where it had passed: open (not cleared), not yet dismissed. */
export const alertExample = {
  id: 41,
  source: 'share_unreachable',
  level: 4,
  resource: { type: 'nas_shares', id: '7', name: 'projects' },
  message: "path 'projects/2024' not found on share",
  raised_at: '2025-01-15T09:30:00.172Z',
  last_seen_at: '2025-01-15T09:45:00.168Z',
  cleared_at: null,
  dismissed_at: null,
  silenced: false,
};
export const alertUpdateExample = { dismissed: true };

export const alertSettingExample = {
  source: 'share_unreachable',
  enabled: true,
  level: 4,
  description: 'a test of a share failed where it had passed (or never run): cleared by the next successful test',
  raise_after_seconds: null,
  clear_after_seconds: 0,
};
export const alertSettingUpdateExample = { level: 5, raise_after_seconds: 600 };

/** One completed scan in a share's history. */
export const shareScanExample = {
  id: 118,
  at: '2025-01-15T03:00:04.310Z',
  file_count: 1520,
  file_size_sum: 73400320,
  duration_ms: 4310,
  capacity_bytes: 4000787030016,
  free_bytes: 1201374658560,
};

const capacityOfPool = {
  file_count: 1520,
  file_size_sum: 73400320,
  shares_scanned: 1,
  shares_not_scanned: 0,
  growth: { file_count: 120, file_size_sum: 5242880 },
  capacity_bytes: 4000787030016,
  free_bytes: 1200236109004,
  used_percent: 70,
  growth_bytes_per_day: 10668632000,
  days_until_full: 112.5,
  shares_with_capacity: 1,
  shares_merged: 0,
};
/** Capacity over the last 30 days: one NAS, one pool, and a second share of the NAS never scanned. */
export const capacityExample = {
  period_days: 30,
  since: '2024-12-16T09:30:00.000Z',
  totals: { ...capacityOfPool, shares_not_scanned: 1 },
  nas: [{ nas_id: 1, name: 'nas1', ...capacityOfPool, shares_not_scanned: 1 }],
  pools: [{ pool_id: 2, name: 'projects', ...capacityOfPool }],
};

export const trapExample = {
  snmp_trap_id: '3',
  activation: 1,
  version: 'v2c',
  manager: 'nms.example.com:162',
  community: 'public',
  severity_low: 3,
  severity_high: 5,
  notify_type: 'trap',
  security_name: null,
  security_level: null,
  auth_protocol: null,
  priv_protocol: null,
};
/** Created inactive: sent as it is, it sends no trap anywhere. */
export const trapCreateExample = { manager: 'nms.example.com:162', severity_low: 3, activation: 0 };
export const trapUpdateExample = { severity_low: 4 };

export const snmpConfigExample = {
  version: 'v2c',
  community: 'public',
  location: 'server room 1',
  contact: 'ops@example.com',
  agent_enabled: true,
  agent_address: '0.0.0.0',
  agent_port: 161,
  users: [{ security_name: 'nms', security_level: 'authPriv', auth_protocol: 'SHA-256', priv_protocol: 'AES-128' }],
  engine_id: '8000f22f05a1b2c3d4e5f60718',
};
export const snmpConfigUpdateExample = {
  location: 'server room 2',
  agent_enabled: true,
  users: [
    {
      security_name: 'nms',
      security_level: 'authPriv',
      auth_protocol: 'SHA-256',
      auth_passphrase: 'a long auth passphrase',
      priv_protocol: 'AES-128',
      priv_passphrase: 'a long priv passphrase',
    },
  ],
};

export const settingsExample = {
  jwt_enabled: true,
  jwt_ttl_seconds: 3600,
  job_queue_max_per_principal: 32,
  job_queue_max_total: 256,
  share_test_allowed_hosts: ['10.20.0.0/16'],
  api_keys_max_per_user: 100,
  job_retention_days: 30,
  audit_retention_days: 365,
  failed_sign_in_retention_days: 30,
  scan_retention_days: 365,
  alert_retention_days: 30,
  schedule_min_interval_seconds: 60,
  capacity_retention_days: 90,
  oidc_enabled: true,
  oidc_issuer: 'https://sso.example.com/realms/acme',
  oidc_client_id: 'dms',
  oidc_client_secret_set: true,
  oidc_scopes: 'openid profile email',
  oidc_role_claim: 'groups',
  oidc_role_map: { 'dms-admins': 'admin', 'storage-team': 'operator' },
  oidc_auto_create: true,
  oidc_button_label: 'Acme SSO',
};
export const settingsUpdateExample = { jwt_enabled: true };

const scopes = [
  { controller: 'nas_shares', action: 'index' },
  { controller: 'nas_shares', action: 'show' },
];
export const apiKeyExample = {
  id: 4,
  name: 'backup',
  masked_key: '****9f2c',
  api_key_scopes: scopes,
  role: null,
  created_at: '2025-01-15T09:30:00.000Z',
  expires_at: null,
  last_used_at: null,
};
export const apiKeyWithKeyExample = { ...apiKeyExample, key: 'dms_4Qm8r1Xk0vYt7nB2cL9pZs3eH6wJ9f2c' };
export const apiKeyCreateExample = { name: 'backup', api_key_scopes: scopes };
export const apiKeyUpdateExample = { name: 'backup-nightly' };

export const userExample = { id: 2, username: 'alice', admin: false, role: 'operator', disabled: false, created_at: '2025-01-15T09:30:00.000Z' };
/**
 * Without the required `password`: a published password would be a login anyone knows, so the
 * example is a placeholder the server refuses (422, password blank) until one is added.
 */
export const userCreatePlaceholder = { username: 'alice', role: 'operator' };
export const userUpdateExample = { role: 'viewer' };

const scannerScopes = [
  { controller: 'nas_shares', action: 'scan' },
  { controller: 'nas_shares', action: 'index' },
  { controller: 'jobs', action: 'index' },
];
export const roleExample = { name: 'scanner', builtin: false, description: 'starts scans and follows them', scopes: scannerScopes };
export const roleCreateExample = { name: 'scanner', description: 'starts scans and follows them', scopes: scannerScopes };
export const roleUpdateExample = { scopes: [...scannerScopes, { controller: 'jobs', action: 'show' }] };

export const corsRuleExample = { id: 1, origins: ['https://app.example.com'], path: '/api/v2/nas_shares*', methods: ['GET'] };
export const corsRuleCreateExample = { origins: ['https://app.example.com'], path: '/api/v2/nas_shares*', methods: ['GET'] };
export const corsRuleUpdateExample = { methods: ['GET'] };

export const loginExample = { username: 'admin', password: 'admin-password' };
export const tokenExample = { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyOjEifQ.c2lnbmF0dXJl', expires_at: '2025-01-15T10:30:00.000Z' };
export const totpStatusExample = { enabled: true, pending: false, recovery_codes_left: 9 };
export const totpEnrollmentExample = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_uri: 'otpauth://totp/dms:alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=dms&algorithm=SHA1&digits=6&period=30',
};
/** A code that was never the current one: the server refuses it (422 or 401), so sending it changes nothing. */
export const totpCodeExample = { totp_code: '000000' };
export const totpRecoveryCodesExample = { recovery_codes: ['k3x7q-b2mzp', 'a7rtd-q2wnv', 'xx4pe-7dmq2'] };
export const sessionExample = {
  id: 'q7C1nB0cXz4w2Jm9dLk3Ug',
  user_id: 2,
  created_at: '2025-01-15T09:30:00.000Z',
  last_used_at: '2025-01-15T09:41:00.000Z',
  expires_at: '2025-01-15T10:30:00.000Z',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
  ip: '192.0.2.7',
};
export const currentCredentialExample = { kind: 'api_key', id: 4, name: 'backup', api_key_scopes: scopes };

/** A list answer: `{ count, [key]: [item] }`. */
/** A webhook channel as GET answers it (its signing secret is answered once, by the create). */
export const notificationChannelExample = {
  id: 2,
  name: 'ops-webhook',
  type: 'webhook',
  enabled: true,
  min_level: 3,
  sources: null,
  digest: 'immediately',
  digest_hour: 8,
  settings: { url: 'https://hooks.example.com/dms' },
  failing_since: null,
  created_at: '2026-11-25T12:00:00.000Z',
  updated_at: '2026-11-25T12:00:00.000Z',
};
export const notificationChannelCreatedExample = { ...notificationChannelExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
export const notificationChannelCreateExample = {
  name: 'ops-webhook',
  type: 'webhook',
  min_level: 3,
  settings: { url: 'https://hooks.example.com/dms' },
};
export const notificationChannelUpdateExample = { min_level: 4, sources: ['share_unreachable', 'scan_failed'] };
export const notificationDeliveryExample = {
  id: 41,
  event_id: 'evt_1f0c2a9e-55b4-4c8e-9d1c-0d6f3e1a2b3c',
  event_type: 'alert.raised',
  at: '2026-11-25T12:00:01.000Z',
  attempts: 1,
  outcome: 'delivered',
  status_code: 200,
  error: null,
  next_attempt_at: null,
  created_at: '2026-11-25T12:00:00.000Z',
};
export const notificationTestExample = { outcome: 'delivered', status_code: 200, error: null };

/** A weekly maintenance window: Sundays 02:00-04:00 UTC, for the alerts about NAS 3 and its shares. */
export const silenceExample = {
  id: 12,
  matchers: { nas_id: 3, max_level: 4 },
  starts_at: '2026-11-25T12:00:00.000Z',
  ends_at: null,
  rrule: 'DTSTART:20261129T020000Z\nRRULE:FREQ=WEEKLY;BYDAY=SU',
  duration_seconds: 7200,
  until_cleared: false,
  reason: 'weekly firmware maintenance',
  created_by: 1,
  active: false,
  window_starts_at: '2026-11-29T02:00:00.000Z',
  window_ends_at: '2026-11-29T04:00:00.000Z',
  created_at: '2026-11-25T12:00:00.000Z',
  updated_at: '2026-11-25T12:00:00.000Z',
};
export const silenceCreateExample = {
  matchers: { nas_id: 3, max_level: 4 },
  rrule: 'DTSTART:20261129T020000Z\nRRULE:FREQ=WEEKLY;BYDAY=SU',
  duration_seconds: 7200,
  reason: 'weekly firmware maintenance',
};
export const silenceUpdateExample = { reason: 'weekly firmware maintenance (vendor ticket 4711)' };

export function collectionExample(key: string, item: unknown): Record<string, unknown> {
  return { count: 1, [key]: [item] };
}

const ageRows = (files: number[], bytes: number[]) =>
  ['< 30 d', '30-90 d', '90 d-1 y', '1-3 y', '> 3 y'].map((bucket, index) => ({ bucket, files: files[index]!, bytes: bytes[index]! }));
const sizeRows = (files: number[], bytes: number[]) =>
  ['< 4 KiB', '< 1 MiB', '< 100 MiB', '< 1 GiB', '>= 1 GiB'].map((bucket, index) => ({ bucket, files: files[index]!, bytes: bytes[index]! }));

/** A scan with its analytics: where the space of a projects share goes. */
export const shareScanDetailExample = {
  ...shareScanExample,
  analytics: {
    top_directories: [
      { path: '/2024', bytes: 52428800, files: 900 },
      { path: '/2024/video', bytes: 41943040, files: 12 },
      { path: '/2023', bytes: 20971520, files: 620 },
    ],
    top_directories_complete: true,
    age_histogram: ageRows([300, 400, 500, 320, 0], [10485760, 20971520, 31457280, 10485760, 0]),
    access_histogram: null,
    size_histogram: sizeRows([1200, 300, 20, 0, 0], [1048576, 20971520, 51380224, 0, 0]),
    extensions: [
      { extension: 'mp4', files: 12, bytes: 41943040 },
      { extension: 'pdf', files: 508, bytes: 26214400 },
    ],
    extensions_other: { files: 1000, bytes: 5242880 },
    largest_files: [{ path: '/2024/video/launch.mp4', bytes: 20971520, modified_at: '2024-11-02T10:15:00.000Z' }],
  },
};

const histogramSides = (buckets: string[]) =>
  buckets.map((bucket, index) => ({ bucket, from_files: 100 * index, from_bytes: 1048576 * index, to_files: 110 * index, to_bytes: 1153434 * index }));
/** Two scans of a share compared. */
export const scanComparisonExample = {
  from: { id: 117, at: '2025-01-14T03:00:03.950Z', file_count: 1400, file_size_sum: 68157440 },
  to: { id: 118, at: '2025-01-15T03:00:04.310Z', file_count: 1520, file_size_sum: 73400320 },
  top_growers: [
    { path: '/2024', bytes_delta: 6291456, files_delta: 130 },
    { path: '/2024/video', bytes_delta: 5242880, files_delta: 2 },
    { path: '/2023', bytes_delta: -1048576, files_delta: -10 },
  ],
  age_histogram: histogramSides(['< 30 d', '30-90 d', '90 d-1 y', '1-3 y', '> 3 y']),
  size_histogram: histogramSides(['< 4 KiB', '< 1 MiB', '< 100 MiB', '< 1 GiB', '>= 1 GiB']),
};

/** The report of the last 7 days: one share that grew. */
export const statisticsReportExample = {
  period_days: 7,
  since: '2025-01-08T09:30:00.000Z',
  generated_at: '2025-01-15T09:30:00.000Z',
  shares: [
    {
      nas_share_id: 7,
      name: 'projects',
      nas_id: 1,
      nas_name: 'nas1',
      file_count: 1520,
      file_size_sum: 73400320,
      capacity_bytes: 4000787030016,
      used_bytes: 2799412371456,
      free_bytes: 1201374658560,
      growth_bytes: 5242880,
      growth_files: 120,
      days_until_full: 112.5,
      failed_tests: 1,
      top_growers: [{ path: '/2024', bytes_delta: 6291456, files_delta: 130 }],
    },
  ],
};
