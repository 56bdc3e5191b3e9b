import { useState } from 'react';
import type { ChannelTestResult } from '@dms/core';
import { api, describeError } from '../../trpc-client.js';
import { EditDeleteActions } from '../../ui/edit-delete-actions.js';
import type { NotificationChannel } from './channel-form.js';

type Outcome = { kind: 'busy'; text: string } | { kind: 'ok' | 'error'; text: string };

/** A test's answer as a sentence: delivered, or why not (the receiver's status code, the error). */
export function testOutcomeText(result: ChannelTestResult): string {
  const status = result.status_code === null ? '' : ` (HTTP ${result.status_code})`;
  return result.outcome === 'delivered' ? `Delivered${status}` : `Not delivered${status}: ${result.error ?? 'no reason given'}`;
}

interface ChannelRowActionsProps {
  channel: NotificationChannel;
  onEdit: () => void;
  /** Enabled or disabled, or deleted: the list reloads. */
  onChanged: (deleted: boolean) => void;
}

/** A channel's row actions: send a test now and say how it went, enable or disable it, edit, delete. */
export function ChannelRowActions({ channel, onEdit, onChanged }: ChannelRowActionsProps) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const run = async (busyText: string, action: () => Promise<Outcome>) => {
    setOutcome({ kind: 'busy', text: busyText });
    try {
      setOutcome(await action());
    } catch (caught) {
      setOutcome({ kind: 'error', text: describeError(caught).message });
    }
  };
  const sendTest = () =>
    run('Sending…', async () => {
      const result = await api.notificationChannels.test.mutate({ channel: channel.id });
      return { kind: result.outcome === 'delivered' ? 'ok' : 'error', text: testOutcomeText(result) };
    });
  const toggle = () =>
    run(channel.enabled ? 'Disabling…' : 'Enabling…', async () => {
      const saved = await api.notificationChannels.update.mutate({ channel: channel.id, body: { enabled: !channel.enabled } });
      onChanged(false);
      return { kind: 'ok', text: saved.enabled ? 'Enabled' : 'Disabled: what it had queued is dropped' };
    });
  const busy = outcome?.kind === 'busy';
  return (
    <>
      <div className="admin-row-actions">
        <button type="button" className="secondary" disabled={busy} onClick={() => void sendTest()} aria-label={`Test channel ${channel.name}`}>
          Test
        </button>
        <button
          type="button"
          className="secondary"
          disabled={busy}
          onClick={() => void toggle()}
          aria-label={`${channel.enabled ? 'Disable' : 'Enable'} channel ${channel.name}`}
        >
          {channel.enabled ? 'Disable' : 'Enable'}
        </button>
        <EditDeleteActions
          name={`channel ${channel.name}`}
          onEdit={onEdit}
          question={`Delete channel ${channel.name}? It is sent nothing more, and its deliveries are forgotten.`}
          onDelete={async () => {
            await api.notificationChannels.delete.mutate({ channel: channel.id });
            onChanged(true);
          }}
        />
      </div>
      <p role="status" className={`row-outcome ${outcome?.kind === 'busy' ? 'hint' : (outcome?.kind ?? '')}`}>
        {outcome?.text}
      </p>
    </>
  );
}
