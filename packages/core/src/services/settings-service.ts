import type { CoreDeps } from './core-deps.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import type { Principal } from '../scopes/principal.js';
import { authorizeAdmin } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { defaultSettings, settingsUpdateSchema, type Settings } from '../domain/settings.js';
import { makeEvent } from '../domain/events.js';
import { DomainError } from '../errors/domain-error.js';

/** The OpenID client secret, sealed, under a key of its own: never part of the answered settings. */
export const oidcClientSecretKey = 'oidc_client_secret';

/** Sign-in through a provider needs to know which provider and which client dms is there. */
function refuseIncompleteOidc(settings: Settings): void {
  if (!settings.oidc_enabled) return;
  const missing = (['oidc_issuer', 'oidc_client_id'] as const).filter((field) => settings[field] === null);
  if (missing.length === 0) return;
  const messages = missing.map((field) => `${field} is needed while oidc_enabled is true`);
  throw new DomainError('validation', messages[0]!, { details: Object.fromEntries(missing.map((field) => [field, [{ error: 'blank' as const }]])), messages });
}

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
  /** The OpenID client secret in clear, for the code exchange only; undefined when none is stored. */
  async oidcClientSecret(): Promise<string | undefined> {
    const sealed = await this.deps.storage.settings.get<string | null>(oidcClientSecretKey);
    return sealed ? this.deps.secrets.open(sealed) : undefined;
  }

  async jwtEpoch(): Promise<string> {
    return (await this.deps.storage.settings.get<string>(jwtEpochKey)) ?? '';
  }

  async show(principal: Principal): Promise<Settings> {
    authorizeAdmin(principal, 'settings', 'show', 'read server settings');
    return this.current();
  }

  async update(principal: Principal, body: unknown): Promise<Settings> {
    authorizeAdmin(principal, 'settings', 'update', 'change server settings');
    const { oidc_client_secret: clientSecret, ...input } = parseInput(settingsUpdateSchema, body);
    const secretChanged = clientSecret === undefined ? {} : { oidc_client_secret_set: clientSecret !== null };
    const sealedSecret = clientSecret === undefined ? {} : { [oidcClientSecretKey]: clientSecret === null ? null : this.deps.secrets.seal(clientSecret) };
    // One transaction: a concurrent update of other fields (any replica) is not written over,
    // and the epoch changes with the switch that needs it, exactly once.
    const next = await this.audit.change(principal, async (stores) => {
      let previous = defaultSettings;
      const value = await stores.settings.update<Settings>(key, (stored) => {
        previous = { ...defaultSettings, ...stored };
        const value = { ...previous, ...input, ...secretChanged };
        refuseIncompleteOidc(value);
        const switchedOn = value.jwt_enabled && !previous.jwt_enabled;
        return { value, alsoSet: { ...sealedSecret, ...(switchedOn ? { [jwtEpochKey]: this.deps.newId() } : {}) } };
      });
      const resource = auditResource('settings', null, 'server settings');
      const sent = { ...input, ...(clientSecret === undefined ? {} : { oidc_client_secret: clientSecret }) };
      const changes = describeChanges(previous, value, sent, ['oidc_client_secret']);
      return { result: value, audit: { action: 'settings_changed', resource, changes } };
    });
    this.deps.events.publish(makeEvent('configuration_changed', 'server settings changed', this.deps.clock(), { type: 'settings' }));
    return next;
  }
}
