import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { SnmpConfigForm } from './snmp-config-form.js';
import { SnmpAgentState, savedNote } from './snmp-agent-state.js';
import { SnmpUsers } from './snmp-users.js';
import { createUserLine, EngineIdNote, type TrapdLine } from './trapd-user-line.js';
import type { Outputs } from '../../trpc-client.js';

type Config = Outputs['snmpConfig']['show'];
import '../../ui/admin.css';
import { ErrorAlert } from '../../ui/error-alert.js';

/**
 * A trap target's line in general: the agent's own users are for managers that query it, and
 * each v3 trap target's exact line is on the Trap targets screen.
 */
const templateLine = (engineId: string | null): TrapdLine[] => [
  {
    key: 'template',
    label: 'the snmptrapd.conf line',
    caption: 'For a trap target’s user:',
    text: createUserLine(engineId, { security_name: '<user>', security_level: 'authPriv', auth_protocol: 'SHA-256', priv_protocol: 'AES-128' }),
  },
];

/** The SNMP agent: its configuration, and whether it is running now. */
export function SnmpServerScreen() {
  const config = useLoad(() => api.snmpConfig.show.query());
  const agent = useLoad(() => api.snmpConfig.agent.query());
  /** Waits (2 s at most) for the agent to take the saved on/off, then says what it does now. */
  const settled = async (saved: Config): Promise<string> => {
    let state = await api.snmpConfig.agent.query();
    for (let i = 0; i < 20 && (saved.agent_enabled ? state.state === 'off' : state.state !== 'off'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await api.snmpConfig.agent.query();
    }
    agent.reload();
    return savedNote(state);
  };
  return (
    <>
      <ErrorAlert message={config.error} />
      {config.data && <SnmpConfigForm config={config.data} onSaved={settled} />}
      {config.data && <SnmpUsers config={config.data} onSaved={config.reload} />}
      {config.data && <EngineIdNote engineId={config.data.engine_id} lines={templateLine(config.data.engine_id)} idPrefix="agent-engine-id" />}
      <section aria-labelledby="snmp-agent-heading">
        <h2 id="snmp-agent-heading">Agent state</h2>
        {agent.error ? (
          <p role="alert" className="error">
            {agent.error}
          </p>
        ) : (
          <SnmpAgentState agent={agent.data} />
        )}
      </section>
    </>
  );
}
