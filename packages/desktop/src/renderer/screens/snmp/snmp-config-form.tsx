import { useState, type ComponentProps, type FormEvent } from 'react';
import type { SnmpVersion } from '@dms/core';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { VersionSelect } from './version-select.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { SecretField } from '../../ui/secret-field.js';

type SnmpConfig = Outputs['snmpConfig']['show'];

const form = 'snmp-config';
const formFields = {
  version: 'Version',
  community: 'Community',
  location: 'Location',
  contact: 'Contact',
  agent_enabled: 'Run the SNMP agent',
  agent_address: 'Listen address',
  agent_port: 'UDP port',
};

/** A text row of the agent configuration: the form's id prefix, never autocompleted, as each row was before. */
function ConfigField(props: Omit<ComponentProps<typeof Field>, 'form' | 'autoComplete'>) {
  return <Field form={form} autoComplete="off" {...props} />;
}

/**
 * Whether the agent runs and where, its version, community and system group. Saving applies at
 * once; `onSaved` answers what the agent does with it now (the saved note never claims an agent
 * that is off or failed uses the configuration).
 */
export function SnmpConfigForm({ config, onSaved }: { config: SnmpConfig; onSaved: (config: SnmpConfig) => Promise<string> }) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    setSaved(null);
    try {
      // A non-admin does not read the community (it is absent): left empty, it stays as it is.
      const community = text('community');
      const next = await api.snmpConfig.update.mutate({
        version: text('version') as SnmpVersion,
        ...(community === '' ? {} : { community }),
        location: text('location'),
        contact: text('contact'),
        agent_enabled: data.get('agent_enabled') === 'on',
        agent_address: text('agent_address'),
        // a number when it reads as one: the core's message names the real range otherwise
        agent_port: (/^\d+$/.test(text('agent_port')) ? Number(text('agent_port')) : text('agent_port')) as number,
      });
      setProblem(null);
      setSaved(await onSaved(next));
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    }
  };
  return (
    <form className="admin-form" aria-labelledby="snmp-config-heading" onSubmit={(event) => void submit(event)} onChange={() => setSaved(null)} noValidate>
      <h2 id="snmp-config-heading">Agent configuration</h2>
      <label className="inline">
        <input type="checkbox" name="agent_enabled" defaultChecked={config.agent_enabled} />
        Run the SNMP agent
      </label>
      <ConfigField
        name="agent_address"
        label="Listen address"
        errors={problem?.fields}
        defaultValue={config.agent_address}
        hint="An IP address of this host: 127.0.0.1 for this machine only, 0.0.0.0 or :: for every interface."
      />
      <ConfigField
        name="agent_port"
        label="UDP port"
        errors={problem?.fields}
        defaultValue={String(config.agent_port)}
        inputMode="numeric"
        hint="161 is the standard port (it needs privileges); 1024 to 65535 do not."
      />
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
      <ConfigField name="location" label="Location" errors={problem?.fields} defaultValue={config.location} hint="sysLocation, e.g. the room and rack." />
      <ConfigField name="contact" label="Contact" errors={problem?.fields} defaultValue={config.contact} hint="sysContact: who to call about this instance." />
      <ProblemAlert problem={problem} />
      <div className="actions">
        <button type="submit">Save configuration</button>
        <span role="status" className="ok">
          {saved ?? ''}
        </span>
      </div>
    </form>
  );
}
