import { describe, expect, it } from 'vitest';
import { eventCatalogue } from './event-catalogue.js';

describe('the event catalogue the Trap targets screen shows', () => {
  it('holds every event of the core with its level and description, alert events marked as carrying their alert’s level', async () => {
    const events = await eventCatalogue();
    const byName = new Map<string, (typeof events)[number]>(events.map((event) => [event.name, event]));
    expect(byName.get('share_scan_failed')).toEqual({ name: 'share_scan_failed', level: 4, description: 'a share scan failed', atAlertLevel: false });
    expect(byName.get('share_test_completed')?.level).toBe(1);
    expect(byName.get('alert_raised')?.atAlertLevel).toBe(true);
    expect(byName.get('alert_cleared')?.atAlertLevel).toBe(true);
    expect(events.filter((event) => event.atAlertLevel)).toHaveLength(2);
    expect(events.length).toBeGreaterThanOrEqual(12);
    // The internal signals between replicas are never traps.
    expect(byName.has('job_changed')).toBe(false);
  });
});
