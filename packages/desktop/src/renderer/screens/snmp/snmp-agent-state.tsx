import type { Outputs } from '../../trpc-client.js';

type AgentState = Outputs['snmpConfig']['agent'];

/** The running agent as an admin reads it: whether SNMP managers can query this instance now. */
export function SnmpAgentState({ agent }: { agent: AgentState | undefined }) {
  if (!agent) return <p className="hint">Reading the agent&apos;s state…</p>;
  switch (agent.state) {
    case 'listening':
      return (
        <p className="agent-state">
          <span data-state="running">Listening</span> on UDP port {agent.port}: SNMP managers can query this instance with the version and community above.
        </p>
      );
    case 'failed':
      return (
        <p className="agent-state">
          <span data-state="failed">Failed</span> to listen on UDP port {agent.port}: {agent.reason}
        </p>
      );
    case 'off':
      return (
        <p className="agent-state">
          <span data-state="off">Off</span>: this instance runs no SNMP agent, because no agent port is configured. The configuration above is kept and applies
          as soon as an agent runs.
        </p>
      );
  }
}
