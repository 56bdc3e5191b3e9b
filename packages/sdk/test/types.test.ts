import { describe, expectTypeOf, it } from 'vitest';
import {
  createClient,
  gt,
  isNull,
  like,
  type Alert,
  type AlertSource,
  type AuditEvent,
  type Filter,
  type Job,
  type NasShare,
  type NasShareListOptions,
  type NotificationChannel,
  type Schedule,
  type ShareScanDetail,
  type SortFieldOf,
  type SortTermOf,
} from '../src/index.js';

// Compile-time tests: `npm run typecheck` fails when a `@ts-expect-error` line compiles. The
// client is never called (the lambdas below are not run), so no server is needed.
const dms = createClient({ baseUrl: 'http://127.0.0.1:9', auth: { apiKey: 'unused' } });

describe('types generated from the API description', () => {
  it('a share from get has file_count: number', () => {
    expectTypeOf(dms.nasShares.get).returns.resolves.toHaveProperty('file_count').toEqualTypeOf<number>();
    expectTypeOf<NasShare['file_size_sum']>().toEqualTypeOf<number>();
    expectTypeOf<NasShare['pool_id']>().toEqualTypeOf<number | null>();
    expectTypeOf(dms.nas.get)
      .returns.resolves.toHaveProperty('type')
      .toEqualTypeOf<'smb_v1' | 'smb_v2_1' | 'smb_v3' | 'nfs_v3' | 'nfs_v4' | 'storenext_v5' | 'local'>();
  });

  it('create refuses an unknown field at compile time', () => {
    const valid = () => dms.nasShares.create(1, { name: 'projects', path: 'projects', options: null });
    // @ts-expect-error `nmae` is not a field of a share
    const typo = () => dms.nasShares.create(1, { name: 'projects', path: 'projects', nmae: 'x' });
    // @ts-expect-error `path` is required
    const missing = () => dms.nasShares.create(1, { name: 'projects' });
    // @ts-expect-error `file_count` is read-only: not a field of the create body
    const readOnly = () => dms.nasShares.create(1, { name: 'projects', path: 'p', file_count: 3 });
    // @ts-expect-error a NAS type outside the enum
    const badType = () => dms.nas.create({ name: 'n', host: 'h', type: 'smb_v4' });
    expectTypeOf([valid, typo, missing, readOnly, badType]).items.toBeFunction();
  });

  it('filter takes only the fields the list filters on', () => {
    expectTypeOf<keyof Filter<'name'>>().toEqualTypeOf<'name'>();
    const ok = () => dms.nasShares.list({ filter: { name: like('proj%'), nas_id: 1, pool_id: null, id: [gt(1), 4] } });
    // @ts-expect-error a share's password is not filterable
    const secret = () => dms.nasShares.list({ filter: { password: 'x' } });
    // @ts-expect-error file_count is sortable but not filterable
    const notFilterable = () => dms.nasShares.list({ filter: { file_count: 1 } });
    // @ts-expect-error a list under a NAS does not filter on nas_id
    const underNas = () => dms.nasShares.list({ nasId: 1, filter: { nas_id: 1 } });
    // @ts-expect-error a NAS is listed by its own fields
    const otherResource = () => dms.nas.list({ filter: { path: 'x' } });
    // @ts-expect-error sort keys are the item's attributes
    const badSort = () => dms.nas.list({ sortBy: 'hots:desc' });
    expectTypeOf([ok, secret, notFilterable, underNas, otherResource, badSort]).items.toBeFunction();
    expectTypeOf<NasShareListOptions>().toMatchTypeOf<{ limit?: number; offset?: number }>();
  });

  it('sortBy takes exactly the attributes the server sorts each list on (issue 26 item 4)', () => {
    const valid = () => dms.nasShares.list({ sortBy: ['name:desc', 'file_size_sum', 'last_scanned_at:asc'] });
    const underPool = () => dms.nasShares.list({ poolId: 2, sortBy: 'health:desc' });
    const nas = () => dms.nas.list({ sortBy: 'price:desc' });
    // @ts-expect-error a share's password is not sortable: the server answers 400
    const password = () => dms.nasShares.list({ sortBy: 'password' });
    // @ts-expect-error nor in a list of keys
    const passwordLater = () => dms.nasShares.list({ nasId: 1, sortBy: ['name', 'password:desc'] });
    // @ts-expect-error last_test_status is a field of a share, not a list attribute
    const notSortable = () => dms.nasShares.list({ sortBy: 'last_test_status' });
    // @ts-expect-error a trap target's community is a secret: not sortable
    const community = () => dms.snmp.traps.list({ sortBy: 'community' });
    // @ts-expect-error an API key's hash is not an attribute of the list
    const keyHash = () => dms.apiKeys.list({ sortBy: 'key_hash' });
    expectTypeOf([valid, underPool, nas, password, passwordLater, notSortable, community, keyHash]).items.toBeFunction();
    expectTypeOf<SortFieldOf<'listNasShares'>>().toEqualTypeOf<
      'id' | 'nas_id' | 'pool_id' | 'name' | 'path' | 'options' | 'username' | 'file_count' | 'file_size_sum' | 'health' | 'last_tested_at' | 'last_scanned_at'
    >();
    // The terms as the document enumerates them: `:ci` after a text attribute only.
    expectTypeOf<'name:desc:ci'>().toExtend<SortTermOf<'listNas'>>();
    expectTypeOf<'id:ci'>().not.toExtend<SortTermOf<'listNas'>>();
    // A NAS's price is a decimal: it filters and sorts as a number, with no `:ci` (issue 26 item 4).
    expectTypeOf<'price:desc'>().toExtend<SortTermOf<'listNas'>>();
    expectTypeOf<'price:ci'>().not.toExtend<SortTermOf<'listNas'>>();
    const byPrice = () => dms.nas.list({ filter: { price: gt('100') }, sortBy: 'price:desc' });
    expectTypeOf(byPrice).toBeFunction();
  });

  it('jobs and audit events filter on their list attributes only', () => {
    const jobs = () =>
      dms.jobs.list({ filter: { kind: 'share_scan', status: 'working', requester: 'scheduler', nas_share_id: gt(1) }, sortBy: 'started_at:desc' });
    const audit = () => dms.auditEvents.listAll({ filter: { actor: 'alice', action: 'update', resource_type: 'nas_shares', at: gt('2025-01-01') } });
    // @ts-expect-error progress is not a filter of the job list
    const notFilterable = () => dms.jobs.list({ filter: { progress: 1 } });
    // @ts-expect-error an audit event's changes are not filterable
    const changes = () => dms.auditEvents.list({ filter: { changes: 'x' } });
    expectTypeOf([jobs, audit, notFilterable, changes]).items.toBeFunction();
    expectTypeOf(dms.jobs.get).returns.resolves.toEqualTypeOf<Job>();
    expectTypeOf<Job['kind']>().toEqualTypeOf<'share_test' | 'share_scan'>();
    expectTypeOf<AuditEvent['via']>().toEqualTypeOf<'rest' | 'cli' | 'console' | 'scheduler'>();
  });

  it('issue 43: a scan answers its analytics, two scans their comparison, the report its shares', () => {
    expectTypeOf(dms.nasShares.getScan).returns.resolves.toEqualTypeOf<ShareScanDetail>();
    expectTypeOf<NonNullable<ShareScanDetail['analytics']>['top_directories'][number]>().toEqualTypeOf<{ path: string; bytes: number; files: number }>();
    expectTypeOf<NonNullable<ShareScanDetail['analytics']>['age_histogram'][number]['bucket']>().toEqualTypeOf<
      '< 30 d' | '30-90 d' | '90 d-1 y' | '1-3 y' | '> 3 y'
    >();
    expectTypeOf(dms.nasShares.compareScans)
      .returns.resolves.toHaveProperty('top_growers')
      .items.toEqualTypeOf<{ path: string; bytes_delta: number; files_delta: number }>();
    expectTypeOf(dms.statistics.report).returns.resolves.toHaveProperty('shares').items.toHaveProperty('days_until_full').toEqualTypeOf<number | null>();
    // @ts-expect-error compare needs both scans
    const oneSide = () => dms.nasShares.compareScans(7, { from: 1 });
    expectTypeOf(oneSide).toBeFunction();
  });

  it('schedules, alerts, alert settings, scans and capacity take what their operations take', () => {
    const schedules = () => dms.schedules.list({ filter: { action: 'scan', enabled: true, next: gt('2025-01-01') }, sortBy: ['next', 'created_at:desc'] });
    // @ts-expect-error a schedule's rule is not a list attribute
    const byRule = () => dms.schedules.list({ filter: { rrule: 'x' } });
    // @ts-expect-error nor its shares: sort keys are the list's attributes, not every field
    const sortShares = () => dms.schedules.list({ sortBy: 'nas_share_ids' });
    // @ts-expect-error an action outside the enum
    const badAction = () => dms.schedules.create({ name: 'n', action: 'copy', all_shares: true, rrule: 'DTSTART:20250101T000000Z\nRRULE:FREQ=DAILY' });
    // @ts-expect-error next is read-only
    const readOnly = () => dms.schedules.update(1, { next: '2025-01-01T00:00:00Z' });
    const alerts = () => dms.alerts.listAll({ filter: { source: 'share_unreachable', cleared_at: isNull(), level: gt(3) }, sortBy: 'raised_at:desc' });
    // @ts-expect-error an alert's message is not filterable
    const byMessage = () => dms.alerts.list({ filter: { message: 'x' } });
    // @ts-expect-error a source outside the catalogue
    const noSource = () => dms.alertSettings.update('disk_full', { level: 2 });
    // @ts-expect-error a level is a number
    const badLevel = () => dms.alertSettings.update('scan_failed', { level: 'high' });
    const damped = () => dms.alertSettings.update('share_unreachable', { raise_after_seconds: null, clear_after_seconds: 60 });
    // @ts-expect-error a hold is a number of seconds
    const badHold = () => dms.alertSettings.update('share_unreachable', { raise_after_seconds: '5m' });
    const scans = () => dms.nasShares.scans(7, { filter: { file_count: gt(0) }, sortBy: 'at:asc' });
    // @ts-expect-error a scan's share is its path, not a filter
    const byShare = () => dms.nasShares.scans(7, { filter: { nas_share_id: 7 } });
    const capacity = () => dms.statistics.capacity({ days: 7 });
    expectTypeOf([
      schedules,
      byRule,
      sortShares,
      badAction,
      readOnly,
      alerts,
      byMessage,
      noSource,
      badLevel,
      damped,
      badHold,
      scans,
      byShare,
      capacity,
    ]).items.toBeFunction();
    expectTypeOf(dms.schedules.get).returns.resolves.toEqualTypeOf<Schedule>();
    expectTypeOf(dms.alerts.dismiss).returns.resolves.toEqualTypeOf<Alert>();
    expectTypeOf<Schedule['action']>().toEqualTypeOf<'test' | 'scan'>();
    expectTypeOf<AlertSource>().toEqualTypeOf<
      | 'share_unreachable'
      | 'scan_failed'
      | 'schedule_missed'
      | 'schedule_stopped'
      | 'schedule_run_incomplete'
      | 'api_key_expiring'
      | 'storage_degraded'
      | 'job_queue_saturated'
      | 'trap_target_unreachable'
      | 'notification_channel_failing'
      | 'share_nearly_full'
      | 'share_full_soon'
    >();
    // Notification channels: a webhook's secret only in the create's answer; digests named; deliveries typed.
    expectTypeOf(dms.notificationChannels.create).returns.resolves.toHaveProperty('secret').toEqualTypeOf<string | undefined>();
    expectTypeOf<NotificationChannel>().not.toHaveProperty('secret');
    expectTypeOf<NotificationChannel['type']>().toEqualTypeOf<'webhook' | 'email' | 'ntfy' | 'slack' | 'discord' | 'teams' | 'syslog' | 'alertmanager'>();
    expectTypeOf(dms.notificationChannels.test).returns.resolves.toHaveProperty('outcome').toEqualTypeOf<'delivered' | 'failed'>();
    const byOutcome = () => dms.notificationChannels.deliveries('ops', { filter: { outcome: 'retrying' }, sortBy: 'at:desc' });
    const hourly = () => dms.notificationChannels.create({ name: 'n', type: 'slack', digest: 'hourly', settings: { url: 'https://example.com' } });
    // @ts-expect-error hourly, daily or immediately (docs/decisions/173-notification-digests.md)
    const weekly = () => dms.notificationChannels.create({ name: 'n', type: 'slack', digest: 'weekly', settings: { url: 'https://example.com' } });
    expectTypeOf([byOutcome, hourly, weekly]).items.toBeFunction();
    expectTypeOf<NotificationChannel['digest_hour']>().toEqualTypeOf<number>();
    // Silences: matchers typed, the alert's flag read-only in answers.
    expectTypeOf(dms.silences.create).parameter(0).toHaveProperty('matchers');
    expectTypeOf<Alert['silenced']>().toEqualTypeOf<boolean>();
    expectTypeOf<NasShare['health']>().toEqualTypeOf<'ok' | 'unreachable' | 'unknown'>();
    expectTypeOf<NasShare['last_scanned_at']>().toEqualTypeOf<string | null>();
  });
});
