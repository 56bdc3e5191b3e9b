import { useId, useMemo } from 'react';
import type { FieldErrors } from '../../ui/form-field.js';
import { FieldMessages } from '../../ui/problem-alert.js';
import { optionsOf } from '../../labels/storage-labels.js';
import { buildRule, firstRun, readRule, ruleUnitLabels, runText, timeZones, weekdayNames, weekdays, type RuleUnit, type SimpleRule } from './rule-text.js';

/** The rule as the form holds it: the simple fields, and the raw text while it is edited by hand. */
export interface RuleState {
  simple: SimpleRule;
  /** The text typed by hand; undefined while the simple fields build it. */
  raw: string | undefined;
}

/** What the form sends: the text the simple fields build, or the one typed by hand. */
export function ruleOf(state: RuleState): string {
  return state.raw ?? buildRule(state.simple);
}

interface RuleFieldsProps {
  form: string;
  value: RuleState;
  onChange: (value: RuleState) => void;
  errors: FieldErrors;
}

/** "First run: Mon, Nov 25, 2030, 12:00 (Europe/Paris)", from the fields as they stand. */
function firstRunText(rule: SimpleRule): string {
  const at = firstRun(rule);
  return at ? `First run: ${runText(at, rule.timeZone)}` : 'First run: fill in every field above to see it.';
}

/**
 * When a schedule runs: every N minutes, hours or days from a start date and time in a time zone,
 * optionally on chosen weekdays only; the RFC 5545 text it makes is shown under them, and can be
 * edited by hand (advanced). The core's reason for refusing a rule shows at the text.
 */
export function RuleFields({ form, value, onChange, errors }: RuleFieldsProps) {
  const id = useId();
  const zones = useMemo(timeZones, []);
  const { simple, raw } = value;
  const advanced = raw !== undefined;
  const set = (change: Partial<SimpleRule>) => onChange({ simple: { ...simple, ...change }, raw });
  const toggleDay = (day: (typeof weekdays)[number], on: boolean) =>
    set({ weekdays: on ? [...simple.weekdays, day] : simple.weekdays.filter((other) => other !== day) });
  const setAdvanced = (on: boolean) => {
    if (on) return onChange({ simple, raw: buildRule(simple) });
    // Back to the simple fields: they take the text typed by hand when they can build it.
    onChange({ simple: readRule(raw ?? '') ?? simple, raw: undefined });
  };
  const textId = `${id}-rrule`;
  const hintId = `${form}-rrule-hint`;
  const errorId = `${form}-rrule-error`;
  const messages = errors?.['rrule'];
  const fromTextHint = 'Turn this off to build the rule with the fields above again (a rule they cannot build is replaced).';
  return (
    <fieldset className="rule-fields">
      <legend>When it runs</legend>
      <fieldset className="rule-simple" disabled={advanced}>
        <legend className="visually-hidden">Repeat</legend>
        <div className="rule-row">
          <label>
            Every
            <input
              type="number"
              name="every"
              min={1}
              step={1}
              inputMode="numeric"
              className="rule-every"
              value={simple.every}
              onChange={(event) => set({ every: event.target.value })}
            />
          </label>
          <label>
            Unit
            <select name="unit" value={simple.unit} onChange={(event) => set({ unit: event.target.value as RuleUnit })}>
              {optionsOf(ruleUnitLabels).map(([unit, label]) => (
                <option key={unit} value={unit}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="rule-row">
          <label>
            Starting on
            <input type="date" name="start-date" required value={simple.date} onChange={(event) => set({ date: event.target.value })} />
          </label>
          <label>
            At
            <input
              type="time"
              name="start-time"
              required
              value={simple.time}
              aria-describedby={`${id}-time-hint`}
              onChange={(event) => set({ time: event.target.value })}
            />
          </label>
          <label>
            Time zone
            <select name="time-zone" value={simple.timeZone} onChange={(event) => set({ timeZone: event.target.value })}>
              {(zones.includes(simple.timeZone) ? zones : [simple.timeZone, ...zones]).map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          </label>
        </div>
        <span id={`${id}-time-hint`} className="hint">
          Every N days runs at this time of day; minutes and hours count from it. A new schedule starts now, in your time zone.
        </span>
        <fieldset className="rule-days">
          <legend>Only on (none ticked: every day)</legend>
          {weekdays.map((day) => (
            <label key={day} className="inline">
              <input
                type="checkbox"
                name="weekday"
                value={day}
                checked={simple.weekdays.includes(day)}
                onChange={(event) => toggleDay(day, event.target.checked)}
              />
              <span>
                <span aria-hidden="true">{weekdayNames[day].slice(0, 3)}</span>
                <span className="visually-hidden">{weekdayNames[day]}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </fieldset>
      <div className="field">
        <label htmlFor={textId}>Rule (RFC 5545)</label>
        <textarea
          id={textId}
          name="rrule"
          rows={2}
          spellCheck={false}
          readOnly={!advanced}
          value={ruleOf(value)}
          aria-invalid={messages ? true : undefined}
          aria-describedby={[messages ? errorId : '', hintId].filter(Boolean).join(' ')}
          onChange={(event) => onChange({ simple, raw: event.target.value })}
        />
        <span id={hintId} className="hint">
          {advanced ? fromTextHint : 'Built from the fields above. A DTSTART line (with TZID for a time zone), then an RRULE line.'}
        </span>
        <FieldMessages id={errorId} messages={messages} />
      </div>
      <p className="first-run" role="status">
        {advanced ? 'The list shows the next run once the schedule is saved.' : firstRunText(simple)}
      </p>
      <label className="inline">
        <input type="checkbox" name="advanced" checked={advanced} onChange={(event) => setAdvanced(event.target.checked)} />
        Edit the rule text by hand (advanced)
      </label>
    </fieldset>
  );
}
