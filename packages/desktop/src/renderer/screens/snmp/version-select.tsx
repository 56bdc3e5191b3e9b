import { snmpVersionChoices } from '../../labels/snmp-choices.js';

/**
 * The SNMP version of a trap target or of the agent, as a labelled select named `version`;
 * `choices` for a trap target's (which adds v3), `onChange` for a form that shows fields by version.
 */
export function VersionSelect({
  defaultValue,
  choices = snmpVersionChoices,
  onChange,
}: {
  defaultValue: string;
  choices?: ReadonlyArray<{ value: string; label: string }>;
  onChange?: (version: string) => void;
}) {
  return (
    <label>
      Version
      <select name="version" defaultValue={defaultValue} onChange={onChange && ((event) => onChange(event.target.value))}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
