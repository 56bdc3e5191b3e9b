import type { OperationId } from './operation-ids.js';

/**
 * One `@dms/sdk` call per operation, shown by the API reference as the operation's code sample
 * (`x-codeSamples`). The SDK's tests type-check every sample against the SDK, so a renamed
 * method or a wrong argument fails there, not in a reader's editor.
 */
const calls: Readonly<Record<OperationId, string>> = {
  testUnsavedNasShare: `const job = await dms.nasShares.test('nas1', {
  name: 'projects',
  path: 'projects/2024',
  username: 'backup',
  password: 's3cret',
});
const finished = await job.wait({
  onProgress: (status) => console.log(\`\${status.progress}/\${status.total}\`),
});`,
  showUnsavedNasShareTest: `const job = await dms.nasShares.followTest('nas1', '0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10');
console.log(job.status.status, job.status.steps);`,
  testNasShare: `const job = await dms.nasShares.retest(7);
const finished = await job.wait();`,
  showNasShareTest: `const job = await dms.nasShares.followRetest(7, '0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10');
const finished = await job.wait({ timeoutMs: 60_000 });`,
  scanNasShare: `const job = await dms.nasShares.scan(7);
const { file_count, file_size_sum } = await job.wait();`,
  showNasShareScan: `const job = await dms.nasShares.followScan(7, '0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10');
console.log(job.status.progress, job.status.total);`,
  listJobs: `// The failed scans of the last day, newest first:
const { count, jobs } = await dms.jobs.list({
  filter: { kind: eq('share_scan'), status: eq('failed'), created_at: gte('2025-01-14T09:00:00Z') },
});`,
  showJob: `const job = await dms.jobs.get('0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10');
// or until it has finished, seeing its progress:
const finished = await dms.jobs.follow(job.job_id, {
  onProgress: (job) => console.log(job.status, job.progress, job.file_count),
});`,
  listSchedules: `// The enabled schedules, the next one due first:
const { count, schedules } = await dms.schedules.list({
  filter: { enabled: eq(true) },
  sortBy: 'next',
});`,
  createSchedule: `// Scans the pool's shares every night at 02:00, Paris time:
const schedule = await dms.schedules.create({
  name: 'nightly-scan',
  action: 'scan',
  pool_id: 2,
  rrule: 'DTSTART;TZID=Europe/Paris:20250101T020000\\nRRULE:FREQ=DAILY',
});
console.log(schedule.next);`,
  showSchedule: `const schedule = await dms.schedules.get('nightly-scan');
console.log(schedule.next, schedule.missed_count, schedule.skipped_count);`,
  updateSchedule: `const schedule = await dms.schedules.update('nightly-scan', { enabled: false });`,
  deleteSchedule: `await dms.schedules.delete('nightly-scan');`,
  listAlerts: `// The open alerts no one has dismissed yet, newest first:
const { count, alerts } = await dms.alerts.list({
  filter: { cleared_at: isNull(), dismissed_at: isNull() },
});
for (const alert of alerts) console.log(alert.level, alert.source, alert.message);`,
  showAlert: `const alert = await dms.alerts.get(41);`,
  updateAlert: `const alert = await dms.alerts.dismiss(41);
// or take it back: await dms.alerts.undismiss(41)`,
  listAlertSettings: `const { alert_settings } = await dms.alertSettings.list();`,
  updateAlertSetting: `const setting = await dms.alertSettings.update('share_unreachable', { level: 5 });`,
  listNasShareScans: `// The share's last ten scans, newest first:
const { count, scans } = await dms.nasShares.scans(7, { limit: 10 });
for (const scan of scans) console.log(scan.at, scan.file_count, scan.file_size_sum);`,
  showCapacity: `const capacity = await dms.statistics.capacity({ days: 90 });
console.log(capacity.totals.file_size_sum, capacity.totals.growth.file_size_sum);`,
  listNasSharesByNas: `const { count, nas_shares } = await dms.nasShares.list({
  nasId: 'nas1',
  filter: { name: like('proj%') },
  sortBy: 'name:desc',
  limit: 50,
});`,
  createNasShare: `const share = await dms.nasShares.create('nas1', {
  name: 'projects',
  path: 'projects/2024',
  username: 'backup',
  password: 's3cret',
});`,
  showNasShareByNas: `const share = await dms.nasShares.get('projects', { nasId: 'nas1' });`,
  updateNasShareByNas: `const share = await dms.nasShares.update(
  'projects',
  { path: 'projects/2025' },
  { nasId: 'nas1' },
);`,
  deleteNasShareByNas: `await dms.nasShares.delete('projects', { nasId: 'nas1' });`,
  listNasShares: `// Every share not in a pool, page after page:
const shares = dms.nasShares.listAll({
  filter: { pool_id: isNull(), id: gt(10) },
});
for await (const share of shares) {
  console.log(share.name, share.file_count);
}`,
  showNasShare: `const share = await dms.nasShares.get(7);`,
  updateNasShare: `const share = await dms.nasShares.update(7, { options: 'domain=CORP', password: null });`,
  deleteNasShare: `await dms.nasShares.delete(7);`,
  listNasSharesByPool: `const { count, nas_shares } = await dms.nasShares.list({
  poolId: 'projects',
  filter: { nas_id: inList([1, 2]) },
  limit: 20,
  offset: 40,
});`,
  showNasShareByPool: `const share = await dms.nasShares.get(7, { poolId: 'projects' });`,
  updateNasShareByPool: `const share = await dms.nasShares.update(
  7,
  { name: 'projects-2024' },
  { poolId: 'projects' },
);`,
  deleteNasShareByPool: `await dms.nasShares.delete(7, { poolId: 'projects' });`,
  listNas: `const { count, nas } = await dms.nas.list({
  filter: { type: ne('local') },
  sortBy: ['name'],
});`,
  createNas: `const nas = await dms.nas.create({
  name: 'nas1',
  host: 'nas1.example.com',
  type: 'smb_v3',
});`,
  showNas: `const nas = await dms.nas.get('nas1');`,
  updateNas: `const nas = await dms.nas.update('nas1', { comment: 'moved to the second floor' });`,
  deleteNas: `await dms.nas.delete('nas1');`,
  listPools: `const { count, pools } = await dms.pools.list({ filter: { content: eq('nas') } });`,
  createPool: `const pool = await dms.pools.create({ name: 'projects', content: 'nas' });`,
  showPool: `const pool = await dms.pools.get('projects');`,
  updatePool: `const pool = await dms.pools.update('projects', { comment: 'active projects' });
await dms.pools.setShares('projects', [7, 8]);`,
  deletePool: `await dms.pools.delete('projects');`,
  listSnmpTraps: `const { count, traps } = await dms.snmp.traps.list({ filter: { activation: eq(1) } });`,
  createSnmpTrap: `const trap = await dms.snmp.traps.create({
  manager: 'nms.example.com:162',
  severity_low: 3,
});`,
  showSnmpTrap: `const trap = await dms.snmp.traps.get(3);`,
  updateSnmpTrap: `const trap = await dms.snmp.traps.update(3, { activation: 0 });`,
  deleteSnmpTrap: `await dms.snmp.traps.delete(3);`,
  testSnmpTrap: `const trap = await dms.snmp.traps.test(3);`,
  showSnmpServerConfiguration: `const configuration = await dms.snmp.serverConfiguration.get();`,
  updateSnmpServerConfiguration: `const configuration = await dms.snmp.serverConfiguration.update({
  location: 'server room 2',
});`,
  login: `// A client that sends the token of POST /auth/login:
const admin = await login('http://127.0.0.1:8080', 'admin', 'admin-password');
// or only the token: await dms.auth.login('admin', 'admin-password')`,
  showCurrentApiKey: `const me = await dms.apiKeys.current();`,
  showSettings: `const settings = await dms.settings.get();`,
  updateSettings: `const settings = await dms.settings.update({ jwt_enabled: true });`,
  listApiKeys: `const { count, api_keys } = await dms.apiKeys.list();`,
  createApiKey: `const { key } = await dms.apiKeys.create({
  name: 'backup',
  api_key_scopes: [{ controller: 'nas_shares', action: 'index' }],
});`,
  showApiKey: `const apiKey = await dms.apiKeys.get(4);`,
  updateApiKey: `const apiKey = await dms.apiKeys.update(4, {
  expires_at: '2027-01-01T00:00:00.000Z',
});`,
  deleteApiKey: `await dms.apiKeys.delete(4);`,
  listUsers: `const { count, users } = await dms.users.list({
  filter: { username: like('a%') },
  sortBy: 'created_at:desc',
});`,
  createUser: `const user = await dms.users.create({
  username: 'alice',
  password: 'a-long-password',
});`,
  showUser: `const user = await dms.users.get('alice');`,
  updateUser: `const user = await dms.users.update('alice', { admin: true });`,
  deleteUser: `await dms.users.delete('alice');`,
  listCorsRules: `const { count, cors_rules } = await dms.corsRules.list();`,
  createCorsRule: `const rule = await dms.corsRules.create({
  origins: ['https://app.example.com'],
  path: '/api/v2/nas_shares*',
  methods: ['GET'],
});`,
  showCorsRule: `const rule = await dms.corsRules.get(1);`,
  updateCorsRule: `const rule = await dms.corsRules.update(1, { methods: ['GET', 'PUT'] });`,
  deleteCorsRule: `await dms.corsRules.delete(1);`,
  listAuditEvents: `// Who changed share 7, and how:
const events = dms.auditEvents.listAll({
  filter: { resource_type: eq('nas_shares'), resource_id: eq('7') },
});
for await (const event of events) {
  console.log(event.at, event.actor.name, event.via, event.action, event.changes);
}`,
};

/** What a sample may import beside createClient: the filter helpers and login. */
const helpers = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'inList', 'notInList', 'like', 'notLike', 'isNull', 'login'];

/** The import of what the call uses, and a client. */
function setup(call: string): string {
  const used = helpers.filter((name) => new RegExp(`\\b${name}\\(`).test(call));
  return `import { ${['createClient', ...used].join(', ')} } from '@dms/sdk';

const dms = createClient({
  baseUrl: 'http://127.0.0.1:8080',
  auth: { apiKey: 'YOUR_API_KEY' },
});
`;
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The operation's `x-codeSamples`: the client set-up, then the call. */
export function sdkCodeSamples(operationId: OperationId): CodeSample[] {
  return [{ lang: 'TypeScript', label: '@dms/sdk', source: `${setup(calls[operationId])}\n${calls[operationId]}\n` }];
}
