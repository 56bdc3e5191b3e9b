/**
 * Body of the recurrence worker, plain JavaScript for `new Worker(src, { eval: true })` (as the
 * scan's walk worker, adapters/local/walk-worker-source.ts): the same from TypeScript sources,
 * the built dist and Electron. rrule and luxon are required by the absolute paths the main
 * thread resolved (`workerData`).
 *
 * Why a worker: rrule iterates candidates until year 9999 for a rule that matches nothing
 * (`FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30` took 16-40 s here), and UNTIL or between() do not
 * bound that. Run off the loop with a deadline, such a rule costs a worker, not the service.
 *
 * Time zones: rrule's own TZID support depends on the process's zone (with TZ=America/New_York
 * a Paris noon came out at 06:00Z). So the rule is iterated in "floating" wall-clock time (the
 * wall clock written as UTC) and each occurrence is placed in its zone by luxon, DST included.
 *
 * Protocol: `{ ready: true }` once rrule and luxon are loaded (the deadline counts from there:
 * loading them on a busy machine took over a second), then
 * `{ id, op: 'check' | 'next' | 'count', text, after?, through?, cap?, minIntervalMs? }` answers
 * `{ id, ok: true, next, count }` or `{ id, ok: false, reason }`.
 */
export const recurrenceWorkerSource = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { RRule } = require(workerData.rrulePath);
const { DateTime, IANAZone } = require(workerData.luxonPath);
parentPort.postMessage({ ready: true });

const frequencies = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY'];
const frequencyList = frequencies.slice(0, -1).join(', ') + ' or ' + frequencies[frequencies.length - 1];

function parse(text) {
  const lines = String(text).split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  const starts = lines.filter((line) => /^DTSTART[;:]/i.test(line));
  const rules = lines.filter((line) => /^RRULE:/i.test(line));
  const other = lines.find((line) => !/^(DTSTART[;:]|RRULE:)/i.test(line));
  if (other !== undefined) throw new Error('unexpected line "' + other.slice(0, 40) + '": write DTSTART, a newline, then RRULE');
  if (starts.length !== 1) throw new Error('needs exactly one DTSTART line, e.g. DTSTART:20261125T120000Z or DTSTART;TZID=Europe/Paris:20261125T120000');
  if (rules.length !== 1) throw new Error('needs exactly one RRULE line, e.g. RRULE:FREQ=DAILY;BYHOUR=2');
  const start = /^DTSTART(?:;TZID=([A-Za-z0-9_+\-\/]+))?:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/i.exec(starts[0]);
  if (!start) throw new Error('DTSTART must be DTSTART:YYYYMMDDTHHMMSSZ (UTC) or DTSTART;TZID=Zone:YYYYMMDDTHHMMSS');
  const [, tzid, y, mo, d, h, mi, s, utc] = start;
  if (tzid && utc) throw new Error('DTSTART with a TZID is a local time: drop the Z');
  if (!tzid && !utc) throw new Error('DTSTART without a TZID must be UTC: end it with Z');
  const zone = tzid || 'UTC';
  if (!IANAZone.isValidZone(zone)) throw new Error('unknown time zone ' + tzid);
  const wall = { year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: +s };
  if (!DateTime.fromObject(wall, { zone: 'UTC' }).isValid) throw new Error('DTSTART is not a valid date and time');
  // rrule reads an unknown FREQ (a typo: MINUTLY) as none at all: name the value and the allowed ones.
  const freq = /(?:^|;)FREQ=([^;]*)/i.exec(rules[0].slice(6));
  if (freq && !frequencies.includes(freq[1].toUpperCase()))
    throw new Error('RRULE: FREQ=' + freq[1].slice(0, 20) + ' is not a frequency; FREQ takes ' + frequencyList);
  let options;
  try {
    options = RRule.parseString(rules[0].slice(6));
  } catch (error) {
    throw new Error('RRULE: ' + error.message);
  }
  if (options.freq === undefined || options.freq === null) throw new Error('RRULE needs FREQ (' + frequencyList + ')');
  if (options.dtstart || options.tzid) throw new Error('DTSTART goes on its own line, not in the RRULE');
  const ranges = { byhour: [0, 23], byminute: [0, 59], bysecond: [0, 59], bymonth: [1, 12], bymonthday: [-31, 31], byyearday: [-366, 366], byweekno: [-53, 53] };
  for (const [key, [low, high]] of Object.entries(ranges)) {
    const values = options[key] === undefined || options[key] === null ? [] : [].concat(options[key]);
    const bad = values.find((value) => typeof value !== 'number' || value < low || value > high || value === 0 && low < 0);
    if (bad !== undefined) throw new Error('RRULE: ' + key.toUpperCase() + ' takes ' + low + ' to ' + high + (low < 0 ? ' (not 0)' : '') + ', not ' + bad);
  }
  if (options.interval !== undefined && (!(options.interval >= 1) || options.interval > 100000)) throw new Error('RRULE: INTERVAL takes 1 to 100000');
  const dtstart = new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
  // UNTIL is an instant (UTC): as wall-clock time in the rule's zone for the floating iteration.
  const until = options.until ? toWall(options.until, zone) : null;
  return { zone, options: { ...options, dtstart, until } };
}

