import type { CoreDeps } from './core-deps.js';
import { hasAdminRights, ownerUserIdOf, type Principal } from '../scopes/principal.js';
import type { PendingCondition } from '../ports/alert-pending-store.js';
import type { Stores } from '../ports/storage.js';
import type { AlertRecord, AlertSettingRecord, AlertSighting, AlertStore } from '../ports/alert-store.js';
import type { AuditResource } from '../domain/audit-event.js';
import { authorize, authorizeAdmin } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import {
  alertListSpec,
  alertSettingUpdateSchema,
  alertSourceCatalogue,
  alertSources,
  alertThresholds,
  alertUpdateSchema,
  type AlertThresholdField,
  type Alert,
  type AlertSetting,
  type AlertSource,
} from '../domain/alert.js';
import { alertEvent } from '../domain/events.js';
import { capacityDefaults } from '../defaults.js';
import type { Severity } from '../domain/trap.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { newestFirst } from '../list-query/newest-first.js';
import { findByNumericId } from './resolve-ref.js';
import { alertMessage, enqueueNotification } from '../notifications/notification-outbox.js';
import { silencesMatching } from './silence-match.js';
import { auditResource, describeChanges, purgeInBatches, type AuditTrail } from './audit-trail.js';

/** Lets the event loop turn once (what is ready on sockets and timers runs), then resolves. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What a raise or clear did, told once its transaction committed. */
interface Outcome {
  alert: AlertRecord;
  queued: boolean;
  announce: { name: 'alert_raised' | 'alert_cleared'; text: string } | undefined;
}

const conditionOf = (resource: AuditResource | null) => ({
  resource_type: resource?.type ?? null,
  resource_id: resource?.id ?? null,
  resource_name: resource?.name ?? null,
});

/** Held since `since` for `holdSeconds`: due now. */
const isDue = (since: string, holdSeconds: number, now: Date) => now.getTime() - Date.parse(since) >= holdSeconds * 1000;

export function presentAlert(record: AlertRecord): Alert {
  const { resource_type, resource_id, resource_name, ...rest } = record;
  return { ...rest, resource: resource_type === null ? null : { type: resource_type, id: resource_id, name: resource_name } };
}

/**
 * Alerts as TrueNAS keeps them (docs/decisions/091-alerts.md): a condition raised once when it starts, updated
 * while it lasts, cleared when it ends; each raise and clear is an event (and so a trap, at the
 * alert's level). Sources report what they see through `sight` and `clear`.
 */
