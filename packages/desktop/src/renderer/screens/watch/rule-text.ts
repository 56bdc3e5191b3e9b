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

/** A new schedule's rule: every day, starting at the next full hour in the console's zone. */
export function defaultRule(now: Date = new Date()): SimpleRule {
  const timeZone = localTimeZone();
  const next = new Date(Math.ceil((now.getTime() + 1) / 3_600_000) * 3_600_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(next)
      .map((part) => [part.type, part.value]),
  );
  return {
    every: '1',
    unit: 'days',
    weekdays: [],
    date: `${parts['year']}-${parts['month']}-${parts['day']}`,
    time: `${parts['hour']}:${parts['minute']}`,
    timeZone,
  };
}
