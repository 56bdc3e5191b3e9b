import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { SnmpConfigForm } from './snmp-config-form.js';
import { SnmpAgentState } from './snmp-agent-state.js';
import '../../ui/admin.css';
import { ErrorAlert } from '../../ui/error-alert.js';

/** The SNMP agent: its configuration, and whether it is running now. */
export function SnmpServerScreen() {
  const config = useLoad(() => api.snmpConfig.show.query());
  const agent = useLoad(() => api.snmpConfig.agent.query());
  return (
    <>
      <ErrorAlert message={config.error} />
      {config.data && <SnmpConfigForm config={config.data} onSaved={agent.reload} />}
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