export class AlertService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    /** Notifications were queued with a raise, change or clear: the dispatcher sends them now. */
    private readonly notificationsQueued: () => void = () => {},
  ) {}

  /**
   * A source sees its condition now: raised (and announced) when new, updated when open; nothing
   * when the source is off. `raise` lifts the level above the setting's (at most 5): a condition
   * that has grown worse, as a share past `critical_percent`. A new condition is first held for
   * the setting's `raise_after_seconds` (null: `automaticHoldSeconds`, the source's own default;
   * docs/decisions/172-alert-damping.md): raised once it has lasted that long, by a later
   * sighting or by the sweep (`raiseAndClearDue`).
   */
  async sight(source: AlertSource, resource: AuditResource | null, message: string, raise = 0, automaticHoldSeconds = 0): Promise<void> {
    const setting = await this.setting(source);
    if (!setting.enabled) return;
    const at = this.deps.clock();
    const hold = setting.raise_after_seconds ?? automaticHoldSeconds;
    const sighting: AlertSighting = { source, level: Math.min(5, setting.level + raise) as Severity, ...conditionOf(resource), message, at: at.toISOString() };
    await this.commit(at, async (stores) => {
      const { resource_type: type, resource_id: id } = sighting;
      if (hold > 0 && !(await stores.alerts.findOpen(source, type, id))) {
        const held = await stores.alertPending.hold({ ...sighting, kind: 'raise', last_seen_at: sighting.at, hold_seconds: hold });
        if (!isDue(held.first_seen_at, hold, at)) return undefined;
        sighting.since = held.first_seen_at;
      }
      // Seen now: nothing is held any longer (a pending clear is called off).
      await stores.alertPending.release(source, type, id);
      return this.raiseNow(stores, sighting, at);
    });
  }

  /**
   * A source sees its condition over: a held raise is dropped (nothing was raised or sent); the
   * open alert, if any, is cleared (and announced) once the condition has been gone for the
   * setting's `clear_after_seconds`, by a later clear or by the sweep. `immediately`: whatever
   * the setting (the source turned off, the resource deleted).
   */
  async clear(source: AlertSource, resource: AuditResource | null, immediately = false): Promise<void> {
    const at = this.deps.clock();
    const hold = immediately ? 0 : (await this.setting(source)).clear_after_seconds;
    const { resource_type: type, resource_id: id } = conditionOf(resource);
    await this.commit(at, async (stores) => {
      if (hold > 0) {
        // A held raise is dropped; a held clear stays, to count from its first sighting.
        await stores.alertPending.release(source, type, id, 'raise');
        const open = await stores.alerts.findOpen(source, type, id);
        if (!open) return undefined;
        const { level, message, resource_name } = open;
        const held = await stores.alertPending.hold({
          kind: 'clear',
          source,
          resource_type: type,
          resource_id: id,
          resource_name,
          message,
          level,
          last_seen_at: at.toISOString(),
          hold_seconds: hold,
        });
        if (!isDue(held.first_seen_at, hold, at)) return undefined;
      }
      await stores.alertPending.release(source, type, id);
      return this.clearNow(stores, source, type, id, at);
    });
  }

  /**
   * The sweep: raises held conditions that have lasted their `raise_after_seconds` and clears
   * alerts whose condition has been gone for `clear_after_seconds`, though no source saw them
   * since. Each is claimed by deleting its row, so one replica acts on it.
   */
  async raiseAndClearDue(): Promise<void> {
    const at = this.deps.clock();
    const held = await this.deps.storage.alertPending.list();
    if (held.length === 0) return;
    const saved = new Map((await this.deps.storage.alerts.settings()).map((setting) => [setting.source, setting]));
    for (const condition of held) {
      const setting = this.withDefault(condition.source, saved.get(condition.source));
      const hold = condition.kind === 'raise' ? (setting.raise_after_seconds ?? condition.hold_seconds) : setting.clear_after_seconds;
      if (setting.enabled && !isDue(condition.first_seen_at, hold, at)) continue;
      const { source, resource_type: type, resource_id: id } = condition;
      await this.commit(at, async (stores) => {
        const claimed = await stores.alertPending.release(source, type, id, condition.kind);
        if (!claimed || !setting.enabled) return undefined;
        if (claimed.kind === 'clear') return this.clearNow(stores, source, type, id, at);
        const { resource_name, message, level, first_seen_at: since, last_seen_at: seen } = claimed;
        return this.raiseNow(stores, { source, resource_type: type, resource_id: id, resource_name, message, level, at: seen, since }, at);
      });
    }
  }

  /** What is held now (a sweep drops those about deleted resources). */
  held(source: AlertSource): Promise<PendingCondition[]> {
    return this.deps.storage.alertPending.list(source);
  }

  /** Drops what is held about a resource (deleted): it is neither raised nor cleared later. */
  async release(source: AlertSource, resource: AuditResource | null): Promise<void> {
    const { resource_type: type, resource_id: id } = conditionOf(resource);
    await this.deps.storage.alertPending.release(source, type, id);
  }

  /**
   * Opens or updates the alert, and queues what a channel is told: a raise, or a change of level;
   * nothing while a silence holds it. A silence over with the alert still open: told once, as
   * raised, by whoever claims it first (docs/decisions/171-silences.md).
   */
  private async raiseNow(stores: Stores, sighting: AlertSighting, at: Date): Promise<Outcome> {
    const { source, resource_type: type, resource_id: id } = sighting;
    const silenced = (await silencesMatching(stores, await stores.silences.activeAt(at.toISOString()), sighting)).length > 0;
    const silenceOver = !silenced && (await stores.alerts.unsilence(source, type, id)) !== undefined;
    const sighted = await stores.alerts.sight({ ...sighting, silenced });
    const kind = sighted.raised || silenceOver ? 'alert.raised' : sighted.previousLevel !== sighted.alert.level ? 'alert.updated' : undefined;
    const queued = kind !== undefined && !silenced;
    if (queued) await enqueueNotification(stores, alertMessage(kind, sighted.alert, this.eventId(), at, sighted.previousLevel), at);
    const told = (sighted.raised || silenceOver) && !silenced;
    return { alert: sighted.alert, queued, announce: told ? { name: 'alert_raised', text: `${source}: ${sighting.message}` } : undefined };
  }

  /** Clears the open alert and tells it, unless a silence holds it (an `until_cleared` silence that held it ends with it). */
  private async clearNow(stores: Stores, source: AlertSource, type: string | null, id: string | null, at: Date): Promise<Outcome | undefined> {
    const record = await stores.alerts.clear(source, type, id, at.toISOString());
    if (!record) return undefined;
    const holding = await silencesMatching(stores, await stores.silences.activeAt(at.toISOString()), record);
    if (holding.length === 0) {
      await enqueueNotification(stores, alertMessage('alert.cleared', record, this.eventId(), at), at);
      return { alert: record, queued: true, announce: { name: 'alert_cleared', text: `${source} cleared: ${record.message}` } };
    }
    const untilCleared = holding.filter((silence) => silence.until_cleared).map((silence) => silence.id);
    await stores.silences.endUntilCleared(untilCleared, at.toISOString());
    if (!record.silenced)
      await stores.alerts.markSilenced(
        record.id,
        holding.map((silence) => silence.id),
        at.toISOString(),
      );
    return { alert: { ...record, silenced: true }, queued: false, announce: undefined };
  }

  /**
   * The alert and its notifications commit together (docs/decisions/168-notification-deliveries.md);
   * told once committed. Each such transaction waits for a turn of the event loop first: on
   * SQLite a transaction resolves without leaving the microtask queue, so a run of raises (a
   * sweep, a burst) would hold the loop to its end, and the dispatcher, on timers and sockets,
   * send nothing meanwhile (docs/decisions/184-notifications-share-the-loop.md).
   */
  private async commit(at: Date, work: (stores: Stores) => Promise<Outcome | undefined>): Promise<void> {
    await nextTurn();
    const outcome = await this.deps.storage.transaction(work);
    if (!outcome) return;
    if (outcome.queued) this.notificationsQueued();
    if (outcome.announce) this.announce(outcome.announce.name, outcome.alert, outcome.announce.text, at);
  }

  /**
   * Looks at the open alerts against the silences active now: marks those a silence holds, and
   * tells once (as raised) each whose silence is over, claimed in storage so one replica of all
   * tells it. Run by the alert sweep and after a silence changes.
   */
  async reviewSilences(): Promise<void> {
    const at = this.deps.clock();
    const { storage } = this.deps;
    const active = await storage.silences.activeAt(at.toISOString());
    const over: AlertRecord[] = [];
    for (const alert of await storage.alerts.openAll()) {
      const holding = await silencesMatching(storage, active, alert);
      if (holding.length > 0 && !alert.silenced)
        await storage.alerts.markSilenced(
          alert.id,
          holding.map((silence) => silence.id),
          at.toISOString(),
        );
      if (holding.length === 0 && alert.silenced) over.push(alert);
    }
    let told = 0;
    for (const alert of over) {
      const claimed = await storage.transaction(async (stores) => {
        const record = await stores.alerts.unsilence(alert.source, alert.resource_type, alert.resource_id);
        if (record) await enqueueNotification(stores, alertMessage('alert.raised', record, this.eventId(), at), at);
        return record;
      });
      if (!claimed) continue;
      told += 1;
      this.announce('alert_raised', claimed, `${claimed.source}: ${claimed.message}`, at);
    }
    if (told > 0) this.notificationsQueued();
  }

  /** A new event's id: a webhook's `webhook-id`, the same on every channel. */
  private eventId(): string {
    return `evt_${this.deps.newId()}`;
  }

  /** The open alerts of a source, for a sweep to clear what it no longer sees. */
  open(source: AlertSource): Promise<AlertRecord[]> {
    return this.deps.storage.alerts.open(source);
  }

  /** Open alerts by source and level, for `/metrics` (whose route admits admins only). */
  countOpen(): ReturnType<AlertStore['countOpen']> {
    return this.deps.storage.alerts.countOpen();
  }

  /** GET /alerts: an alert about another user's API key is not listed to a reader who is not an admin (decision 114). */
  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; alerts: Alert[] }> {
    authorize(principal, 'alerts', 'index');
    const reader = hasAdminRights(principal) ? undefined : { keyOwnerUserId: ownerUserIdOf(principal) };
    const page = await this.deps.storage.alerts.list(newestFirst(parseListQuery(raw, alertListSpec), 'raised_at'), reader);
    return { count: page.count, alerts: page.items.map(presentAlert) };
  }

  async show(principal: Principal, ref: string): Promise<Alert> {
    authorize(principal, 'alerts', 'show');
    return presentAlert(await this.readable(principal, ref));
  }

  /**
   * PUT /alerts/{id} {"dismissed": true|false}: seen by an operator (or not); it still clears by
   * itself. Dismissing hides an alert from everyone's count: for admins and its resource's owner
   * (an API key's owner; other resources have none) only, 403 for anyone else who may read it.
   */
  async update(principal: Principal, ref: string, body: unknown): Promise<Alert> {
    authorize(principal, 'alerts', 'update');
    const { dismissed } = parseInput(alertUpdateSchema, body);
    const current = await this.readable(principal, ref);
    if (!hasAdminRights(principal) && !(await this.ownsResource(principal, current))) {
      throw new DomainError('forbidden', 'only an admin or the owner of its resource may dismiss this alert', {
        details: { admin: [{ error: 'forbidden' }] },
      });
    }
    const at = dismissed ? (current.dismissed_at ?? this.deps.clock().toISOString()) : null;
    const updated = await this.audit.change(principal, async (stores) => {
      const record = await stores.alerts.dismiss(current.id, at);
      if (!record) throw DomainError.notFound('alert_id', ref);
      const changes = describeChanges({ dismissed: current.dismissed_at !== null }, { dismissed }, { dismissed });
      return { result: record, audit: { action: 'update', resource: auditResource('alerts', record.id, record.source), changes } };
    });
    return presentAlert(updated);
  }

  /** GET /alert_settings: one row per source, its default where none was saved. */
  async settings(principal: Principal): Promise<{ count: number; alert_settings: AlertSetting[] }> {
    authorize(principal, 'alert_settings', 'index');
    const saved = new Map((await this.deps.storage.alerts.settings()).map((setting) => [setting.source, setting]));
    const rows = alertSources.map((source) => ({ ...this.withDefault(source, saved.get(source)), description: alertSourceCatalogue[source].description }));
    return { count: rows.length, alert_settings: rows };
  }

  /** PUT /alert_settings/{source}: admins only; turning a source off clears its open alerts. */
  async updateSetting(principal: Principal, sourceRef: string, body: unknown): Promise<AlertSetting> {
    authorizeAdmin(principal, 'alert_settings', 'update', 'change alert settings');
    const input = parseInput(alertSettingUpdateSchema, body);
    if (!(alertSources as string[]).includes(sourceRef)) {
      throw new DomainError('not_found', `no alert source ${sourceRef}; sources: ${alertSources.join(', ')}`, {
        details: { source: [{ error: 'not_found', value: sourceRef }] },
      });
    }
    const source = sourceRef as AlertSource;
    const allowed: readonly string[] = (alertThresholds as Partial<Record<AlertSource, readonly AlertThresholdField[]>>)[source] ?? [];
    for (const field of ['warning_percent', 'critical_percent', 'days'] as const) {
      if (input[field] !== undefined && !allowed.includes(field)) {
        throw DomainError.invalid({ [field]: [{ error: 'invalid' }] }, [
          `${field} is a threshold of ${field === 'days' ? 'share_full_soon' : 'share_nearly_full'} only`,
        ]);
      }
    }
    const current = await this.setting(source);
    const next: AlertSettingRecord = { ...current, ...input, level: (input.level ?? current.level) as Severity };
    if (next.warning_percent !== undefined && next.critical_percent !== undefined && next.warning_percent > next.critical_percent) {
      throw DomainError.invalid({ critical_percent: [{ error: 'invalid' }] }, [
        `critical_percent (${next.critical_percent}) must not be below warning_percent (${next.warning_percent})`,
      ]);
    }
    await this.audit.change(principal, async (stores) => {
      await stores.alerts.saveSetting(next);
      return {
        result: next,
        audit: { action: 'settings_changed', resource: auditResource('alert_settings', source, source), changes: describeChanges(current, next, input) },
      };
    });
    if (!next.enabled) {
      await this.deps.storage.alertPending.releaseAll(source);
      for (const alert of await this.open(source))
        await this.clear(source, alert.resource_type === null ? null : auditResource(alert.resource_type, alert.resource_id, alert.resource_name), true);
    }
    return { ...next, description: alertSourceCatalogue[source].description };
  }

  /** Deletes cleared alerts older than `before`, a batch at a time. */
  purgeClearedBefore(before: string): Promise<number> {
    return purgeInBatches((limit) => this.deps.storage.alerts.purgeCleared(before, limit));
  }

  /** A source's setting as it is now: saved or default, thresholds filled in. */
  async setting(source: AlertSource): Promise<AlertSettingRecord> {
    const saved = (await this.deps.storage.alerts.settings()).find((setting) => setting.source === source);
    return this.withDefault(source, saved);
  }

  private withDefault(source: AlertSource, saved: AlertSettingRecord | undefined): AlertSettingRecord {
    const base = saved ?? { source, enabled: true, level: alertSourceCatalogue[source].level, raise_after_seconds: null, clear_after_seconds: 0 };
    if (source === 'share_nearly_full')
      return { warning_percent: capacityDefaults.warningPercent, critical_percent: capacityDefaults.criticalPercent, ...base };
    if (source === 'share_full_soon') return { days: capacityDefaults.fullSoonDays, ...base };
    return base;
  }

  private async get(ref: string): Promise<AlertRecord> {
    return findByNumericId(ref, 'alert_id', (id) => this.deps.storage.alerts.get(id));
  }

  /** An alert the principal may read: one about another user's API key is not found, as in the list. */
  private async readable(principal: Principal, ref: string): Promise<AlertRecord> {
    const record = await this.get(ref);
    if (record.resource_type !== 'api_keys' || hasAdminRights(principal) || (await this.ownsResource(principal, record))) return record;
    throw DomainError.notFound('alert_id', ref);
  }

  /** The alert's resource is the principal's own: an API key of the principal's user (whose key tree made it). */
  private async ownsResource(principal: Principal, record: AlertRecord): Promise<boolean> {
    const owner = ownerUserIdOf(principal);
    if (owner === null || record.resource_type !== 'api_keys' || record.resource_id === null || !/^\d{1,15}$/.test(record.resource_id)) return false;
    const key = await this.deps.storage.apiKeys.get(Number(record.resource_id));
    return key?.owner_user_id === owner;
  }

  private announce(name: 'alert_raised' | 'alert_cleared', alert: AlertRecord, message: string, at: Date): void {
    const resource =
      alert.resource_type === null
        ? undefined
        : {
            type: alert.resource_type,
            ...(alert.resource_id === null ? {} : { id: alert.resource_id }),
            ...(alert.resource_name === null ? {} : { name: alert.resource_name }),
          };
    this.deps.events.publish(alertEvent(name, { id: alert.id, source: alert.source, level: alert.level }, message, at, resource));
  }
}
