import { describe, expect, it } from 'vitest';
import { apiError, DmsApiError, DmsJobFailedError, isDmsApiError, parseRetryAfter } from './errors.js';

describe('DmsApiError', () => {
  it('reads a model_error answer: status, kind, details, messages, request id, Retry-After', () => {
    const response = new Response('', { status: 429, headers: { 'x-request-id': 'req-1', 'retry-after': '7' } });
    const error = apiError('GET', response, { details: { rate_limit: [{ error: 'invalid', count: 3 }] }, messages: ['rate limit exceeded'] });
    expect(error).toBeInstanceOf(DmsApiError);
    expect(error).toBeInstanceOf(Error);
    expect(isDmsApiError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'DmsApiError', status: 429, kind: 'rate_limited', requestId: 'req-1', retryAfter: 7, messages: ['rate limit exceeded'] });
    expect(error.details['rate_limit']).toEqual([{ error: 'invalid', count: 3 }]);
  });

  it('keeps a body that is not a model_error as its message', () => {
    const error = apiError('PUT', new Response('', { status: 502 }), 'Bad Gateway');
    expect(error).toMatchObject({ status: 502, kind: 'server', messages: ['Bad Gateway'], details: {}, retryAfter: undefined });
  });

  it('is recognised by name when the class is another copy', () => {
    const foreign = Object.assign(new Error('x'), { name: 'DmsApiError' });
    expect(isDmsApiError(foreign)).toBe(true);
    expect(isDmsApiError(new Error('x'))).toBe(false);
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThanOrEqual(9);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('DmsJobFailedError', () => {
  it('carries the failed job, its message and its steps', () => {
    const job = { job_id: 'j1', status: 'failed' as const, progress: 1, total: 2, message: 'path not found', steps: [{ name: 'open_path', outcome: 'failed' as const, duration_ms: 1 }] };
    const error = new DmsJobFailedError(job);
    expect(error).toMatchObject({ name: 'DmsJobFailedError', jobId: 'j1', job, steps: job.steps, message: 'job j1 failed: path not found' });
  });
});
