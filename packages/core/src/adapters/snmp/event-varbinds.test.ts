import { describe, expect, it } from 'vitest';
import { makeEvent } from '../../domain/events.js';
import { eventVarbinds, formatResource, utf8Octets } from './event-varbinds.js';

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
});
