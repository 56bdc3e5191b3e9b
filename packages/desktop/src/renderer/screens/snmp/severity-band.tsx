import { useId } from 'react';
import type { FieldErrors } from '../../ui/form-field.js';
import { highestSeverity, lowestSeverity, severityName, severityNames } from '../../labels/snmp-choices.js';
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

interface SeveritySliderProps {
  label: string;
  name: 'severity_low' | 'severity_high';
  value: number;
  errorId: string;
  messages: string[] | undefined;
  describedBy: (own: string, messages: string[] | undefined) => string;
  onMove: (level: number) => void;
}

/** One end of the band: a slider over the levels, read out by name ("Warning (3)"). */
function SeveritySlider({ label, name, value, errorId, messages, describedBy, onMove }: SeveritySliderProps) {
  return (
    <label>
      {label}
      <input
        type="range"
        name={name}
        min={lowestSeverity}
        max={highestSeverity}
        step={1}
        value={value}
        aria-valuetext={levelText(value)}
        aria-invalid={messages ? true : undefined}
        aria-describedby={describedBy(errorId, messages)}
        onChange={(event) => onMove(Number(event.target.value))}
      />
      <FieldMessages id={errorId} messages={messages} />
    </label>
  );
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
      <SeveritySlider
        label="Lowest severity"
        name="severity_low"
        value={low}
        errorId={errorIds.low}
        messages={errors?.['severity_low']}
        describedBy={describedBy}
        onMove={(next) => onChange({ low: next, high: Math.max(high, next) })}
      />
      <SeveritySlider
        label="Highest severity"
        name="severity_high"
        value={high}
        errorId={errorIds.high}
        messages={errors?.['severity_high']}
        describedBy={describedBy}
        onMove={(next) => onChange({ low: Math.min(low, next), high: next })}
      />
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
