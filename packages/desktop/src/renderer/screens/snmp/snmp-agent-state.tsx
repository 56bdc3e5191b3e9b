import type { Outputs } from '../../trpc-client.js';

type AgentState = Outputs['snmpConfig']['agent'];

/** The note after a save: only an agent that listens uses the new configuration now. */
export function savedNote(agent: AgentState): string {
  switch (agent.state) {
    case 'listening':
      return 'Saved: the agent uses the new configuration.';
    case 'failed':
      return `Saved, but the agent is not running: ${agent.reason}.`;
    case 'off':
      return 'Saved. The agent is off: the configuration applies when it is turned on.';
  }
}

/** The running agent as an admin reads it: whether SNMP managers can query this instance now. */
export function SnmpAgentState({ agent }: { agent: AgentState | undefined }) {
  if (!agent) return <p className="hint">Reading the agent&apos;s state…</p>;
  switch (agent.state) {
    case 'listening':
      return (
        <p className="agent-state">
          <span data-state="running">Listening</span> on UDP {agent.address}:{agent.port}: SNMP managers can query this instance with the version and community
          above, or as one of the SNMPv3 users below.
        </p>
      );
    case 'failed':
      return (
        <p className="agent-state">
          <span data-state="failed">Failed</span> to listen on UDP {agent.address}:{agent.port}: {agent.reason}. Change the address or port above.
        </p>
      );
    case 'off':
      return (
        <p className="agent-state">
          <span data-state="off">Off</span>: this instance runs no SNMP agent. The configuration above is kept and applies as soon as the agent is turned on.
        </p>
      );
  }
}
