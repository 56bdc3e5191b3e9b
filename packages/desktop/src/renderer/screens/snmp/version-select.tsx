import { snmpVersionChoices } from './snmp-choices.js';

/** The SNMP version of a trap target or of the agent, as a labelled select named `version`. */
export function VersionSelect({ defaultValue }: { defaultValue: string }) {
  return (
    <label>
      Version
      <select name="version" defaultValue={defaultValue}>
        {snmpVersionChoices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
