import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];

/** An operation of the API description, by its operationId. */
export type OperationId = keyof operations;

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type ResponsesOf<Id extends OperationId> = operations[Id]['responses'];

/** The JSON body an operation takes. */
export type BodyOf<Id extends OperationId> = JsonOf<NonNullable<operations[Id]['requestBody']>>;

/** The JSON body of an operation's 200 or 201 answer. */
export type ResultOf<Id extends OperationId> = {
  [Status in keyof ResponsesOf<Id>]: Status extends 200 | 201 ? JsonOf<ResponsesOf<Id>[Status]> : never;
}[keyof ResponsesOf<Id>];

type QueryOf<Id extends OperationId> = NonNullable<operations[Id]['parameters']['query']>;

/** The attributes a list operation filters on: its query parameters but paging and sorting. */
export type FilterFieldOf<Id extends OperationId> = Exclude<keyof QueryOf<Id>, 'limit' | 'offset' | 'page' | 'per_page' | 'sort_by'> & string;

/** Every `sort_by` term a list operation takes (`name`, `name:desc`, `name:ci` …), as the API description enumerates them. */
export type SortTermOf<Id extends OperationId> = QueryOf<Id> extends { sort_by?: ReadonlyArray<infer Term> } ? Term & string : never;
type AttributeOf<Term extends string> = Term extends `${infer Attribute}:${string}` ? Attribute : Term;
/** The attributes a list operation sorts on: `sortBy: 'password'` is a compile error where the server answers 400. */
export type SortFieldOf<Id extends OperationId> = AttributeOf<SortTermOf<Id>>;

export type Nas = Schemas['nas'];
export type NasCreate = BodyOf<'createNas'>;
export type NasUpdate = BodyOf<'updateNas'>;
export type NasCollection = Schemas['nas_collection'];
export type Pool = Schemas['pool'];
export type PoolCreate = BodyOf<'createPool'>;
export type PoolUpdate = BodyOf<'updatePool'>;
export type PoolCollection = Schemas['pool_collection'];
export type NasShare = Schemas['nas_share'];
export type NasShareCreate = BodyOf<'createNasShare'>;
export type NasShareUpdate = BodyOf<'updateNasShare'>;
export type NasShareCollection = Schemas['nas_share_collection'];
export type ActiveJobStatus = Schemas['active_job_status'];
export type Job = Schemas['job'];
export type JobCollection = Schemas['job_collection'];
export type AuditEvent = Schemas['audit_event'];
export type AuditEventCollection = Schemas['audit_event_collection'];
export type Schedule = Schemas['schedule'];
export type ScheduleCreate = BodyOf<'createSchedule'>;
export type ScheduleUpdate = BodyOf<'updateSchedule'>;
export type ScheduleCollection = Schemas['schedule_collection'];
export type Alert = Schemas['alert'];
export type AlertCollection = Schemas['alert_collection'];
/** What dms keeps watch on: share_unreachable, scan_failed, schedule_missed, … */
export type AlertSource = Alert['source'];
export type AlertSetting = Schemas['alert_setting'];
export type AlertSettingUpdate = BodyOf<'updateAlertSetting'>;
export type AlertSettingCollection = Schemas['alert_setting_collection'];
export type NotificationChannel = Schemas['notification_channel'];
/** The create's answer: a webhook's `secret` (`whsec_…`) is in it, once. */
export type NotificationChannelCreated = Schemas['notification_channel_created'];
export type NotificationChannelCreate = BodyOf<'createNotificationChannel'>;
export type NotificationChannelUpdate = BodyOf<'updateNotificationChannel'>;
export type NotificationChannelCollection = Schemas['notification_channel_collection'];
export type NotificationChannelTest = Schemas['notification_channel_test'];
export type NotificationDelivery = Schemas['notification_delivery'];
export type NotificationDeliveryCollection = Schemas['notification_delivery_collection'];
export type Silence = Schemas['silence'];
export type SilenceCreate = BodyOf<'createSilence'>;
export type SilenceUpdate = BodyOf<'updateSilence'>;
export type SilenceCollection = Schemas['silence_collection'];
export type ShareScan = Schemas['share_scan'];
export type ShareScanCollection = Schemas['share_scan_collection'];
export type ShareScanDetail = Schemas['share_scan_detail'];
export type ScanAnalytics = NonNullable<ShareScanDetail['analytics']>;
export type ScanComparison = Schemas['scan_comparison'];
export type Capacity = Schemas['capacity'];
export type StatisticsReport = Schemas['statistics_report'];
export type Trap = Schemas['trap'];
export type TrapCreate = BodyOf<'createSnmpTrap'>;
export type TrapUpdate = BodyOf<'updateSnmpTrap'>;
export type TrapCollection = Schemas['trap_collection'];
export type SnmpServerConfiguration = Schemas['server_configuration'];
export type SnmpServerConfigurationUpdate = BodyOf<'updateSnmpServerConfiguration'>;
export type Settings = Schemas['settings'];
export type SettingsUpdate = BodyOf<'updateSettings'>;
export type ApiKey = Schemas['api_key'];
export type ApiKeyWithKey = Schemas['api_key_with_key'];
export type ApiKeyCreate = BodyOf<'createApiKey'>;
export type ApiKeyUpdate = BodyOf<'updateApiKey'>;
export type ApiKeyCollection = Schemas['api_key_collection'];
export type CurrentCredential = Schemas['current_credential'];
export type User = Schemas['user'];
export type UserCreate = BodyOf<'createUser'>;
export type UserUpdate = BodyOf<'updateUser'>;
export type UserCollection = Schemas['user_collection'];
/** A built-in (`admin`, `operator`, `auditor`, `viewer`) or custom role and its scopes. */
export type Role = Schemas['role'];
export type RoleCreate = BodyOf<'createRole'>;
export type RoleUpdate = BodyOf<'updateRole'>;
export type RoleCollection = Schemas['role_collection'];
export type CorsRule = Schemas['cors_rule'];
export type CorsRuleCreate = BodyOf<'createCorsRule'>;
export type CorsRuleUpdate = BodyOf<'updateCorsRule'>;
export type CorsRuleCollection = Schemas['cors_rule_collection'];
export type JwtToken = Schemas['jwt_token'];
export type TotpStatus = Schemas['totp_status'];
export type TotpEnrollment = Schemas['totp_enrollment'];
export type TotpRecoveryCodes = Schemas['totp_recovery_codes'];
/** What a TOTP user sends beside its password: a code of its app, or one of its recovery codes. */
export type SecondFactor = BodyOf<'disableTotp'>;
export type Session = Schemas['session'];
export type SessionCollection = Schemas['session_collection'];
export type ModelError = Schemas['model_error'];
export type AttributeError = Schemas['attribute_error'];

/** A path reference: a numeric id, or a unique name where the API takes one. */
export type Ref = number | string;

/** What every call takes. */
export interface CallOptions {
  /** Aborts the call, its retries and their waits. */
  signal?: AbortSignal;
}