// rrule iterates from DTSTART on every call (a SECONDLY rule a week old: 2 s per answer). A rule
// of fixed-length periods without COUNT repeats every INTERVAL periods, so it is started again
// a whole number of those before the wall-clock time asked about: same occurrences, few steps.
const periodMs = { [RRule.WEEKLY]: 604800000, [RRule.DAILY]: 86400000, [RRule.HOURLY]: 3600000, [RRule.MINUTELY]: 60000, [RRule.SECONDLY]: 1000 };
function ruleFrom(parsed, wall) {
  const { options } = parsed;
  const period = periodMs[options.freq];
  if (period === undefined || options.count) return new RRule(options);
  const step = period * (options.interval || 1);
  const periods = Math.floor((wall.getTime() - options.dtstart.getTime()) / step) - 1;
  if (periods <= 0) return new RRule(options);
  return new RRule({ ...options, dtstart: new Date(options.dtstart.getTime() + periods * step) });
}

/**
 * A zone's offset (minutes) at an instant, remembered per quarter hour: every real transition
 * falls on one, and asking luxon costs ~20 us (a SECONDLY rule asks for each second).
 */
function offsets(zoneName) {
  if (zoneName === 'UTC') return () => 0;
  const zone = IANAZone.create(zoneName);
  const known = new Map();
  return (ms) => {
    const quarter = Math.floor(ms / 900000);
    let offset = known.get(quarter);
    if (offset === undefined) {
      offset = zone.offset(quarter * 900000);
      if (known.size > 10000) known.clear();
      known.set(quarter, offset);
    }
    return offset;
  };
}

/** An instant as the wall clock of its zone, written as UTC. */
function toWall(instant, zone) {
  return new Date(instant.getTime() + offsets(zone)(instant.getTime()) * 60000);
}

/**
 * A wall-clock time (written as UTC) as the instant it is in the zone: the offset of a first
 * guess, applied again. A time a DST change skips comes out moved forward by the change; one it
 * repeats, as its later instant.
 */
function fromWall(wallMs, offsetAt) {
  return wallMs - offsetAt(wallMs - offsetAt(wallMs) * 60000) * 60000;
}

/**
 * Each occurrence strictly after the instant after, in order, to visit (which returns false to
 * stop). The walk starts at the wall-clock time of after; two hours earlier when the zone's
 * offset changes near it, where an earlier wall-clock time can be a later instant.
 */
