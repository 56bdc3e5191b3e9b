import { useState } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { useRefusableLoad } from '../../ui/use-refusable-load.js';
import { AdminOnly } from '../../ui/admin-only.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { ColumnHeads } from '../../ui/column-heads.js';
import { ExpandableRow } from '../../ui/expandable-row.js';
import { ListPages, useListPage } from '../../ui/list-pages.js';
import { shortTime } from '../../ui/format.js';
import { severityName } from '../../labels/snmp-choices.js';
import { channelDigestLabels, channelTypeLabels, deliveryOutcomeLabels, notificationSourceLabel } from '../../labels/notification-labels.js';
import { ChannelForm, type NotificationChannel } from './channel-form.js';
import { ChannelRowActions } from './channel-row-actions.js';
import { ChannelDeliveries, deliveryAnswer } from './channel-deliveries.js';
import { CreatedSecret } from './created-secret.js';
import '../../ui/admin.css';
import './notifications.css';

type LatestDelivery = Outputs['notificationChannels']['latestDeliveries'][number]['delivery'];

const columns = [
  { label: 'Name' },
  { label: 'Type' },
  { label: 'State' },
  { label: 'Sends' },
  { label: 'Sources' },
  { label: 'Last delivery' },
  { label: 'Actions' },
];

function stateText(channel: NotificationChannel): string {
  if (!channel.enabled) return 'Disabled';
  return channel.failing_since ? `Failing since ${shortTime(channel.failing_since)}` : 'Enabled';
}

function lastDeliveryText(delivery: LatestDelivery | undefined): string {
  if (!delivery) return 'None yet';
  const answer = deliveryAnswer(delivery);
  return `${deliveryOutcomeLabels[delivery.outcome]} ${shortTime(delivery.at ?? delivery.created_at)}${answer ? ` (${answer})` : ''}`;
}

/**
 * Where dms tells people what happened (docs/api.md#notification-channels): webhooks, e-mail,
 * ntfy, chat, syslog, Alertmanager. A row opens the channel's settings and newest deliveries;
 * a new webhook's signing secret is shown once. Admin-only, as the core decides.
 */
export function NotificationChannelsScreen() {
  const list = useListPage('name');
  const [refreshes, setRefreshes] = useState(0);
  const channels = useRefusableLoad(() => api.notificationChannels.list.query(list.query), `${list.key}:${refreshes}`);
  const rows = channels.data?.notification_channels ?? [];
  const ids = rows.map((channel) => channel.id);
  const latest = useLoad(
    () => (ids.length > 0 ? api.notificationChannels.latestDeliveries.query({ ids }) : Promise.resolve([])),
    `${ids.join(',')}:${refreshes}`,
  );
  const latestOf = new Map(latest.data?.map((row) => [row.channel_id, row.delivery]));
  const [editing, setEditing] = useState<NotificationChannel | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  // Held here only: leaving the screen forgets it for good.
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [newForm, setNewForm] = useState(0);
  const reload = () => setRefreshes((n) => n + 1);
  if (channels.refusal) return <AdminOnly what="manage notification channels" refusal={channels.refusal} />;
  return (
    <>
      <p className="hint">
        Each enabled channel is sent the alerts (raised, changed, cleared) and share test and scan outcomes that reach its lowest level and come from its
        sources. Deliveries are queued, sent in order and retried for up to 24 hours; a test is sent at once.
      </p>
      {created && <CreatedSecret name={created.name} secret={created.secret} onDone={() => setCreated(null)} />}
      <ErrorAlert message={channels.error ?? latest.error} />
      {channels.data?.count === 0 && (
        <EmptyState title="No notification channels yet">Add one below (a webhook, e-mail, ntfy, Slack …), then send it a test.</EmptyState>
      )}
      {rows.length > 0 && (
        <table className="history-table channel-table">
          <caption className="visually-hidden">Notification channels</caption>
          <ColumnHeads columns={columns} />
          <tbody>
            {rows.map((channel) => (
              <ExpandableRow
                key={channel.id}
                open={openId === channel.id}
                detailId={`channel-detail-${channel.id}`}
                summary={`Channel ${channel.name}`}
                onToggle={() => {
                  // Opened, the detail reads the deliveries as they are now: the row's last delivery with them.
                  if (openId !== channel.id) reload();
                  setOpenId(openId === channel.id ? null : channel.id);
                }}
                toggleText={channel.name}
                toggleCellClass="name"
                columns={columns.length}
                detail={() => <ChannelDeliveries channel={channel} id={`channel-detail-${channel.id}`} onRefresh={reload} />}
              >
                <td>{channelTypeLabels[channel.type]}</td>
                <td>
                  <span className="status" data-status={channel.failing_since && channel.enabled ? 'failed' : undefined}>
                    {stateText(channel)}
                  </span>
                </td>
                <td>
                  {severityName(channel.min_level)} ({channel.min_level}) and up, {channelDigestLabels[channel.digest].toLowerCase()}
                </td>
                <td>{channel.sources === null ? 'All' : channel.sources.map(notificationSourceLabel).join(', ')}</td>
                <td>{lastDeliveryText(latestOf.get(channel.id))}</td>
                {/* The row opens its detail on a click: its actions do not. */}
                <td onClick={(click) => click.stopPropagation()}>
                  <ChannelRowActions
                    channel={channel}
                    onEdit={() => setEditing(channel)}
                    onChanged={(deleted) => {
                      if (deleted && editing?.id === channel.id) setEditing(null);
                      reload();
                    }}
                  />
                </td>
              </ExpandableRow>
            ))}
          </tbody>
        </table>
      )}
      <ListPages label="Notification channels" page={list.page} count={channels.data?.count ?? 0} onPage={list.setPage} />
      {editing ? (
        <ChannelForm key={`edit-${editing.id}`} channel={editing} onSaved={() => (setEditing(null), reload())} onCancel={() => setEditing(null)} />
      ) : (
        channels.data && (
          <ChannelForm
            key={`new-${newForm}`}
            onSaved={(saved) => {
              // Another channel created meanwhile leaves a webhook's secret shown until Done.
              if (saved.secret) setCreated({ name: saved.name, secret: saved.secret });
              setNewForm((n) => n + 1);
              reload();
            }}
          />
        )
      )}
    </>
  );
}
