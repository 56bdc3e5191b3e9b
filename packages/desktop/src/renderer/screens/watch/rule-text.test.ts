import { describe, expect, it } from 'vitest';
import { buildRule, defaultRule, describeRule, firstRun, readRule, runText, timeZones, type SimpleRule } from './rule-text.js';

const paris: SimpleRule = { every: '2', unit: 'hours', weekdays: ['WE', 'MO'], date: '2026-11-25', time: '12:00', timeZone: 'Europe/Paris' };

describe('the schedule form’s rule text', () => {
  it('builds a DTSTART with its TZID and an RRULE, the weekdays in the week’s order', () => {
    expect(buildRule(paris)).toBe('DTSTART;TZID=Europe/Paris:20261125T120000\nRRULE:FREQ=HOURLY;INTERVAL=2;BYDAY=MO,WE');
  });

  it('writes UTC as a Z time, and leaves BYDAY out when no weekday is chosen', () => {
    expect(buildRule({ ...paris, unit: 'minutes', every: '15', weekdays: [], timeZone: 'UTC' })).toBe(
      'DTSTART:20261125T120000Z\nRRULE:FREQ=MINUTELY;INTERVAL=15',
    );
    expect(buildRule({ ...paris, unit: 'days', every: '1', weekdays: [] })).toBe('DTSTART;TZID=Europe/Paris:20261125T120000\nRRULE:FREQ=DAILY;INTERVAL=1');
  });

  it('reads back every rule it builds', () => {
    const rules: SimpleRule[] = [
      { ...paris, weekdays: ['MO', 'WE'] },
      { ...paris, timeZone: 'UTC', unit: 'minutes', weekdays: [] },
      { ...paris, unit: 'days', weekdays: ['SA', 'SU'] },
    ];
    for (const rule of rules) expect(readRule(buildRule(rule))).toEqual(rule);
  });

  it('leaves to the raw text a rule it would write differently', () => {
    for (const text of [
      'DTSTART:20261125T120000Z\nRRULE:FREQ=WEEKLY;INTERVAL=1',
      'DTSTART:20261125T120000Z\nRRULE:FREQ=HOURLY;INTERVAL=1;COUNT=3',
      'DTSTART:20261125T120000Z\nRRULE:FREQ=HOURLY',
      'DTSTART:20261125T120030Z\nRRULE:FREQ=HOURLY;INTERVAL=1',
      'DTSTART:20261125T120000\nRRULE:FREQ=HOURLY;INTERVAL=1',
      'DTSTART;TZID=Europe/Paris:20261125T120000Z\nRRULE:FREQ=HOURLY;INTERVAL=1',
      'DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY;INTERVAL=1;BYDAY=WE,MO',
      'DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY;INTERVAL=1;BYDAY=1MO',
      'RRULE:FREQ=DAILY;INTERVAL=1\nDTSTART:20261125T120000Z',
      'DTSTART:20261125T120000Z\nRRULE:FREQ=SECONDLY;INTERVAL=5',
    ]) {
      expect(readRule(text), text).toBeUndefined();
    }
  });

  it('says a rule in words, or that it is custom', () => {
    expect(describeRule(buildRule(paris))).toBe('Every 2 hours on Mon, Wed, from Nov 25, 2026, 12:00 (Europe/Paris)');
    expect(describeRule(buildRule({ ...paris, every: '1', unit: 'days', weekdays: [], time: '03:30', timeZone: 'UTC' }))).toBe(
      'Every day at 03:30, from Nov 25, 2026, 03:30 (UTC)',
    );
    expect(describeRule('DTSTART:20261125T120000Z\nRRULE:FREQ=SECONDLY;INTERVAL=5')).toBe('Custom rule');
  });

  it('starts a new rule daily from now (the next whole minute), in a zone it offers', () => {
    const now = new Date('2026-11-25T10:20:30Z');
    const rule = defaultRule(now);
    expect(rule).toMatchObject({ every: '1', unit: 'days', weekdays: [] });
    expect(timeZones()[0]).toBe('UTC');
    expect(timeZones()).toContain(rule.timeZone);
    expect(firstRun(rule, now)?.toISOString()).toBe('2026-11-25T10:21:00.000Z');
  });

  it('finds the first run: the start, the next weekday chosen, or the next step after a start already past', () => {
    // Monday 25 November 2030, 12:00 in Paris is 11:00 UTC.
    const now = new Date('2030-11-20T00:00:00Z');
    const monday = { ...paris, date: '2030-11-25' };
    expect(firstRun(monday, now)?.toISOString()).toBe('2030-11-25T11:00:00.000Z');
    expect(runText(firstRun(monday, now)!, 'Europe/Paris')).toBe('Mon, Nov 25, 2030, 12:00 (Europe/Paris)');
    // A Tuesday start with only Wednesdays: the first 2-hour step on Wednesday, at midnight Paris time.
    const tuesday = { ...paris, date: '2030-11-26', weekdays: ['WE' as const] };
    expect(firstRun(tuesday, now)?.toISOString()).toBe('2030-11-26T23:00:00.000Z');
    // Every 2 minutes from 10:00 UTC, now 10:05:10: the next step is 10:06.
    const minutes: SimpleRule = { every: '2', unit: 'minutes', weekdays: [], date: '2030-11-20', time: '10:00', timeZone: 'UTC' };
    expect(firstRun(minutes, new Date('2030-11-20T10:05:10Z'))?.toISOString()).toBe('2030-11-20T10:06:00.000Z');
    // Daily at 09:30 in New York across the DST end (3 November 2030): the time of day stays.
    const daily: SimpleRule = { every: '1', unit: 'days', weekdays: [], date: '2030-11-01', time: '09:30', timeZone: 'America/New_York' };
    expect(firstRun(daily, new Date('2030-11-04T00:00:00Z'))?.toISOString()).toBe('2030-11-04T14:30:00.000Z');
    expect(firstRun({ ...daily, every: '0' }, now)).toBeUndefined();
  });
});
