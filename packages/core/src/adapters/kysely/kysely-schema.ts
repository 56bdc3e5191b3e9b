import type { ShareHealth } from '../../domain/nas-share.js';
import type { Generated } from 'kysely';

/** Tables as both SQL adapters store them: timestamps are ISO-8601 text, JSON is text. */
export interface NasTable {
  id: Generated<number>;
  name: string;
  host: string;
  type: string;
  comment: string | null;
  price: string | null;
  created_at: string;
  updated_at: string;
}

export interface PoolTable {
  id: Generated<number>;
  name: string;
  comment: string | null;
  type: string;
  content: string;
  primary_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface NasShareTable {
  id: Generated<number>;
  nas_id: number;
  pool_id: number | null;
  name: string;
  path: string;
  options: string | null;
  username: string | null;
  password_enc: string | null;
  file_count: Generated<number>;
  file_size_sum: Generated<number>;
  created_at: string;
  updated_at: string;
  health: Generated<ShareHealth>;
  last_tested_at: string | null;
  last_test_status: 'completed' | 'failed' | null;
  last_scanned_at: string | null;
  capacity_bytes: number | null;
  free_bytes: number | null;
  capacity_checked_at: string | null;
  /** JSON of the share's forecast (ShareForecast), null while there is too little history. */
  capacity_forecast: string | null;
  capacity_warning_percent: number | null;
  capacity_critical_percent: number | null;
}

export interface SnmpTrapTable {
  id: Generated<number>;
  activation: number;
  version: string;
  manager: string;
  community: string;
  severity_low: number;
  severity_high: number;
  created_at: string;
  updated_at: string;
  notify_type: Generated<string>;
  security_name: string | null;
  security_level: string | null;
  auth_protocol: string | null;
  /** Sealed like the community. */
  auth_passphrase: string | null;
  priv_protocol: string | null;
  /** Sealed like the community. */
  priv_passphrase: string | null;
}

export interface SnmpServerConfigurationTable {
  id: number;
  version: string;
  community: string;
  location: string;
  contact: string;
  updated_at: string;
  /** Null until the first start seeds the agent's settings (issue 24). */
  agent_enabled: number | null;
  agent_address: string | null;
  agent_port: number | null;
  /** The v3 users as one sealed JSON document; null: none. */
  users: string | null;
  engine_id: string | null;
  engine_boots: Generated<number>;
}

export interface UserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  admin: number;
  created_at: string;
}

export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  key_last4: string;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  owner_user_id: number | null;
  parent_key_id: number | null;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface JobTable {
  id: string;
  kind: string;
  status: string;
  nas_id: number | null;
  share_id: number | null;
  progress: number;
  total: number;
  message: string | null;
  steps: string;
  payload_enc: string | null;
  result: string | null;
  worker_id: string | null;
  heartbeat_at: string | null;
  requested_by: string;
  requester: string;
  schedule_id: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface CorsRuleTable {
  id: Generated<number>;
  origins: string;
  path: string;
  methods: string;
  created_at: string;
  updated_at: string;
}

export interface AuditEventTable {
  id: Generated<number>;
  at: string;
  actor_kind: string;
  actor_id: number | null;
  actor_name: string;
  via: string;
  client_address: string | null;
  request_id: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  resource_name: string | null;
  /** JSON of AuditChanges. */
  changes: string | null;
  outcome: string;
  count: Generated<number>;
  aggregate_key: string | null;
}

export interface ScheduleTable {
  id: Generated<number>;
  name: string;
  action: string;
  /** JSON array of share ids, when the target names shares one by one. */
  share_ids: string | null;
  pool_id: number | null;
  nas_id: number | null;
  all_shares: number;
  rrule: string;
  enabled: number;
  next_run_at: string | null;
  last_run_at: string | null;
  missed_count: Generated<number>;
  skipped_count: Generated<number>;
  created_at: string;
  updated_at: string;
  creator_user_id: number | null;
  creator_key_id: number | null;
  retry_at: string | null;
  last_error: string | null;
  not_started_count: Generated<number>;
}

export interface ScheduleRunTable {
  id: Generated<number>;
  schedule_id: number;
  due_at: string;
  started_at: string;
  after_share_id: Generated<number>;
  lease_owner: string | null;
  lease_until: string | null;
  finished_at: string | null;
  queued_count: Generated<number>;
  not_started_count: Generated<number>;
}

export interface ShareScanTable {
  id: Generated<number>;
  share_id: number;
  at: string;
  file_count: number;
  file_size_sum: number;
  duration_ms: number;
  capacity_bytes: number | null;
  free_bytes: number | null;
}

export interface ShareCapacitySampleTable {
  id: Generated<number>;
  share_id: number;
  at: string;
  capacity_bytes: number;
  free_bytes: number;
}

export interface AlertTable {
  id: Generated<number>;
  source: string;
  level: number;
  resource_type: string | null;
  resource_id: string | null;
  resource_name: string | null;
  message: string;
  raised_at: string;
  last_seen_at: string;
  cleared_at: string | null;
  dismissed_at: string | null;
  /** How many times the condition was seen while open: 1 means this sighting raised it. */
  sightings: Generated<number>;
  /** Source and resource while the alert is open, null once cleared: one open alert per condition. */
  open_key: string | null;
}

export interface AlertSettingTable {
  source: string;
  enabled: number;
  level: number;
  warning_percent: number | null;
  critical_percent: number | null;
  days: number | null;
}

export interface Database {
  schedules: ScheduleTable;
  schedule_runs: ScheduleRunTable;
  share_scans: ShareScanTable;
  share_capacity_samples: ShareCapacitySampleTable;
  alerts: AlertTable;
  alert_settings: AlertSettingTable;
  audit_events: AuditEventTable;
  cors_rules: CorsRuleTable;
  nas: NasTable;
  pools: PoolTable;
  nas_shares: NasShareTable;
  snmp_traps: SnmpTrapTable;
  snmp_server_configuration: SnmpServerConfigurationTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  settings: SettingTable;
  jobs: JobTable;
}
