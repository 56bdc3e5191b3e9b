import type { Delivery } from '@dms/core';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { ColumnHeads } from '../../ui/column-heads.js';
import { preciseTime } from '../../ui/format.js';
import { deliveryOutcomeLabels, notificationEventLabels } from '../../labels/notification-labels.js';
import { settingsFieldLabels, settingsFieldsByType, settingText } from './channel-settings.js';
import type { NotificationChannel } from './channel-form.js';

/** How many of a channel's newest deliveries its detail shows. */
const shownDeliveries = 10;

const deliveryColumns = [
  { label: 'At' },
  { label: 'Event' },
  { label: 'Outcome' },
  { label: 'Attempts', number: true },
  { label: 'Answer' },
  { label: 'Next retry' },
];

/** The receiver's answer to the latest attempt: its HTTP status, the error, or both. */
export function deliveryAnswer(delivery: Pick<Delivery, 'status_code' | 'error'>): string {
  const status = delivery.status_code === null ? '' : `HTTP ${delivery.status_code}`;
  return [status, delivery.error ?? ''].filter(Boolean).join(': ');
}

/**
 * Under a channel's row: its settings as stored (the secrets are never answered) and its newest
 * deliveries, one per event (a test is sent at once and not listed). Refresh reloads the list's
 * row too (its last delivery).
 */
export function ChannelDeliveries({ channel, id, onRefresh }: { channel: NotificationChannel; id: string; onRefresh: () => void }) {
  const deliveries = useLoad(
    () => api.notificationChannels.deliveries.query({ channel: channel.id, query: { per_page: shownDeliveries } }),
    String(channel.id),
  );
  const shown = settingsFieldsByType[channel.type].filter((field) => settingText(channel.settings[field]) !== '');
  const rows = deliveries.data?.deliveries ?? [];
  const count = deliveries.data?.count ?? 0;
  return (
    <section id={id} className="channel-detail" aria-label={`Channel ${channel.name}: settings and deliveries`}>
      <dl className="channel-settings-list">
        {shown.map((field) => (
          <div key={field}>
            <dt>{settingsFieldLabels[field]}</dt>
            <dd>{settingText(channel.settings[field])}</dd>
          </div>
        ))}
      </dl>
      <div className="history-toolbar">
        <p className="storage-count">
          {count === 0
            ? 'No deliveries yet: events it takes are listed here as they are queued.'
            : `The newest ${Math.min(count, shownDeliveries)} of ${count} deliveries`}
        </p>
        <button
          type="button"
          className="secondary small"
          onClick={() => (deliveries.reload(), onRefresh())}
          aria-label={`Refresh the deliveries of ${channel.name}`}
        >
          Refresh
        </button>
      </div>
      <ErrorAlert message={deliveries.error} />
      {rows.length > 0 && (
        <table className="delivery-table">
          <caption className="visually-hidden">Deliveries to {channel.name}</caption>
          <ColumnHeads columns={deliveryColumns} />
          <tbody>
            {rows.map((delivery) => (
              <tr key={delivery.id}>
                <td className="time">{preciseTime(delivery.at ?? delivery.created_at)}</td>
                <td>{notificationEventLabels[delivery.event_type]}</td>
                <td>
                  <span className="status" data-status={delivery.outcome === 'delivered' ? 'completed' : delivery.outcome}>
                    {deliveryOutcomeLabels[delivery.outcome]}
                  </span>
                </td>
                <td className="number">{delivery.attempts}</td>
                <td>{deliveryAnswer(delivery)}</td>
                <td className="time">{preciseTime(delivery.next_attempt_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
