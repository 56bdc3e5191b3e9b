import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { openApiDocument } from '@dms/http-api';

type Responses = Record<string, { content?: Record<string, unknown> }>;
type Document = { paths: Record<string, Record<string, { operationId: string; responses: Responses }>> };

const document = openApiDocument() as unknown as Document;
const base = '/api/v2';

/** The document as one JSON Schema resource, so `#/components/schemas/…` refs resolve. */
export function schemaValidator(): (pointer: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('int64', true).addFormat('int32', true);
  ajv.addSchema(document as object, 'openapi');
  return (pointer) => {
    const validate = ajv.getSchema(`openapi#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  };
}

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The operation a request path answers: the template with the most literal segments wins (`-/test` over `{nas_share_id}`). */
function operationOf(method: string, path: string): { template: string; responses: Responses } | undefined {
  const have = path.split('/');
  let best: { template: string; responses: Responses; literals: number } | undefined;
  for (const [template, item] of Object.entries(document.paths)) {
    const operation = item[method];
    const want = template.split('/');
    if (!operation || want.length !== have.length) continue;
    if (!want.every((segment, i) => segment.startsWith('{') || segment === have[i])) continue;
    const literals = want.filter((segment) => !segment.startsWith('{')).length;
    if (!best || literals > best.literals) best = { template, responses: operation.responses, literals };
  }
  return best;
}

export interface ResponseCheck {
  /** A fetch that checks every answer against the document before handing it on. */
  fetch: typeof fetch;
  /** What did not match the document, one line each. */
  failures: string[];
  /** `METHOD template STATUS` of every answer checked. */
  checked: string[];
}

/**
 * Wraps fetch: each answer's status must be one its operation documents, and a JSON body must
 * validate against that status's schema in openApiDocument().
 */
export function checkResponses(options: { fetch?: typeof fetch; gatewayStatuses?: readonly number[] } = {}): ResponseCheck {
  const { fetch: inner = globalThis.fetch, gatewayStatuses = [] } = options;
  const schemaAt = schemaValidator();
  const failures: string[] = [];
  const checked: string[] = [];
  const check: typeof fetch = async (input, init) => {
    const response = await inner(input, init);
    const method = (init?.method ?? 'GET').toLowerCase();
    const { pathname } = new URL(String(input));
    const operation = operationOf(method, pathname.slice(base.length));
    const label = `${method.toUpperCase()} ${operation?.template ?? pathname} ${response.status}`;
    checked.push(label);
    // A proxy's own answers (502, 504) are not the server's to document.
    if (gatewayStatuses.includes(response.status)) return response;
    if (!operation) {
      failures.push(`${label}: no such operation in the document`);
      return response;
    }
    const documented = operation.responses[String(response.status)];
    if (!documented) {
      failures.push(`${label}: status not documented (${Object.keys(operation.responses).join(', ')})`);
      return response;
    }
    if (!documented.content?.['application/json']) return response;
    const text = await response.clone().text();
    const validate = schemaAt(`/paths/${escape(operation.template)}/${method}/responses/${response.status}/content/application~1json/schema`);
    if (!validate(JSON.parse(text))) failures.push(`${label}: ${JSON.stringify(validate.errors)} in ${text.slice(0, 300)}`);
    return response;
  };
  return { fetch: check, failures, checked };
}
