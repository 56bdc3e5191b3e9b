import type { CoreDeps } from './core-deps.js';
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

/** CORS rules (DESIGN §5.17): edited over REST, the CLI and the console; applied without a restart. */
export class CorsRuleService {
  constructor(private readonly deps: CoreDeps) {}

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
    const rule = await this.deps.storage.corsRules.create(parseInput(corsRuleCreateSchema, body));
    this.changed();
    return rule;
  }

  async update(principal: Principal, ref: string, body: unknown): Promise<CorsRule> {
    authorizeAdmin(principal, 'cors_rules', 'update', 'change CORS rules');
    const patch = parseInput(corsRuleUpdateSchema, body);
    const current = await this.get(ref);
    const updated = await this.deps.storage.corsRules.update(current.id, patch);
    if (!updated) throw DomainError.notFound('cors_rule_id', ref);
    this.changed();
    return updated;
  }

  async destroy(principal: Principal, ref: string): Promise<void> {
    authorizeAdmin(principal, 'cors_rules', 'destroy', 'remove CORS rules');
    const current = await this.get(ref);
    await this.deps.storage.corsRules.delete(current.id);
    this.changed();
  }
}
