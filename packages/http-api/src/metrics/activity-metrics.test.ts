import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { MemoryActivityFeed } from '@dms/core/memory';
import { maxStepNames, registerActivityMetrics } from './activity-metrics.js';
import { boundedLabel, otherLabel } from './bounded-label.js';

/** The activity counters of /metrics over a real in-memory feed (docs/decisions/180-metrics-per-share-and-activity.md). */
describe('activity metrics', () => {
  const setup = () => {
    const registry = new Registry();
    const feed = new MemoryActivityFeed((error) => {
      throw error;
    });
    const unsubscribe = registerActivityMetrics(registry, feed);
    return { registry, feed, unsubscribe };
  };
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('issue 47: every bounded series is there at 0 before anything happens', async () => {
    const text = await setup().registry.metrics();
    expect(value(text, 'dms_schedule_runs_total{outcome="fired"}')).toBe(0);
    expect(value(text, 'dms_schedule_runs_total{outcome="missed"}')).toBe(0);
    expect(value(text, 'dms_notifications_total{channel_type="webhook",outcome="delivered"}')).toBe(0);
    expect(value(text, 'dms_notifications_total{channel_type="alertmanager",outcome="failed"}')).toBe(0);
    expect(value(text, 'dms_job_duration_seconds_count{kind="share_scan",outcome="failed"}')).toBe(0);
    expect(value(text, 'dms_scan_entries_total')).toBe(0);
    // Steps have no series until one is reported: which steps a kind has is the driver's.
    expect(text).not.toMatch(/^dms_job_step_duration_seconds_count/m);
  });

  it('issue 47: counts jobs with their steps, scan entries, notification attempts and schedule runs as told', async () => {
    const { registry, feed } = setup();
    const steps = [
      { name: 'connect', outcome: 'ok' as const, duration_ms: 4 },
      { name: 'authenticate', outcome: 'failed' as const, duration_ms: 30 },
      { name: 'list', outcome: 'skipped' as const, duration_ms: 0 },
    ];
    feed.report({ type: 'job_finished', kind: 'share_test', outcome: 'failed', seconds: 0.04, steps });
    feed.report({ type: 'job_finished', kind: 'share_scan', outcome: 'completed', seconds: 120, steps: [] });
    feed.report({ type: 'scan_entries', count: 1500 });
    feed.report({ type: 'scan_entries', count: 25 });
    feed.report({ type: 'notification_attempt', channel_type: 'ntfy', outcome: 'retrying' });
    feed.report({ type: 'notification_attempt', channel_type: 'ntfy', outcome: 'delivered' });
    feed.report({ type: 'schedule_runs', outcome: 'fired', count: 1 });
    feed.report({ type: 'schedule_runs', outcome: 'missed', count: 7 });
    const text = await registry.metrics();
    expect(value(text, 'dms_job_duration_seconds_count{kind="share_test",outcome="failed"}')).toBe(1);
    expect(value(text, 'dms_job_duration_seconds_bucket{le="0.05",kind="share_test",outcome="failed"}')).toBe(1);
    expect(value(text, 'dms_job_duration_seconds_bucket{le="0.01",kind="share_test",outcome="failed"}')).toBe(0);
    expect(value(text, 'dms_job_duration_seconds_bucket{le="300",kind="share_scan",outcome="completed"}')).toBe(1);
    expect(value(text, 'dms_job_duration_seconds_bucket{le="60",kind="share_scan",outcome="completed"}')).toBe(0);
    expect(value(text, 'dms_job_step_duration_seconds_sum{kind="share_test",step="connect"}')).toBe(0.004);
    expect(value(text, 'dms_job_step_duration_seconds_sum{kind="share_test",step="authenticate"}')).toBe(0.03);
    // A skipped step did not run: not a duration.
    expect(text).not.toContain('step="list"');
    expect(value(text, 'dms_scan_entries_total')).toBe(1525);
    expect(value(text, 'dms_notifications_total{channel_type="ntfy",outcome="retrying"}')).toBe(1);
    expect(value(text, 'dms_notifications_total{channel_type="ntfy",outcome="delivered"}')).toBe(1);
    expect(value(text, 'dms_schedule_runs_total{outcome="fired"}')).toBe(1);
    expect(value(text, 'dms_schedule_runs_total{outcome="missed"}')).toBe(7);
    expect(value(text, 'dms_schedule_runs_total{outcome="skipped"}')).toBe(0);
  });

  it('issue 47: step names beyond the bound are counted as other, so the series stay bounded', async () => {
    const { registry, feed } = setup();
    for (let i = 0; i < maxStepNames + 10; i++) {
      feed.report({
        type: 'job_finished',
        kind: 'share_test',
        outcome: 'completed',
        seconds: 1,
        steps: [{ name: `step_${i}`, outcome: 'ok', duration_ms: 1 }],
      });
    }
    const text = await registry.metrics();
    const steps = new Set([...text.matchAll(/^dms_job_step_duration_seconds_count\{kind="share_test",step="([^"]+)"\}/gm)].map((match) => match[1]));
    expect(steps.size).toBe(maxStepNames + 1);
    expect(value(text, `dms_job_step_duration_seconds_count{kind="share_test",step="${otherLabel}"}`)).toBe(10);
  });

  it('counts nothing more once unsubscribed', async () => {
    const { registry, feed, unsubscribe } = setup();
    feed.report({ type: 'scan_entries', count: 3 });
    unsubscribe();
    feed.report({ type: 'scan_entries', count: 3 });
    expect(value(await registry.metrics(), 'dms_scan_entries_total')).toBe(3);
  });

  it('a bounded label keeps its first values and answers other after', () => {
    const label = boundedLabel(2);
    expect(['a', 'b', 'c', 'a', 'b', 'd'].map(label)).toEqual(['a', 'b', otherLabel, 'a', 'b', otherLabel]);
  });
});
