import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { modelErrorSchema } from '@dms/core';
import { z } from 'zod';
import type { ErrorStatus, RouteContract } from './route-contract.js';
import { routeContracts } from './route-contracts.js';

export const apiDescriptionVersion = '2.1.0';
/** Where the operations' paths are rooted; the app serves them there. */
export const apiBasePath = '/api/v2';

const errorDescriptions: Record<ErrorStatus, string> = {
  400: 'bad request (malformed JSON, bad query parameter)',
  401: 'not authenticated',
  403: 'credential lacks the scope',
  404: 'not found',
  409: 'conflict',
  413: 'request body too large',
  414: 'request path too long',
  422: 'validation failed',
  429: 'rate limited; retry after Retry-After seconds',
  503: 'storage or job queue unavailable; retry after Retry-After seconds',
};

const retryAfter = z.object({ 'Retry-After': z.string().optional().describe('seconds to wait before retrying') });

/** Some ids are numeric only; the others may also be a unique name. */
const pathParamDescriptions: Readonly<Record<string, string>> = {
  nas_id: 'numeric id or name',
  pool_id: 'numeric id or name',
  nas_share_id: 'numeric id or name',
  user_id: 'numeric id or name',
  snmp_trap_id: 'numeric id',
  api_key_id: 'numeric id',
  cors_rule_id: 'numeric id',
};

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function pathParamsSchema(names: readonly string[]): z.ZodObject | undefined {
  if (names.length === 0) return undefined;
  return z.object(Object.fromEntries(names.map((name) => [name, z.string().describe(pathParamDescriptions[name] ?? 'id')])));
}

function responsesOf(contract: RouteContract): RouteConfig['responses'] {
  const { success } = contract;
  const responses: Record<string, ResponseConfig> = {
    [success.status]: {
      description: success.description,
      ...(success.schema ? { content: { 'application/json': { schema: success.schema } } } : {}),
    },
  };
  for (const status of contract.errors) {
    responses[status] = {
      description: errorDescriptions[status],
      ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
      content: { 'application/json': { schema: modelErrorSchema } },
    };
  }
  return responses;
}

function routeConfigOf(contract: RouteContract): RouteConfig {
  const { scope } = contract;
  const params = pathParamsSchema(contract.pathParams);
  return {
    method: contract.method,
    path: toOpenApiPath(contract.path),
    operationId: contract.operationId,
    summary: contract.summary,
    tags: [contract.tag],
    // The description keeps the human form that the API reference page shows; x-scope is for tools.
    ...(scope ? { description: `Scope: \`${scope.controller} / ${scope.action}${scope.note ? ` (${scope.note})` : ''}\``, 'x-scope': `${scope.controller}/${scope.action}` } : {}),
    security: contract.public ? [] : [{ basic: [] }, { bearer: [] }],
    request: {
      ...(params ? { params } : {}),
      ...(contract.query ? { query: contract.query } : {}),
      ...(contract.body ? { body: { required: true, content: { 'application/json': { schema: contract.body } } } } : {}),
    },
    responses: responsesOf(contract),
  };
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * The OpenAPI 3.1 description of /api/v2, built from the route contracts alone: no database,
 * no core. The server serves it, the build writes it to dist/openapi.json, the SDK types come from it.
 */
export function openApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'basic', { type: 'http', scheme: 'basic' });
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'API key or JWT' });
  for (const contract of routeContracts) registry.registerPath(routeConfigOf(contract));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'dms: data management service for NAS storage',
      version: apiDescriptionVersion,
      description: 'REST API v2. Authentication: Basic, Bearer API key (scoped controller / action) or Bearer JWT.',
    },
    servers: [{ url: apiBasePath }],
  });
}
