import './alerts.css';
import { severityName } from '../../labels/snmp-choices.js';

/** An alert's level in words, marked by its level for colour; the words carry it without colour too. */
export function LevelBadge({ level }: { level: number }) {
  return (
    <span className="level" data-level={level}>
      {severityName(level)}
    </span>
  );
}
