import { z } from 'zod';
import type { ErrorDetails } from './domain-error.js';

/**
 * The body of every error answer, whatever the host: the REST server renders a DomainError
 * as this, and the OpenAPI document (so the SDK) describes every 4xx and 5xx with it.
 */
export const attributeErrorSchema = z
  .object({ error: z.string(), count: z.number().int().optional(), value: z.union([z.string(), z.number()]).optional() })
  .meta({ id: 'attribute_error' });

export const modelErrorSchema = z
  .object({ details: z.record(z.string(), z.array(attributeErrorSchema)), messages: z.array(z.string()) })
  .meta({ id: 'model_error' });

/** What a host sends for a DomainError; typed by the core's own error types, narrower than the schema. */
export interface ModelError {
  details: ErrorDetails;
  messages: string[];
}
