import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { modelErrorSchema } from '@dms/core';
import { z } from 'zod';
import type { ErrorStatus, Operation, SuccessResponse } from '../operations/operation.js';
import { restOperations } from '../operations/rest-operations.js';
import { apiBasePath } from './api-base-path.js';
import { apiIntroduction, apiTags } from './api-introduction.js';
import { sdkCodeSamples } from './sdk-code-samples.js';
import { describeFields } from './field-descriptions.js';

export const apiDescriptionVersion = '2.1.0';
export { apiBasePath };

const errorDescriptions: Record<ErrorStatus, string> = {
  400: 'bad request (malformed JSON, bad query parameter)',
  401: 'not authenticated',
  403: 'credential lacks the scope',
  404: 'not found',
  409: 'conflict',
  413: 'request body too large',
  414: 'request path too long',
  415: 'request body not declared Content-Type: application/json',
  422: 'validation failed',
  429: 'rate limited; retry after Retry-After seconds',
  500: 'internal error; the server log has it under the X-Request-Id of the answer',
  503: 'storage or job queue unavailable; retry after Retry-After seconds',
};

const retryAfter = z.object({ 'Retry-After': z.string().optional().describe('seconds to wait before retrying') });
const etag = z.object({ ETag: z.string().describe('send it back in If-None-Match for a 304 while the answer is unchanged') });

/** One model_error per status, as the reference's example of an error answer. */
const errorExamples: Record<ErrorStatus, { details: Record<string, unknown[]>; messages: string[] }> = {
  400: { details: { limit: [{ error: 'invalid' }] }, messages: ['limit must be between 1 and 100'] },
  401: { details: { authorization: [{ error: 'invalid' }] }, messages: ['a valid credential is required'] },
  403: { details: { scope: [{ error: 'forbidden', value: 'nas_shares / create' }] }, messages: ['missing scope nas_shares / create'] },
  404: { details: { nas_share_id: [{ error: 'not_found', value: '42' }] }, messages: ['nas_share_id 42 not found'] },
  409: { details: { name: [{ error: 'taken', value: 'projects' }] }, messages: ['name "projects" is already taken'] },
  413: { details: { body: [{ error: 'too_long', count: 1048576 }] }, messages: ['request body is larger than 1048576 bytes'] },
  414: { details: { path: [{ error: 'too_long', count: 8192 }] }, messages: ['request path is longer than 8192 bytes'] },
  415: {
    details: { 'content-type': [{ error: 'invalid', value: 'text/plain' }] },
    messages: ['a request body must be sent with Content-Type: application/json'],
  },
  422: { details: { path: [{ error: 'blank' }] }, messages: ["path can't be blank"] },
  429: { details: { rate_limit: [{ error: 'invalid', count: 600 }] }, messages: ['rate limit exceeded; retry after 12 s'] },
  500: { details: {}, messages: ['internal server error'] },
  503: { details: {}, messages: ['storage is unavailable, try again shortly'] },
};

/**
 * A media type with one example, the way the reference shows examples. A placeholder the server
 * refuses as it is goes under the name `placeholder`, with why as its summary.
 */
function json(schema: z.ZodType, example: unknown, refused?: string) {
  const named: Record<string, { value: unknown; summary?: string }> =
    refused === undefined ? { example: { value: example } } : { placeholder: { summary: refused, value: example } };
  return { 'application/json': { schema, ...(example === undefined ? {} : { examples: named }) } };
}

/** Some ids are numeric only; the others may also be a unique name. */
const pathParamDescriptions: Readonly<Record<string, string>> = {
  nas_id: 'numeric id or name',
  pool_id: 'numeric id or name',
  nas_share_id: 'numeric id or name',
  user_id: 'numeric id or name',
  snmp_trap_id: 'numeric id',
  api_key_id: 'numeric id',
  cors_rule_id: 'numeric id',
  job_id: 'the job_id a PUT that started the job answered',
  schedule_id: 'numeric id or name',
  alert_id: 'numeric id',
  source: 'an alert source: share_unreachable, scan_failed, schedule_missed, …',
};

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/**
 * What the path parameters of a write operation are prefilled with on the reference page: a
 * record no server has (ids start at 1, and an all-digit name is refused), so that its "Test
 * request" sent unedited answers 404 and changes nothing.
 */
export const pathPlaceholders: Readonly<Record<string, string>> = { source: 'SOURCE' };
export const placeholderId = '0';

