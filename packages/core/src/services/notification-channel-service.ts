import { z } from 'zod';
import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { NotificationChannelRecord } from '../ports/notification-store.js';
import type { ChannelSenders } from '../ports/channel-sender.js';
import { authorizeAdmin } from '../scopes/scope-check.js';
import type { ScopeAction } from '../scopes/scope-catalogue.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import {
  channelCreateSchema,
  channelListSpec,
  channelSecretFields,
  channelSettingsSchemas,
  channelUpdateSchema,
  deliveryListSpec,
  type Channel,
  type ChannelTestResult,
  type ChannelType,
  type Delivery,
} from '../domain/notification-channel.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { newestFirst } from '../list-query/newest-first.js';
import { resolveRef } from './resolve-ref.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import { testMessage } from '../notifications/notification-outbox.js';
import { notificationDefaults } from '../defaults.js';

const channelAudit = (channel: Pick<NotificationChannelRecord, 'id' | 'name'>) => auditResource('notification_channels', channel.id, channel.name);

/** A channel as the API shows it: its settings without a secret among them. */
export function presentChannel(record: NotificationChannelRecord): Channel {
  const { secrets: _secrets, consecutive_failures: _failures, digested_until: _digested, ...rest } = record;
  return rest;
}

/** The body's settings checked against the type's schema; a 422 names `settings.<field>`. */
function parseSettings(type: ChannelType, settings: unknown): Record<string, unknown> {
  const schema = z.object({ settings: channelSettingsSchemas[type] }).strict();
  return parseInput(schema, { settings }).settings as Record<string, unknown>;
}

/** Settings split into what is shown and what is sealed (a null secret: none kept). */
function splitSecrets(type: ChannelType, settings: Record<string, unknown>): { clear: Record<string, unknown>; secrets: Record<string, string | null> } {
  const clear: Record<string, unknown> = {};
  const secrets: Record<string, string | null> = {};
  for (const [field, value] of Object.entries(settings)) {
    if (channelSecretFields[type].includes(field)) secrets[field] = value === undefined ? null : (value as string | null);
    else if (value !== undefined) clear[field] = value;
  }
  return { clear, secrets };
}

/** 422 for an Alertmanager told in digests: it takes each alert as it fires and resolves (docs/decisions/173-notification-digests.md). */
function assertDigestFits(type: ChannelType, digest: Channel['digest']): void {
  if (type !== 'alertmanager' || digest === 'immediately') return;
  throw DomainError.invalid({ digest: [{ error: 'invalid', value: digest }] }, [
    'an alertmanager channel cannot be a digest: digest must be immediately (Alertmanager groups alerts itself)',
  ]);
}

/**
 * `/notification_channels` (issue 44, docs/api.md#notification-channels): where alerts and job
 * outcomes are told. Admin-only (docs/decisions/166-notification-channels.md): a channel holds
 * credentials and decides where dms sends what it knows.
 */
