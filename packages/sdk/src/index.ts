export { createClient, login, type Auth, type ClientOptions, type DmsClient, type Singleton } from './client.js';
export {
  DmsApiError,
  DmsJobFailedError,
  DmsNetworkError,
  DmsRedirectError,
  isDmsApiError,
  type DmsApiErrorInit,
  type DmsErrorKind,
  type DmsNetworkErrorInit,
  type DmsRedirectErrorInit,
} from './errors.js';
export {
  eq,
  ne,
  gt,
  gte,
  lt,
  lte,
  inList,
  notInList,
  like,
  notLike,
  iLike,
  notILike,
  isNull,
  FilterExpression,
  type Filter,
  type FilterScalar,
  type FilterValue,
} from './filters.js';
export type { JobHandle, ProgressOptions, WaitOptions } from './jobs.js';
export type { RetryOptions } from './transport.js';
export type { CrudResource, ListOptions, SortKey } from './resources/crud.js';
export type { NasSharesResource, NasShareListOptions, ShareScanListOptions, ShareScope } from './resources/nas-shares.js';
export type { JobsResource, JobListOptions } from './resources/jobs.js';
export type { AuditEventsResource, AuditEventListOptions } from './resources/audit-events.js';
export type { SchedulesResource, ScheduleListOptions } from './resources/schedules.js';
export type { AlertsResource, AlertListOptions } from './resources/alerts.js';
export type { AlertSettingsResource } from './resources/alert-settings.js';
export type { RolesResource } from './resources/roles.js';
export type { NotificationChannelsResource, NotificationDeliveryListOptions } from './resources/notification-channels.js';
export type { StatisticsResource, CapacityOptions } from './resources/statistics.js';
export type { SessionsResource, SessionListOptions } from './resources/sessions.js';
export type { TotpResource } from './resources/totp.js';
export type * from './types.js';
export type { paths, components, operations } from './generated/openapi.js';
