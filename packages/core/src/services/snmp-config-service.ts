import type { CoreDeps } from './core-deps.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import type { Principal } from '../scopes/principal.js';
import { authorize, canSeeAgentCommunity } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { snmpConfigUpdateSchema, type SnmpConfig, type SnmpConfigView } from '../domain/snmp-config.js';
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

  /** Publishes configuration_changed, which the running agent applies at once. */
  async update(principal: Principal, body: unknown): Promise<SnmpConfigView> {
    authorize(principal, 'server_configuration', 'update');
    const patch = parseInput(snmpConfigUpdateSchema, body);
    const before = await this.deps.storage.snmpConfig.get();
    const config = await this.audit.change(principal, async (stores) => {
      const updated = await stores.snmpConfig.update(patch);
      const resource = auditResource('server_configuration', null, 'SNMP server configuration');
      return { result: updated, audit: { action: 'update', resource, changes: describeChanges(before, updated, patch, configSecrets) } };
    });
    this.deps.events.publish(
      makeEvent('configuration_changed', 'SNMP server configuration changed', this.deps.clock(), {
        type: 'snmp_server_configuration',
      }),
    );
    return presentSnmpConfig(principal, config);
  }
}

/** The community is absent, not masked, for whoever may not see it (as a share's password). */
export function presentSnmpConfig(principal: Principal, { community, ...config }: SnmpConfig): SnmpConfigView {
  return canSeeAgentCommunity(principal) ? { ...config, community } : config;
}
