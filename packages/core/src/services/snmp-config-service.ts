import type { CoreDeps } from './core-deps.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import type { Principal } from '../scopes/principal.js';
import { authorize, canSeeAgentCommunity } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { snmpConfigUpdateSchema, type SnmpConfig, type SnmpConfigUpdate, type SnmpConfigView } from '../domain/snmp-config.js';
import { checkV3Security, normalizeV3Security, v3SecretFields, v3SecurityWarnings, type V3Security } from '../domain/snmp-v3-security.js';
import { DomainError, type ErrorDetails } from '../errors/domain-error.js';
import { makeEvent } from '../domain/events.js';

/** The community is the agent's credential: recorded as changed, never with a value. */
const configSecrets = ['community'];

export class SnmpConfigService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
  ) {}

  async show(principal: Principal): Promise<SnmpConfigView> {
    authorize(principal, 'server_configuration', 'show');
    return presentSnmpConfig(principal, await this.deps.storage.snmpConfig.get());
  }

  /** Publishes configuration_changed, which the running agent applies at once (a new address, port or on/off restarts its socket). */
  async update(principal: Principal, body: unknown): Promise<SnmpConfigView> {
    authorize(principal, 'server_configuration', 'update');
    const patch = parseInput(snmpConfigUpdateSchema, body);
    const before = await this.deps.storage.snmpConfig.get();
    const users = patch.users === undefined ? undefined : mergeUsers(patch.users, before.users);
    const config = await this.audit.change(principal, async (stores) => {
      const { users: _sent, ...rest } = patch;
      const updated = await stores.snmpConfig.update({ ...rest, ...(users === undefined ? {} : { users }) });
      const resource = auditResource('server_configuration', null, 'SNMP server configuration');
      const input = auditInput(patch);
      const changes = describeChanges(auditView(before), auditView(updated), input, [
        ...configSecrets,
        ...Object.keys(input).filter((key) => key.startsWith('users.')),
      ]);
      return { result: updated, audit: { action: 'update', resource, changes } };
    });
    this.deps.events.publish(
      makeEvent('configuration_changed', 'SNMP server configuration changed', this.deps.clock(), {
        type: 'snmp_server_configuration',
      }),
    );
    return presentSnmpConfig(principal, config);
  }
}

/**
 * The users of a body over the stored ones: a passphrase left out (or null) keeps the stored
 * one of the same security_name, so a GET body without passphrases can be sent back as is.
 * Each user is then checked against its level, and names are unique.
 */
function mergeUsers(sent: NonNullable<SnmpConfigUpdate['users']>, stored: readonly V3Security[]): V3Security[] {
  const details: ErrorDetails = {};
  const messages: string[] = [];
  const seen = new Set<string>();
  const merged = sent.map((user, index) => {
    const prefix = `users.${index}.`;
    const previous = stored.find((candidate) => candidate.security_name === user.security_name);
    const record: V3Security = {
      security_name: user.security_name,
      security_level: user.security_level,
      auth_protocol: user.auth_protocol ?? null,
      auth_passphrase: user.auth_passphrase ?? previous?.auth_passphrase ?? null,
      priv_protocol: user.priv_protocol ?? null,
      priv_passphrase: user.priv_passphrase ?? previous?.priv_passphrase ?? null,
    };
    if (seen.has(user.security_name)) {
      details[`${prefix}security_name`] = [{ error: 'taken' }];
      messages.push(`users[${index}].security_name ${JSON.stringify(user.security_name)} is taken by another user of the list`);
    }
    seen.add(user.security_name);
    const problem = checkV3Security(record, { ...user, auth_passphrase: undefined, priv_passphrase: undefined }, prefix, `users[${index}].`);
    if (problem) {
      Object.assign(details, problem.details);
      messages.push(...problem.messages);
    }
    return normalizeV3Security(record);
  });
  if (messages.length > 0) throw new DomainError('validation', messages[0]!, { details, messages });
  return merged;
}

/** Users as audit events record them: every field but the passphrases, which only say "changed". */
function auditView(config: SnmpConfig) {
  return { ...config, users: config.users.map(withoutSecrets) };
}

/** The patch without passphrases, and `users.N.auth_passphrase` for each one sent: recorded as "changed", never with a value. */
function auditInput(patch: SnmpConfigUpdate): Record<string, unknown> {
  if (patch.users === undefined) return patch;
  const sentSecrets = patch.users.flatMap((user, index) =>
    v3SecretFields.filter((field) => user[field] !== undefined && user[field] !== null).map((field) => [`users.${index}.${field}`, true] as const),
  );
  return { ...patch, users: patch.users.map(withoutSecrets), ...Object.fromEntries(sentSecrets) };
}

function withoutSecrets<T extends Partial<V3Security>>(user: T) {
  const { auth_passphrase: _auth, priv_passphrase: _priv, ...rest } = user;
  return rest;
}

/** The community and the passphrases are absent, not masked, for whoever may not see them (as a share's password). */
export function presentSnmpConfig(principal: Principal, { community, users, ...config }: SnmpConfig): SnmpConfigView {
  const secrets = canSeeAgentCommunity(principal);
  const messages = users.flatMap((user, index) => v3SecurityWarnings(user, `users[${index}].`));
  return {
    ...config,
    ...(secrets ? { community } : {}),
    users: users.map((user) => (secrets ? { ...user } : withoutSecrets(user))),
    ...(messages.length > 0 ? { messages } : {}),
  };
}
