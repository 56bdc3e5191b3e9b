/**
 * The simple schedules the form builds, as RFC 5545 text and back: every N minutes, hours or days
 * from a start (date, time of day, time zone), optionally on chosen weekdays only. The core
 * parses the text (a well-kept RRULE library) and answers with the parser's reason; nothing is
 * evaluated here. A rule the form cannot build again exactly is left to the raw text.
 */

export const ruleUnits = { minutes: 'MINUTELY', hours: 'HOURLY', days: 'DAILY' } as const;
export type RuleUnit = keyof typeof ruleUnits;

export const ruleUnitLabels: Record<RuleUnit, string> = { minutes: 'minutes', hours: 'hours', days: 'days' };

export const weekdayNames = { MO: 'Monday', TU: 'Tuesday', WE: 'Wednesday', TH: 'Thursday', FR: 'Friday', SA: 'Saturday', SU: 'Sunday' } as const;
export type Weekday = keyof typeof weekdayNames;
export const weekdays = Object.keys(weekdayNames) as Weekday[];

/** Written as `DTSTART:…Z`, not with a TZID. */
export const utc = 'UTC';

export interface SimpleRule {
  /** As typed: a positive whole number once valid (the core refuses anything else, with its reason). */
  every: string;
  unit: RuleUnit;
  /** None: every day. */
  weekdays: Weekday[];
  /** `2026-11-25`, as a date input gives it. */
  date: string;
  /** `12:00`, as a time input gives it: the time of day of a daily rule, the start of the others. */
  time: string;
  /** `UTC` or an IANA zone (`Europe/Paris`): the start's, and the time of day's, zone. */
  timeZone: string;
}

const unitByFrequency = Object.fromEntries(Object.entries(ruleUnits).map(([unit, frequency]) => [frequency, unit])) as Record<string, RuleUnit>;

/** The rule as RFC 5545 text: a DTSTART line, then an RRULE line. */
export function buildRule(rule: SimpleRule): string {
  const stamp = `${rule.date.replaceAll('-', '')}T${rule.time.replace(':', '')}00`;
  const start = rule.timeZone === utc ? `DTSTART:${stamp}Z` : `DTSTART;TZID=${rule.timeZone}:${stamp}`;
  // In the week's order, whatever order they were ticked in.
  const days = weekdays.filter((day) => rule.weekdays.includes(day));
  const parts = [`FREQ=${ruleUnits[rule.unit]}`, `INTERVAL=${rule.every.trim()}`, ...(days.length > 0 ? [`BYDAY=${days.join(',')}`] : [])];
  return `${start}\nRRULE:${parts.join(';')}`;
}

const startPattern = /^DTSTART(?:;TZID=([^:;\n]+))?:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})00(Z?)$/;

/** The form's reading of a rule's text, or undefined when the form cannot build that exact text (the raw text is then edited). */
export function readRule(text: string): SimpleRule | undefined {
  const [startLine = '', ruleLine = '', ...rest] = text.split('\n');
  if (rest.length > 0 || !ruleLine.startsWith('RRULE:')) return undefined;
  const start = startPattern.exec(startLine);
  if (!start) return undefined;
  const [, zone, year, month, day, hour, minute, z] = start;
  const parts = new Map(
    ruleLine
      .slice('RRULE:'.length)
      .split(';')
      .map((part) => part.split('=') as [string, string]),
  );
  const unit = unitByFrequency[parts.get('FREQ') ?? ''];
  if (!unit) return undefined;
  const rule: SimpleRule = {
    every: parts.get('INTERVAL') ?? '',
    unit,
    weekdays: (parts.get('BYDAY')?.split(',') ?? []) as Weekday[],
    date: `${year}-${month}-${day}`,
    time: `${hour}:${minute}`,
    timeZone: z ? utc : (zone ?? ''),
  };
  // Anything the form would write differently (another part, a weekday with an ordinal, a floating time) stays raw.
  return buildRule(rule) === text && (z === '') !== (zone === undefined) ? rule : undefined;
}

const shortWeekdays = (days: readonly Weekday[]) => days.map((day) => weekdayNames[day].slice(0, 3)).join(', ');

