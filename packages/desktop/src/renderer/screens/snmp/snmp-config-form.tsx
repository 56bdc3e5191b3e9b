import { useState, type FormEvent } from 'react';
import type { SnmpVersion } from '@dms/core';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { VersionSelect } from './version-select.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { SecretField } from '../../ui/secret-field.js';

type SnmpConfig = Outputs['snmpConfig']['show'];

const form = 'snmp-config';
const formFields = ['version', 'community', 'location', 'contact'];

/** The agent's version, community and system group; saving reconfigures the running agent. */
export function SnmpConfigForm({ config, onSaved }: { config: SnmpConfig; onSaved: (config: SnmpConfig) => void }) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [saved, setSaved] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    setSaved(false);
    try {
      // A non-admin does not read the community (it is absent): left empty, it stays as it is.
      const community = text('community');
      const next = await api.snmpConfig.update.mutate({
        version: text('version') as SnmpVersion,
        ...(community === '' ? {} : { community }),
        location: text('location'),
        contact: text('contact'),
      });
      setProblem(null);
      setSaved(true);
      onSaved(next);
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    }
  };
  return (
    <form className="admin-form" aria-labelledby="snmp-config-heading" onSubmit={(event) => void submit(event)} onChange={() => setSaved(false)} noValidate>
      <h2 id="snmp-config-heading">Agent configuration</h2>
      <VersionSelect defaultValue={config.version} />
      <SecretField
        form={form}
        name="community"
        label="Community"
        errors={problem?.fields}
        defaultValue={config.community}
        hint={
          config.community === undefined
            ? 'Only an admin reads the community; type a new one to replace it, or leave it empty to keep it.'
            : 'The read community SNMP managers send to query the agent.'
        }
      />
      <Field
        form={form}
        name="location"
        label="Location"
        errors={problem?.fields}
        defaultValue={config.location}
        hint="sysLocation, e.g. the room and rack."
        autoComplete="off"
      />
      <Field
        form={form}
        name="contact"
        label="Contact"
        errors={problem?.fields}
        defaultValue={config.contact}
        hint="sysContact: who to call about this instance."
        autoComplete="off"
      />
      <ProblemAlert problem={problem} />
      <div className="actions">
        <button type="submit">Save configuration</button>
        <span role="status" className="ok">
          {saved ? 'Saved: the agent uses the new configuration.' : ''}
        </span>
      </div>
    </form>
  );
}