function pathParamsSchema(names: readonly string[], method: Operation['method']): z.ZodObject | undefined {
  if (names.length === 0) return undefined;
  const param = (name: string) => {
    const schema = z.string().describe(pathParamDescriptions[name] ?? 'id');
    if (method === 'get') return schema;
    const example = pathPlaceholders[name] ?? placeholderId;
    return schema
      .describe(`${pathParamDescriptions[name] ?? 'id'}; the example, ${example}, is a placeholder no record has: put the one to change`)
      .meta({ param: { example } });
  };
  return z.object(Object.fromEntries(names.map((name) => [name, param(name)])));
}

/** The headers a success answer documents: the ETag of a GET, then the answer's own. */
function successHeaders(response: SuccessResponse, method: Operation['method']): z.ZodObject | undefined {
  // Every GET answer is tagged (docs/decisions/067-etag-and-conditional-gets.md); a generator needs the 304 below to expect it.
  const own = Object.entries(response.headers ?? {}).map(([name, description]) => [name, z.string().describe(description)] as const);
  if (own.length === 0) return method === 'get' ? etag : undefined;
  return z.object({ ...(method === 'get' ? etag.shape : {}), ...Object.fromEntries(own) });
}

function successOf(response: SuccessResponse, method: Operation['method']): ResponseConfig {
  const headers = successHeaders(response, method);
  return {
    description: response.description,
    ...(headers ? { headers } : {}),
    ...(response.schema
      ? {
          content: {
            ...json(response.schema, response.example),
            ...Object.fromEntries(
              Object.entries(response.alternatives ?? {}).map(([type, { schema, example }]) => [type, { schema, examples: { example: { value: example } } }]),
            ),
          },
        }
      : {}),
  };
}

function responsesOf(operation: Operation): RouteConfig['responses'] {
  const responses: Record<string, ResponseConfig> = {};
  for (const success of [operation.success, ...(operation.otherSuccess ?? [])]) responses[success.status] = successOf(success, operation.method);
  if (operation.method === 'get') responses[304] = { description: 'not modified: the ETag sent in If-None-Match still matches', headers: etag };
  for (const status of operation.errors) {
    responses[status] = {
      description: errorDescriptions[status],
      ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
      content: json(modelErrorSchema, errorExamples[status]),
    };
  }
  return responses;
}

/** The scope line the tools and tests rely on, then what the operation does. */
function descriptionOf(operation: Operation): string | undefined {
  const { scope } = operation;
  const scopeLine = scope ? `Scope: \`${scope.controller} / ${scope.action}${scope.note ? ` (${scope.note})` : ''}\`` : undefined;
  const parts = [scopeLine, operation.description].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function routeConfigOf(operation: Operation): RouteConfig {
  const { scope } = operation;
  const params = pathParamsSchema(operation.pathParams, operation.method);
  return {
    method: operation.method,
    path: toOpenApiPath(operation.path),
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    // The description keeps the human form that the API reference page shows; x-scope is for tools.
    ...(descriptionOf(operation) === undefined ? {} : { description: descriptionOf(operation) }),
    ...(scope ? { 'x-scope': `${scope.controller}/${scope.action}` } : {}),
    'x-codeSamples': sdkCodeSamples(operation.sdkSample),
    security: operation.public ? [] : [{ basic: [] }, { bearer: [] }],
    request: {
      ...(params ? { params } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(operation.body ? { body: { required: true, content: json(operation.body, operation.bodyExample, operation.bodyExampleRefused) } } : {}),
    },
    responses: responsesOf(operation),
  };
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * The OpenAPI 3.1 description of /api/v2, built from the operations (operations/) without calling
 * a handler: no database, no core. The server serves it, the build writes it to dist/openapi.json, the SDK types come from it.
 */
export function openApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'basic', { type: 'http', scheme: 'basic' });
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'API key or JWT' });
  for (const operation of restOperations) registry.registerPath(routeConfigOf(operation));
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'dms: data management service for NAS storage',
      version: apiDescriptionVersion,
      description: apiIntroduction,
    },
    // Relative: the reference page resolves it against its own address, so "Test Request" goes to the server that serves the page.
    servers: [{ url: apiBasePath, description: 'this server: the one that serves this document and the reference page' }],
    tags: apiTags,
  });
  describeFields(document.components?.schemas ?? {});
  return document;
}
