import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { severityName } from '../../labels/snmp-choices.js';
import { ColumnHeads } from '../../ui/column-heads.js';

// Loaded once for every form: the catalogue is fixed while the app runs.
let catalogue: ReturnType<typeof api.traps.eventCatalogue.query> | undefined;
function loadCatalogue() {
  catalogue ??= api.traps.eventCatalogue.query();
  catalogue.catch(() => (catalogue = undefined));
  return catalogue;
}

/**
 * The events dms raises, each with its level and description, and which of them a target with
 * the band [low, high] receives. An alert's raise and clear go out at the alert's own level (set
 * per source in Alert settings), so whether they pass depends on that level, not on a fixed one.
 */
export function BandEvents({ low, high, id }: { low: number; high: number; id: string }) {
  const events = useLoad(loadCatalogue);
  if (events.error) return <ErrorAlert message={events.error} />;
  if (!events.data) return <p className="hint">Loading the events…</p>;
  const inBand = (level: number) => level >= low && level <= high;
  const received = events.data.filter((event) => !event.atAlertLevel && inBand(event.level));
  const alertEvents = events.data.filter((event) => event.atAlertLevel);
  return (
    <section className="band-events" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>What this target receives</h3>
      <p className="band-events-summary">
        {received.length === 0 ? 'No event of a fixed level' : `${received.length} of ${events.data.length - alertEvents.length} events of a fixed level`}
        {received.length > 0 && `: ${received.map((event) => event.name).join(', ')}`}. Alert events ({alertEvents.map((event) => event.name).join(', ')}) come
        at their alert&apos;s level, set per source in Alert settings: it receives those of alerts from {severityName(low)} to {severityName(high)}.
      </p>
      <table aria-label="Events and their levels" className="band-events-table">
        <ColumnHeads columns={[{ label: 'Event' }, { label: 'Level' }, { label: 'Description' }, { label: 'Received' }]} />
        <tbody>
          {events.data.map((event) => {
            const receives = event.atAlertLevel ? null : inBand(event.level);
            return (
              <tr key={event.name} data-received={receives === null ? 'depends' : receives ? 'yes' : 'no'}>
                <td>
                  <code className="admin-code">{event.name}</code>
                </td>
                <td className="nowrap">{event.atAlertLevel ? "the alert's level" : `${severityName(event.level)} (${event.level})`}</td>
                <td>{event.description}</td>
                <td>{receives === null ? 'by its alert’s level' : receives ? 'yes' : 'no'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
