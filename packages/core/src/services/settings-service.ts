import type { CoreDeps } from './core-deps.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import type { Principal } from '../scopes/principal.js';
import { authorizeAdmin } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { defaultSettings, settingsUpdateSchema, type Settings } from '../domain/settings.js';
import { makeEvent } from '../domain/events.js';

const key = 'server';
const jwtEpochKey = 'jwt_epoch';

/** Server settings (JWT mode); read from storage each time so every replica agrees at once. */
export class SettingsService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
  ) {}

  async current(): Promise<Settings> {
    return { ...defaultSettings, ...(await this.deps.storage.settings.get<Partial<Settings>>(key)) };
  }

  /** Changes each time JWT mode is switched on, so tokens of an earlier period stay refused. */
  async jwtEpoch(): Promise<string> {
    return (await this.deps.storage.settings.get<string>(jwtEpochKey)) ?? '';
  }

  async show(principal: Principal): Promise<Settings> {
    authorizeAdmin(principal, 'settings', 'show', 'read server settings');
    return this.current();
  }

  async update(principal: Principal, body: unknown): Promise<Settings> {
    authorizeAdmin(principal, 'settings', 'update', 'change server settings');
    const input = parseInput(settingsUpdateSchema, body);
    // One transaction: a concurrent update of other fields (any replica) is not written over,
    // and the epoch changes with the switch that needs it, exactly once.
    const next = await this.audit.change(principal, async (stores) => {
      let previous = defaultSettings;
      const value = await stores.settings.update<Settings>(key, (stored) => {
        previous = { ...defaultSettings, ...stored };
        const value = { ...previous, ...input };
        const switchedOn = value.jwt_enabled && !previous.jwt_enabled;
        return { value, ...(switchedOn ? { alsoSet: { [jwtEpochKey]: this.deps.newId() } } : {}) };
      });
      const resource = auditResource('settings', null, 'server settings');
      return { result: value, audit: { action: 'settings_changed', resource, changes: describeChanges(previous, value, input) } };
    });
    this.deps.events.publish(makeEvent('configuration_changed', 'server settings changed', this.deps.clock(), { type: 'settings' }));
    return next;
  }
}
