import { afterAll, describe, expect, it } from 'vitest';
import { RecurrenceError, Recurrences } from './recurrence.js';

const recurrences = new Recurrences(500);
afterAll(() => recurrences.close());

describe('Recurrences (RRULE off the event loop)', () => {
  it('finds the next occurrence of a UTC rule, sub-minute rules included', async () => {
    const every5s = 'DTSTART:20261125T120000Z\nRRULE:FREQ=SECONDLY;INTERVAL=5';
    expect(await recurrences.next(every5s, new Date('2026-11-25T12:00:07Z'))).toEqual(new Date('2026-11-25T12:00:10Z'));
    expect(await recurrences.next(every5s, new Date('2026-11-25T12:00:10Z'))).toEqual(new Date('2026-11-25T12:00:15Z'));
  });

  it('places a TZID rule in its zone, across a daylight-saving change, whatever the process zone', async () => {
    const noonInParis = 'DTSTART;TZID=Europe/Paris:20270326T120000\nRRULE:FREQ=DAILY';
    expect(await recurrences.next(noonInParis, new Date('2027-03-26T00:00:00Z'))).toEqual(new Date('2027-03-26T11:00:00Z'));
    // Paris moves to UTC+2 on 2027-03-28: noon is 10:00Z from then on.
    expect(await recurrences.next(noonInParis, new Date('2027-03-28T00:00:00Z'))).toEqual(new Date('2027-03-28T10:00:00Z'));
  });

  it('places the wall-clock times a DST change skips or repeats: a skipped one moves forward, a repeated one runs once', async () => {
    // 2027-03-28 in Paris: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist that day.
    const skipped = 'DTSTART;TZID=Europe/Paris:20270327T023000\nRRULE:FREQ=DAILY';
    expect(await recurrences.next(skipped, new Date('2027-03-27T12:00:00Z'))).toEqual(new Date('2027-03-28T01:30:00Z'));
    // 2026-10-25 in Paris: 03:00 CEST goes back to 02:00 CET; 02:30 happens twice, runs once.
    const repeated = 'DTSTART;TZID=Europe/Paris:20261024T023000\nRRULE:FREQ=DAILY';
    const first = await recurrences.next(repeated, new Date('2026-10-24T12:00:00Z'));
    expect(first).toEqual(new Date('2026-10-25T01:30:00Z'));
    expect(await recurrences.next(repeated, first!)).toEqual(new Date('2026-10-26T01:30:00Z'));
  });

  it('answers fast for a sub-minute rule started long ago (rebased, not iterated from DTSTART)', async () => {
    // Iterating from DTSTART takes seconds: past the 500 ms deadline, this would be refused.
    const next = await recurrences.next('DTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY;INTERVAL=7', new Date('2026-11-25T12:00:00Z'));
    expect(next!.getTime()).toBeGreaterThan(new Date('2026-11-25T12:00:00Z').getTime());
    expect((next!.getTime() - Date.UTC(2026, 0, 1)) % 7000).toBe(0);
  });

  it('counts the occurrences missed in a window, capped, with the one after it', async () => {
    const everyMinute = 'DTSTART:20261125T120000Z\nRRULE:FREQ=MINUTELY';
    expect(await recurrences.count(everyMinute, new Date('2026-11-25T12:00:00Z'), new Date('2026-11-25T12:10:30Z'), 1000)).toEqual({
      count: 10,
      next: new Date('2026-11-25T12:11:00Z'),
    });
    expect((await recurrences.count(everyMinute, new Date('2026-11-25T12:00:00Z'), new Date('2026-11-26T12:00:00Z'), 5)).count).toBe(5);
  });

  it('ends with the rule: null after UNTIL or COUNT', async () => {
    expect(await recurrences.next('DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY;COUNT=2', new Date('2026-11-26T12:00:00Z'))).toBeNull();
    expect(await recurrences.next('DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY;UNTIL=20261127T000000Z', new Date('2026-11-26T12:00:00Z'))).toBeNull();
  });

  it.each([
    ['RRULE:FREQ=DAILY', 'exactly one DTSTART'],
    ['DTSTART:20261125T120000Z', 'exactly one RRULE'],
    ['DTSTART:20261125T120000\nRRULE:FREQ=DAILY', 'must be UTC'],
    ['DTSTART;TZID=Mars/Olympus:20261125T120000\nRRULE:FREQ=DAILY', 'unknown time zone'],
    ['DTSTART:20261125T120000Z\nRRULE:FREQ=WEEKLYY', 'RRULE: FREQ=WEEKLYY is not a frequency; FREQ takes YEARLY, MONTHLY, WEEKLY, DAILY'],
    [
      'DTSTART:20261125T120000Z\nRRULE:INTERVAL=5;FREQ=MINUTLY',
      'RRULE: FREQ=MINUTLY is not a frequency; FREQ takes YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY or SECONDLY',
    ],
    ['DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY;BYHOUR=99', 'BYHOUR takes 0 to 23'],
    ['DTSTART:20261125T120000Z\nRRULE:INTERVAL=2', 'needs FREQ'],
    ['DTSTART:20261125T120000Z\nEXDATE:20261126T120000Z\nRRULE:FREQ=DAILY', 'unexpected line'],
  ])('refuses %j saying why', async (text, reason) => {
    await expect(recurrences.next(text, new Date('2026-11-25T00:00:00Z'))).rejects.toThrow(reason);
  });

  it('refuses a rule that matches nothing within the deadline, and the next request works', async () => {
    const never = 'DTSTART:20261125T120000Z\nRRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30';
    const error = await recurrences.next(never, new Date('2026-11-25T12:00:00Z')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RecurrenceError);
    expect((error as Error).message).toContain('took longer than 500 ms');
    expect(await recurrences.next('DTSTART:20261125T120000Z\nRRULE:FREQ=HOURLY', new Date('2026-11-25T12:30:00Z'))).toEqual(new Date('2026-11-25T13:00:00Z'));
  });

  it('issue 40 item 4: a rule that runs out of time fails only itself: the evaluations queued behind it all answer', async () => {
    const never = 'DTSTART:20261125T120000Z\nRRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30';
    const at = new Date('2026-11-25T12:30:00Z');
    const [slow, ...queued] = await Promise.allSettled([
      recurrences.next(never, at),
      recurrences.next('DTSTART:20261125T120000Z\nRRULE:FREQ=HOURLY', at),
      recurrences.count('DTSTART:20261125T120000Z\nRRULE:FREQ=MINUTELY', at, new Date('2026-11-25T12:35:00Z'), 100),
      recurrences.next(never, at),
      recurrences.next('DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY', at),
    ]);
    expect(slow).toMatchObject({ status: 'rejected', reason: { timedOut: true } });
    expect(queued.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(queued[0]).toMatchObject({ value: new Date('2026-11-25T13:00:00Z') });
    expect(queued[1]).toMatchObject({ value: { count: 5, next: new Date('2026-11-25T12:36:00Z') } });
  });
});
