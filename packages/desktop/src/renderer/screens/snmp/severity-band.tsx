import { useId } from 'react';
import type { FieldErrors } from '../../ui/form-field.js';
import { highestSeverity, lowestSeverity, severityName, severityNames } from './snmp-choices.js';
import { FieldMessages } from '../../ui/problem-alert.js';

interface SeverityBandProps {
  low: number;
  high: number;
  onChange: (band: { low: number; high: number }) => void;
  errors: FieldErrors;
}

const levels = Object.keys(severityNames).map(Number);

function levelText(level: number): string {
  return `${severityName(level)} (${level})`;
}

/**
 * The severities a trap target receives, [low, high], as two linked sliders: moving one past the
 * other takes the other along, so the band is never empty. Arrow keys move each by one level.
 */
export function SeverityBand({ low, high, onChange, errors }: SeverityBandProps) {
  const id = useId();
  const summaryId = `${id}-summary`;
  const errorIds = { low: `${id}-low-error`, high: `${id}-high-error` };
  const describedBy = (own: string, messages: string[] | undefined) => [summaryId, messages ? own : ''].filter(Boolean).join(' ');
  return (
    <fieldset className="severity-band">
      <legend>Severity band</legend>
      <p className="hint">The target receives every event from the lowest to the highest severity chosen here.</p>
      <label>
        Lowest severity
        <input
          type="range"
          name="severity_low"
          min={lowestSeverity}
          max={highestSeverity}
          step={1}
          value={low}
          aria-valuetext={levelText(low)}
          aria-invalid={errors?.['severity_low'] ? true : undefined}
          aria-describedby={describedBy(errorIds.low, errors?.['severity_low'])}
          onChange={(event) => {
            const next = Number(event.target.value);
            onChange({ low: next, high: Math.max(high, next) });
          }}
        />
        <FieldMessages id={errorIds.low} messages={errors?.['severity_low']} />
      </label>
      <label>
        Highest severity
        <input
          type="range"
          name="severity_high"
          min={lowestSeverity}
          max={highestSeverity}
          step={1}
          value={high}
          aria-valuetext={levelText(high)}
          aria-invalid={errors?.['severity_high'] ? true : undefined}
          aria-describedby={describedBy(errorIds.high, errors?.['severity_high'])}
          onChange={(event) => {
            const next = Number(event.target.value);
            onChange({ low: Math.min(low, next), high: next });
          }}
        />
        <FieldMessages id={errorIds.high} messages={errors?.['severity_high']} />
      </label>
      <ol className="band-scale" aria-hidden="true">
        {levels.map((level) => (
          <li key={level} data-in-band={level >= low && level <= high ? 'yes' : 'no'}>
            {severityName(level)}
          </li>
        ))}
      </ol>
      <p id={summaryId} className="band-summary">
        {low === high ? `Only ${levelText(low)}` : `From ${levelText(low)} to ${levelText(high)}`}
      </p>
    </fieldset>
  );
}
