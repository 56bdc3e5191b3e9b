import type { CoreDeps } from './core-deps.js';
import type { ApiKeyRecord } from '../ports/storage.js';
import { z } from 'zod';
import { scopeSchema, type ApiKey } from '../domain/api-key.js';
import { parseInput } from '../errors/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { generateApiKeyToken, hashApiKeyToken } from '../security/api-key-token.js';
import { apiKeyListSpec } from '../list-query/list-specs.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { text } from '../domain/common.js';

export const apiKeyCreateSchema = z.object({
  name: text(255),
  api_key_scopes: z.array(scopeSchema).min(1).max(100),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
});

export function presentApiKey({ key_hash: _hidden, ...key }: ApiKeyRecord): ApiKey {
  return key;
}

export class ApiKeyService {
  constructor(private readonly deps: CoreDeps) {}

  /** The token is returned here and never again; only its hash is stored. */
  async create(body: unknown): Promise<{ key: ApiKey; token: string }> {
    const input = parseInput(apiKeyCreateSchema, body);
    const token = generateApiKeyToken();
    const record = await this.deps.storage.apiKeys.create({
      name: input.name,
      key_hash: hashApiKeyToken(token),
      key_last4: token.slice(-4),
      scopes: input.api_key_scopes,
      created_at: this.deps.clock().toISOString(),
      expires_at: input.expires_at ?? null,
    });
    return { key: presentApiKey(record), token };
  }

  async list(raw: RawQuery): Promise<{ count: number; api_keys: ApiKey[] }> {
    const page = await this.deps.storage.apiKeys.list(parseListQuery(raw, apiKeyListSpec));
    return { count: page.count, api_keys: page.items.map(presentApiKey) };
  }

  async revoke(id: number): Promise<void> {
    if (!(await this.deps.storage.apiKeys.delete(id))) throw DomainError.notFound('api_key_id', id);
  }
}
