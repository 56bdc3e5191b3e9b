import { useState } from 'react';
import { api, describeError } from '../../trpc-client.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import type { Trap } from './trap-form.js';

type TestOutcome = { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed'; message: string };

interface TrapRowActionsProps {
  trap: Trap;
  onEdit: () => void;
  onDeleted: () => void;
}

/** A trap target's row actions: send a test trap now (whatever its activation and band) and say how it went, edit, delete. */
export function TrapRowActions({ trap, onEdit, onDeleted }: TrapRowActionsProps) {
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const sendTest = async () => {
    setOutcome({ kind: 'sending' });
    try {
      await api.traps.test.mutate({ trap: trap.snmp_trap_id });
      setOutcome({ kind: 'sent' });
    } catch (caught) {
      setOutcome({ kind: 'failed', message: describeError(caught).message });
    }
  };
  return (
    <>
      <div className="admin-row-actions">
        <button
          type="button"
          className="secondary"
          disabled={outcome?.kind === 'sending'}
          onClick={() => void sendTest()}
          aria-label={`Send test trap to ${trap.manager}`}
        >
          Send test trap
        </button>
        <button type="button" className="secondary" aria-label={`Edit trap target ${trap.manager}`} onClick={onEdit}>
          Edit
        </button>
        <ConfirmButton
          label="Delete"
          accessibleLabel={`Delete trap target ${trap.manager}`}
          question={`Delete trap target ${trap.manager}? It stops receiving traps.`}
          onConfirm={async () => {
            await api.traps.delete.mutate({ trap: trap.snmp_trap_id });
            onDeleted();
          }}
        />
      </div>
      <p role="status" className={`row-outcome ${outcome?.kind === 'failed' ? 'error' : outcome?.kind === 'sent' ? 'ok' : 'hint'}`}>
        {outcome?.kind === 'sending' && 'Sending…'}
        {outcome?.kind === 'sent' && `Test trap sent to ${trap.manager}`}
        {outcome?.kind === 'failed' && `Not sent: ${outcome.message}`}
      </p>
    </>
  );
}
