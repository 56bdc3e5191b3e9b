import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { registerRequestMetrics } from './request-metrics.js';

describe('request metrics', () => {
  it('exposes counts and cumulative duration buckets in Prometheus text', async () => {
    const registry = new Registry();
    const record = registerRequestMetrics(registry);
    record('GET', '/api/v2/nas_shares/:nas_share_id', 200, 0.002);
    record('GET', '/api/v2/nas_shares/:nas_share_id', 200, 0.02);
    record('GET', '/api/v2/nas_shares/:nas_share_id', 404, 50);
    const text = await registry.metrics();
    const route = 'route="/api/v2/nas_shares/:nas_share_id"';
    expect(text).toContain(`dms_http_requests_total{method="GET",${route},status="200"} 2`);
    expect(text).toContain(`dms_http_requests_total{method="GET",${route},status="404"} 1`);
    expect(text).toContain('# TYPE dms_http_request_duration_seconds histogram');
    expect(text).toContain(`dms_http_request_duration_seconds_bucket{method="GET",${route},status="200",le="0.001"} 0`);
    expect(text).toContain(`dms_http_request_duration_seconds_bucket{method="GET",${route},status="200",le="0.0025"} 1`);
    expect(text).toContain(`dms_http_request_duration_seconds_bucket{method="GET",${route},status="200",le="0.025"} 2`);
    expect(text).toContain(`dms_http_request_duration_seconds_bucket{method="GET",${route},status="404",le="30"} 0`);
    expect(text).toContain(`dms_http_request_duration_seconds_bucket{method="GET",${route},status="404",le="+Inf"} 1`);
    expect(text).toContain(`dms_http_request_duration_seconds_count{method="GET",${route},status="200"} 2`);
    expect(text).toMatch(new RegExp(`dms_http_request_duration_seconds_sum\\{method="GET",route="/api/v2/nas_shares/:nas_share_id",status="200"\\} 0\\.022`));
  });
});
