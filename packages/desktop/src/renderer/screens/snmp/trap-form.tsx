import { useState, type FormEvent } from 'react';
import type { SnmpVersion } from '@dms/core';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { VersionSelect } from './version-select.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { FormHeading } from '../../ui/form-heading.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { SecretField } from '../../ui/secret-field.js';
import { FormActions } from '../../ui/form-actions.js';
import { SeverityBand } from './severity-band.js';
import { useFocusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { BandEvents } from './band-events.js';

export type Trap = Outputs['traps']['list']['traps'][number];

const formFields = ['manager', 'community', 'version', 'activation', 'severity_low', 'severity_high'];

/**
 * Creates a trap target, or edits one; the core's field errors are shown under their fields. Beside
 * the form, the events dms raises and which of them the band being chosen lets through.
 */
export function TrapForm({ trap, onSaved, onCancel }: { trap?: Trap; onSaved: (trap: Trap) => void; onCancel?: () => void }) {
  const [band, setBand] = useState({ low: trap?.severity_low ?? 1, high: trap?.severity_high ?? 5 });
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const formRef = useFocusFirstInvalid(problem);
  const form = trap ? `trap-${trap.snmp_trap_id}` : 'trap-new';
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const body = {
      manager: String(data.get('manager') ?? '').trim(),
      community: String(data.get('community') ?? ''),
      version: String(data.get('version')) as SnmpVersion,
      activation: data.get('activation') ? (1 as const) : (0 as const),
      severity_low: band.low,
      severity_high: band.high,
    };
    try {
      const saved = trap ? await api.traps.update.mutate({ trap: trap.snmp_trap_id, body }) : await api.traps.create.mutate(body);
      setProblem(null);
      onSaved(saved);
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    }
  };
  const headingId = `${form}-heading`;
  return (
    <div className="trap-form-layout">
      <form ref={formRef} className="admin-form" aria-labelledby={headingId} onSubmit={(event) => void submit(event)} noValidate>
        <FormHeading id={headingId} focusOnMount={trap !== undefined}>
          {trap ? `Edit trap target ${trap.manager}` : 'New trap target'}
        </FormHeading>
        <Field
          form={form}
          name="manager"
          label="Manager"
          errors={problem?.fields}
          defaultValue={trap?.manager}
          hint="Host name, IPv4 or [IPv6] address, with :port if not 162."
          autoComplete="off"
        />
        <SecretField form={form} name="community" label="Community" errors={problem?.fields} defaultValue={trap?.community ?? 'public'} />
        <VersionSelect defaultValue={trap?.version ?? 'v2c'} />
        <label className="inline">
          <input type="checkbox" name="activation" defaultChecked={trap ? trap.activation === 1 : true} />
          Active: send events to this target
        </label>
        <SeverityBand low={band.low} high={band.high} onChange={setBand} errors={problem?.fields} />
        <ProblemAlert problem={problem} />
        <FormActions editing={trap !== undefined} create="Add trap target" save="Save trap target" onCancel={onCancel} />
      </form>
      <BandEvents low={band.low} high={band.high} id={`${form}-events`} />
    </div>
  );
}
