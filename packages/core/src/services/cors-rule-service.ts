import type { CoreDeps } from './core-deps.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import type { Principal } from '../scopes/principal.js';
import type { CorsRuleRecord } from '../ports/storage.js';
import { authorizeAdmin } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { corsRuleCreateSchema, corsRuleUpdateSchema, type CorsRule } from '../domain/cors-rule.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { corsRuleListSpec } from '../domain/cors-rule.js';
import { findByNumericId } from './resolve-ref.js';
import { makeEvent } from '../domain/events.js';

/** CORS rules (docs/decisions/047-cors-rules.md): edited over REST, the CLI and the console; applied without a restart. */
const ruleAudit = (rule: CorsRuleRecord) => auditResource('cors_rules', rule.id, rule.path);

export class CorsRuleService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
  ) {}

  private changed(): void {
    this.deps.events.publish(makeEvent('configuration_changed', 'CORS rules changed', this.deps.clock(), { type: 'cors_rules' }));
  }

  private async get(ref: string): Promise<CorsRuleRecord> {
    return findByNumericId(ref, 'cors_rule_id', (id) => this.deps.storage.corsRules.get(id));
  }

  /** Every rule, for the middleware (no principal: it runs before authentication). */
  all(): Promise<CorsRule[]> {
    return this.deps.storage.corsRules.all();
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; cors_rules: CorsRule[] }> {
    authorizeAdmin(principal, 'cors_rules', 'index', 'read CORS rules');
    const page = await this.deps.storage.corsRules.list(parseListQuery(raw, corsRuleListSpec));
    return { count: page.count, cors_rules: page.items };
  }

  async show(principal: Principal, ref: string): Promise<CorsRule> {
    authorizeAdmin(principal, 'cors_rules', 'show', 'read CORS rules');
    return this.get(ref);
  }

  async create(principal: Principal, body: unknown): Promise<CorsRule> {
    authorizeAdmin(principal, 'cors_rules', 'create', 'add CORS rules');
    const input = parseInput(corsRuleCreateSchema, body);
    const rule = await this.audit.change(principal, async (stores) => {
      const created = await stores.corsRules.create(input);
      return { result: created, audit: { action: 'create', resource: ruleAudit(created), changes: describeChanges(null, created, input) } };
    });
    this.changed();
    return rule;
  }

  async update(principal: Principal, ref: string, body: unknown): Promise<CorsRule> {
    authorizeAdmin(principal, 'cors_rules', 'update', 'change CORS rules');
    const patch = parseInput(corsRuleUpdateSchema, body);
    const current = await this.get(ref);
    const updated = await this.audit.change(principal, async (stores) => {
      const record = await stores.corsRules.update(current.id, patch);
      if (!record) throw DomainError.notFound('cors_rule_id', ref);
      return { result: record, audit: { action: 'update', resource: ruleAudit(record), changes: describeChanges(current, record, patch) } };
    });
    this.changed();
    return updated;
  }

  async destroy(principal: Principal, ref: string): Promise<void> {
    authorizeAdmin(principal, 'cors_rules', 'destroy', 'remove CORS rules');
    const current = await this.get(ref);
    await this.audit.change(principal, async (stores) => ({
      result: await stores.corsRules.delete(current.id),
      audit: { action: 'delete', resource: ruleAudit(current), changes: null },
    }));
    this.changed();
  }
}