/** "Every 2 hours on Mon, Wed, from Nov 25, 2030, 12:00 (Europe/Paris)"; a rule the form does not build is "Custom rule". */
export function describeRule(text: string): string {
  const rule = readRule(text);
  if (!rule) return 'Custom rule';
  const every = rule.every === '1' ? `Every ${rule.unit.slice(0, -1)}` : `Every ${rule.every} ${rule.unit}`;
  const on = rule.weekdays.length > 0 ? ` on ${shortWeekdays(rule.weekdays)}` : '';
  const date = new Date(`${rule.date}T00:00:00`).toLocaleDateString('en', { dateStyle: 'medium' });
  const at = rule.unit === 'days' ? ` at ${rule.time}` : '';
  return `${every}${on}${at}, from ${date}, ${rule.time} (${rule.timeZone})`;
}

/** The zone the console runs in, as the form offers it (`UTC` for UTC's other names). */
export function localTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return !zone || ['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT'].includes(zone) ? utc : zone;
}

/** The zones the form offers: UTC first, then every IANA zone the browser knows. */
export function timeZones(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [localTimeZone()];
  return [utc, ...known.filter((zone) => zone !== utc)];
}

/** A new schedule's rule: every day, starting now (the next whole minute) in the console's zone. */
export function defaultRule(now: Date = new Date()): SimpleRule {
  const timeZone = localTimeZone();
  const next = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + 60_000);
  const parts = zoneParts(next.getTime(), timeZone);
  return {
    every: '1',
    unit: 'days',
    weekdays: [],
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    timeZone,
  };
}

/** An instant's wall-clock fields in a zone, two digits each (four for the year). */
function zoneParts(instant: number, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return { year: parts['year']!, month: parts['month']!, day: parts['day']!, hour: parts['hour']!, minute: parts['minute']!, second: parts['second']! };
}

/** The instant a zone's wall clock shows this date and time (the later reading of a time a DST change repeats). */
function wallClockInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const offsetAt = (instant: number) => {
    const p = zoneParts(instant, timeZone);
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - instant;
  };
  // Twice: the offset at the first guess may be the other side of a DST change.
  const first = asUtc - offsetAt(asUtc);
  return asUtc - offsetAt(first);
}

const weekdayByIndex: readonly Weekday[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** The weekday an instant falls on in a zone. */
function weekdayIn(instant: number, timeZone: string): Weekday {
  const p = zoneParts(instant, timeZone);
  return weekdayByIndex[new Date(Date.UTC(+p.year, +p.month - 1, +p.day)).getUTCDay()]!;
}

/** How far ahead the first run is looked for: a week holds every weekday. */
const lookAheadMs = 8 * 86_400_000;

/**
 * When a rule the form builds first runs, at or after `now`: its start, or the first step after
 * it that falls on a chosen weekday (a start already past counts on from it). Undefined while a
 * field is not filled in as the core takes it (the core then says why, on save).
 */
export function firstRun(rule: SimpleRule, now: Date = new Date()): Date | undefined {
  const every = Number(rule.every.trim());
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(rule.date);
  const time = /^(\d{2}):(\d{2})$/.exec(rule.time);
  if (!Number.isInteger(every) || every < 1 || !date || !time || !rule.timeZone) return undefined;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const [hour, minute] = [Number(time[1]), Number(time[2])];
  const onDay = (instant: number) => rule.weekdays.length === 0 || rule.weekdays.includes(weekdayIn(instant, rule.timeZone));
  const start = wallClockInstant(year, month, day, hour, minute, rule.timeZone);
  if (rule.unit === 'days') {
    // Days count on the zone's calendar: the time of day stays, whatever the DST offset.
    const stepDays = every;
    let k = start >= now.getTime() ? 0 : Math.floor((now.getTime() - start) / (stepDays * 86_400_000));
    for (let tries = 0; tries < 800; tries++, k++) {
      const shifted = new Date(Date.UTC(year, month - 1, day + k * stepDays));
      const at = wallClockInstant(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate(), hour, minute, rule.timeZone);
      if (at >= now.getTime() && onDay(at)) return new Date(at);
    }
    return undefined;
  }
  const step = every * (rule.unit === 'minutes' ? 60_000 : 3_600_000);
  const from = start >= now.getTime() ? 0 : Math.ceil((now.getTime() - start) / step);
  const tries = Math.min(Math.ceil(lookAheadMs / step) + 1, 20_000);
  for (let k = from; k < from + tries; k++) {
    const at = start + k * step;
    if (onDay(at)) return new Date(at);
  }
  return undefined;
}

/** "Mon, Nov 25, 2030, 12:00 (Europe/Paris)": a run's time on the zone's clock. */
export function runText(at: Date, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en', {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${text} (${timeZone})`;
}
