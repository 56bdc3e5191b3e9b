import type { Outputs } from '../../trpc-client.js';
import { api } from '../../trpc-client.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { ColumnHeads } from '../../ui/column-heads.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { ListPages, useListPage } from '../../ui/list-pages.js';
import { useLoad } from '../../ui/use-load.js';
import { shortTime } from '../../ui/format.js';
import { notifyAlertsChanged } from '../../ui/alerts-changed.js';
import { alertSourceLabel } from '../../labels/watch-labels.js';
import { resourceTypeLabel } from '../../labels/history-labels.js';
import { levelText } from '../../ui/alerts/alert-text.js';
import '../../ui/admin.css';
import './watch.css';

type SilenceRow = Outputs['silences']['list']['silences'][number];

/** "Scan failed, Share #7, up to warning (3)": what a silence matches, in the console's words. */
export function silenceMatchText({ matchers }: Pick<SilenceRow, 'matchers'>): string {
  const parts = [
    matchers.source === undefined ? undefined : alertSourceLabel(matchers.source),
    matchers.resource_type === undefined
      ? undefined
      : `${resourceTypeLabel(matchers.resource_type)}${matchers.resource_id === undefined ? '' : ` #${matchers.resource_id}`}`,
    matchers.resource_type === undefined && matchers.resource_id !== undefined ? `resource #${matchers.resource_id}` : undefined,
    matchers.nas_id === undefined ? undefined : `NAS #${matchers.nas_id} and its shares`,
    matchers.pool_id === undefined ? undefined : `pool #${matchers.pool_id} and its shares`,
    matchers.max_level === undefined ? undefined : `up to ${levelText(matchers.max_level)}`,
  ];
  return parts.filter((part) => part !== undefined).join(', ');
}

/** Until when: a time, each window of a rule, or until the alert clears. */
function untilText(silence: SilenceRow): string {
  if (silence.until_cleared) return silence.ends_at === null ? 'Until the alert clears' : `Ended when the alert cleared, ${shortTime(silence.ends_at)}`;
  if (silence.rrule !== null) {
    const next = silence.window_starts_at === null ? 'no window left' : `next ${shortTime(silence.window_starts_at)} to ${shortTime(silence.window_ends_at)}`;
    return `Each window of its rule, ${Math.round((silence.duration_seconds ?? 0) / 60)} min (${next})`;
  }
  return `Until ${shortTime(silence.ends_at)}`;
}

/**
 * Silences (docs/api.md#silences): alerts still raised and listed, but sent to no channel while
 * one holds. Made from an alert's Silence action; deleted here (an alert it held that is still
 * open is then told once).
 */
export function SilencesScreen() {
  const list = useListPage('id:desc');
  const silences = useLoad(() => api.silences.list.query(list.query), list.key);
  const rows = silences.data?.silences ?? [];
  return (
    <>
      <p className="hint">
        A silenced alert is still raised and listed, but no notification channel hears of it while the silence holds; one still open when it ends is told once.
        Silence an alert from its row on the <a href="#/alerts">Alerts</a> screen.
      </p>
      <ErrorAlert message={silences.error} />
      {silences.data?.count === 0 && <EmptyState title="No silences">Every alert is told to the notification channels.</EmptyState>}
      {rows.length > 0 && (
        <table className="silence-table">
          <caption className="visually-hidden">Silences</caption>
          <ColumnHeads
            columns={[
              { label: 'Matches' },
              { label: 'When' },
              { label: 'State' },
              { label: 'Reason' },
              { label: 'Created' },
              { label: 'Actions', hidden: true },
            ]}
          />
          <tbody>
            {rows.map((silence) => {
              const name = `silence of ${silenceMatchText(silence)}`;
              return (
                <tr key={silence.id}>
                  <td>{silenceMatchText(silence)}</td>
                  <td>{untilText(silence)}</td>
                  <td>{silence.active ? 'Holding' : 'Not holding now'}</td>
                  <td>{silence.reason}</td>
                  <td className="time nowrap">{shortTime(silence.created_at)}</td>
                  <td>
                    <ConfirmButton
                      label="Delete"
                      accessibleLabel={`Delete ${name}`}
                      question={`Delete the ${name}? It ends now: an alert it holds that is still open is told once.`}
                      onConfirm={async () => {
                        await api.silences.delete.mutate({ silence: silence.id });
                        silences.reload();
                        notifyAlertsChanged();
                      }}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ListPages label="Silences" page={list.page} count={silences.data?.count ?? 0} onPage={list.setPage} />
    </>
  );
}
