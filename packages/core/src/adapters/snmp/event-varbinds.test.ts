import { describe, expect, it } from 'vitest';
import { alertEvent, makeEvent } from '../../domain/events.js';
import { eventVarbinds, formatResource, utf8Octets } from './event-varbinds.js';
import { netSnmp } from './net-snmp.js';

describe('formatResource', () => {
  it('writes type, id and name as an operator reads them', () => {
    expect(formatResource({ type: 'nas_share', id: 12, name: 'projects' })).toBe('nas_share 12 (projects)');
    expect(formatResource({ type: 'nas', id: 'abc' })).toBe('nas abc');
    expect(formatResource({ type: 'service' })).toBe('service');
    expect(formatResource(undefined)).toBe('');
  });
});

describe('utf8Octets', () => {
  it('keeps short text whole and cuts long text before a split character', () => {
    expect(utf8Octets('naïve').toString()).toBe('naïve');
    expect(utf8Octets('aé', 2).toString()).toBe('a');
    expect(utf8Octets('a😀b', 4).toString()).toBe('a');
    expect(utf8Octets('a😀b', 5).toString()).toBe('a😀');
    expect(utf8Octets('x'.repeat(300))).toHaveLength(255);
  });
});

describe('eventVarbinds', () => {
  it('sends a time even when the event carries an invalid date', () => {
    const varbinds = eventVarbinds('1.3.6.1.4.1.61999', makeEvent('test_trap', 'm', new Date(Number.NaN)));
    expect(varbinds.map((v) => v.oid)).toEqual([1, 2, 3, 4, 5].map((n) => `1.3.6.1.4.1.61999.1.1.${n}.0`));
    expect(String(varbinds[4]?.value)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('carries an alert’s level as severity, then its source and id, for a raise and a clear alike', () => {
    const alert = { id: 7, source: 'share_unreachable', level: 2 as const };
    for (const name of ['alert_raised', 'alert_cleared'] as const) {
      const varbinds = eventVarbinds('1.3.6.1.4.1.61999', alertEvent(name, alert, 'm', new Date(0)));
      expect(varbinds.map((v) => v.oid)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `1.3.6.1.4.1.61999.1.1.${n}.0`));
      expect(varbinds[1]).toMatchObject({ type: netSnmp.ObjectType.Integer, value: 2 });
      expect(varbinds[5]).toMatchObject({ type: netSnmp.ObjectType.OctetString, value: Buffer.from('share_unreachable') });
      expect(varbinds[6]).toMatchObject({ type: netSnmp.ObjectType.Gauge, value: 7 });
    }
  });

  it('gives other events the five objects only, even one that carries an alert by mistake', () => {
    const event = { ...makeEvent('share_test_failed', 'm', new Date(0)), alert: { id: 1, source: 'share_unreachable', level: 4 as const } };
    expect(eventVarbinds('1.3.6.1.4.1.61999', event)).toHaveLength(5);
  });

  it('refuses an alert event without its alert rather than send a notification short of its objects', () => {
    expect(() => eventVarbinds('1.3.6.1.4.1.61999', { name: 'alert_cleared', severity: 3, message: 'm', at: new Date(0) })).toThrow(/without its alert/);
  });
});