function occurrencesAfter(parsed, after, visit) {
  const offsetAt = offsets(parsed.zone);
  const at = after.getTime();
  const steady = offsetAt(at - 3 * 3600000) === offsetAt(at + 3 * 3600000);
  const from = new Date(at + offsetAt(at) * 60000 - (steady ? 1000 : 2 * 3600000));
  const rule = ruleFrom(parsed, from);
  rule.between(from, new Date(Date.UTC(9999, 11, 31)), false, (wall) => {
    const instant = fromWall(wall.getTime(), offsetAt);
    return instant <= at || visit(new Date(instant)) !== false;
  });
}

function nextAfter(parsed, after) {
  let next = null;
  occurrencesAfter(parsed, after, (instant) => {
    next = instant;
    return false;
  });
  return next;
}

// A submitted rule (op 'check'). Its occurrences may come no closer than minIntervalMs: the
// gaps between the first occurrences from now are looked at (a rule's BY parts repeat within
// one period of its FREQ, so a close pair shows among them). A COUNT rule is evaluated from its
// DTSTART every time (its n-th occurrence depends on all before it): its whole run must be
// short to walk, or it would fail once enough time passed (docs/decisions/108-…).
const occurrencesLooked = 500;
const maxCount = 10000;
function check(parsed, after, minIntervalMs) {
  const { options } = parsed;
  const intervalWords = minIntervalMs % 60000 === 0 ? minIntervalMs / 60000 + ' minute(s)' : minIntervalMs / 1000 + ' second(s)';
  const tooClose = (gapMs) =>
    new Error('occurrences ' + gapMs / 1000 + ' s apart: the lowest interval between runs is ' + intervalWords + ' (setting schedule_min_interval_seconds)');
  const step = periodMs[options.freq];
  if (step !== undefined && step * (options.interval || 1) < minIntervalMs && !hasBy(options)) throw tooClose(step * (options.interval || 1));
  if (options.count) {
    if (options.count > maxCount) throw new Error('RRULE: COUNT takes 1 to ' + maxCount + ' (it is counted from DTSTART at every run); use UNTIL for a longer rule');
    const started = Date.now();
    let seen = 0;
    new RRule(options).all(() => ++seen <= maxCount);
    if (Date.now() - started > budgetMs / 4)
      throw new Error('RRULE: this COUNT rule takes too long to count from its DTSTART (' + (Date.now() - started) + ' ms); use UNTIL instead of COUNT');
  }
  let previous = null;
  let looked = 0;
  occurrencesAfter(parsed, after, (instant) => {
    if (previous !== null && instant.getTime() - previous < minIntervalMs) throw tooClose(instant.getTime() - previous);
    previous = instant.getTime();
    return ++looked < occurrencesLooked;
  });
}
function hasBy(options) {
  return ['bysecond', 'byminute', 'byhour', 'byweekday', 'bymonthday', 'byyearday', 'byweekno', 'bymonth', 'bysetpos'].some(
    (key) => options[key] !== undefined && options[key] !== null && [].concat(options[key]).length > 0,
  );
}
const budgetMs = workerData.deadlineMs || 1000;

parentPort.on('message', (request) => {
  try {
    const parsed = parse(request.text);
    const after = new Date(request.after);
    if (request.op === 'check') check(parsed, after, request.minIntervalMs);
    if (request.op === 'count') {
      // Occurrences in (after, through], at most cap of them, and the first one past through.
      const through = new Date(request.through).getTime();
      let count = 0;
      let next = null;
      occurrencesAfter(parsed, after, (instant) => {
        if (instant.getTime() > through) {
          next = instant;
          return false;
        }
        count += 1;
        if (count < request.cap) return true;
        next = nextAfter(parsed, new Date(Math.max(through, instant.getTime())));
        return false;
      });
      parentPort.postMessage({ id: request.id, ok: true, count, next: next ? next.toISOString() : null });
      return;
    }
    const next = nextAfter(parsed, after);
    parentPort.postMessage({ id: request.id, ok: true, next: next ? next.toISOString() : null, count: 0 });
  } catch (error) {
    parentPort.postMessage({ id: request.id, ok: false, reason: error instanceof Error ? error.message : String(error) });
  }
});
`;