export class NotificationChannelService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    private readonly senders: ChannelSenders,
    private readonly newWebhookSecret: () => string,
  ) {}

  #authorize(principal: Principal, action: ScopeAction<'notification_channels'>): void {
    authorizeAdmin(principal, 'notification_channels', action, 'manage notification channels');
  }

  resolve(ref: string): Promise<NotificationChannelRecord> {
    const { notificationChannels } = this.deps.storage;
    return resolveRef(
      ref,
      'notification_channel_id',
      (id) => notificationChannels.get(id),
      (name) => notificationChannels.findByName(name),
    );
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; notification_channels: Channel[] }> {
    this.#authorize(principal, 'index');
    const page = await this.deps.storage.notificationChannels.list(parseListQuery(raw, channelListSpec));
    return { count: page.count, notification_channels: page.items.map(presentChannel) };
  }

  async show(principal: Principal, ref: string): Promise<Channel> {
    this.#authorize(principal, 'show');
    return presentChannel(await this.resolve(ref));
  }

  /** A webhook's signing secret is made here and answered once, as `secret`. */
  async create(principal: Principal, body: unknown): Promise<Channel & { secret?: string }> {
    this.#authorize(principal, 'create');
    const input = parseInput(channelCreateSchema, body);
    assertDigestFits(input.type, input.digest);
    const { clear, secrets } = splitSecrets(input.type, parseSettings(input.type, input.settings));
    const secret = input.type === 'webhook' ? this.newWebhookSecret() : undefined;
    const sealed = dropNulls({ ...secrets, ...(secret ? { secret } : {}) });
    const created = await this.audit.change(principal, async (stores) => {
      const record = await stores.notificationChannels.create({
        name: input.name,
        type: input.type,
        enabled: input.enabled,
        min_level: input.min_level,
        sources: input.sources,
        digest: input.digest,
        digest_hour: input.digest_hour,
        settings: clear,
        secrets: sealed,
      });
      const changes = describeChanges(null, { ...presentChannel(record), ...sealed }, { ...input, ...sealed }, Object.keys(sealed));
      return { result: record, audit: { action: 'create', resource: channelAudit(record), changes } };
    });
    return { ...presentChannel(created), ...(secret ? { secret } : {}) };
  }

  /**
   * A partial update; `settings` sent are merged into the stored ones (a secret left out is
   * kept, `null` removes it). The type is fixed once created. Disabling drops what was queued.
   */
  async update(principal: Principal, ref: string, body: unknown): Promise<Channel> {
    this.#authorize(principal, 'update');
    const input = parseInput(channelUpdateSchema, body);
    const current = await this.resolve(ref);
    if (input.type !== undefined && input.type !== current.type) {
      throw DomainError.invalid({ type: [{ error: 'frozen', value: input.type }] }, [
        `type cannot change (it is ${current.type}): create another channel and delete this one`,
      ]);
    }
    assertDigestFits(current.type, input.digest ?? current.digest);
    let settings: Record<string, unknown> | undefined;
    let secrets: Record<string, string> | undefined;
    const changedSecrets: string[] = [];
    if (input.settings !== undefined) {
      // The stored settings, with the secrets' fields as they are, under what was sent: the type's schema checks the whole.
      const { secret: _signing, ...storedSecrets } = current.secrets;
      const merged = parseSettings(current.type, { ...current.settings, ...storedSecrets, ...input.settings });
      const split = splitSecrets(current.type, merged);
      settings = split.clear;
      secrets = dropNulls({ ...current.secrets, ...split.secrets });
      for (const field of channelSecretFields[current.type]) if (field in input.settings) changedSecrets.push(field);
    }
    const updated = await this.audit.change(principal, async (stores) => {
      const { settings: _sent, type: _type, ...fields } = input;
      const record = await stores.notificationChannels.update(current.id, { ...fields, ...(settings ? { settings, secrets } : {}) });
      if (!record) throw DomainError.notFound('notification_channel_id', ref);
      if (current.enabled && !record.enabled) {
        await stores.notificationDeliveries.dropPending(record.id, this.deps.clock().toISOString(), 'the channel was disabled');
        await stores.notificationDigests.drop(record.id);
      }
      const before = { ...presentChannel(current) };
      const after = { ...presentChannel(record) };
      const sent: Record<string, unknown> = { ...fields, ...(settings ? { settings } : {}) };
      const changes = {
        ...describeChanges(before, after, sent),
        ...Object.fromEntries(changedSecrets.map((field) => [`settings.${field}`, 'changed' as const])),
      };
      return { result: record, audit: { action: 'update', resource: channelAudit(record), changes: Object.keys(changes).length > 0 ? changes : null } };
    });
    return presentChannel(updated);
  }

  async destroy(principal: Principal, ref: string): Promise<void> {
    this.#authorize(principal, 'destroy');
    const current = await this.resolve(ref);
    await this.audit.change(principal, async (stores) => ({
      result: await stores.notificationChannels.delete(current.id),
      audit: { action: 'delete', resource: channelAudit(current), changes: null },
    }));
  }

  /** POST /notification_channels/{id}/test: a test message sent now (not queued), whatever its level and sources; answers how it went. */
  async test(principal: Principal, ref: string): Promise<ChannelTestResult> {
    this.#authorize(principal, 'test');
    const channel = await this.resolve(ref);
    await this.audit.record(principal, { action: 'test', resource: channelAudit(channel), changes: null });
    const result = await this.senders[channel.type](
      channel,
      testMessage(channel, `evt_${this.deps.newId()}`, this.deps.clock()),
      notificationDefaults.sendTimeoutMs,
    );
    return { outcome: result.ok ? 'delivered' : 'failed', status_code: result.status_code, error: result.error };
  }

  /** GET /notification_channels/{id}/deliveries: newest first unless sorted otherwise. */
  async deliveries(principal: Principal, ref: string, raw: RawQuery): Promise<{ count: number; deliveries: Delivery[] }> {
    this.#authorize(principal, 'show');
    const channel = await this.resolve(ref);
    const page = await this.deps.storage.notificationDeliveries.list(channel.id, newestFirst(parseListQuery(raw, deliveryListSpec), 'id'));
    return {
      count: page.count,
      // a channel of the API's: never a trap target's queue, whose type is `trap`
      deliveries: page.items.map(({ id, event_id, event_type, at, attempts, outcome, status_code, error, next_attempt_at, created_at }) => ({
        id,
        event_id,
        event_type: event_type as Delivery['event_type'],
        at,
        attempts,
        outcome,
        status_code,
        error,
        next_attempt_at,
        created_at,
      })),
    };
  }
}

function dropNulls(values: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== null));
}
