import type { AuthProtocol, PrivProtocol, SecurityLevel } from '@dms/core';
import { CopyButton } from '../../ui/copy-button.js';

/** snmptrapd's words for the protocols (net-snmp's createUser). */
const authWords: Record<AuthProtocol, string> = { 'SHA-1': 'SHA', 'SHA-256': 'SHA-256', 'SHA-512': 'SHA-512' };
const privWords: Record<PrivProtocol, string> = { 'AES-128': 'AES', 'AES-256': 'AES-256' };

/** A protocol in snmptrapd's words; one this table does not know yet as the core names it. */
const word = (words: Record<string, string>, protocol: string) => words[protocol] ?? protocol;

export interface TrapdUser {
  security_name: string;
  security_level: SecurityLevel;
  auth_protocol: string | null;
  priv_protocol: string | null;
}

/**
 * The `snmptrapd.conf` line a manager needs to read this user's traps: `createUser -e 0x<engine
 * id> <user> SHA "<auth passphrase>" AES "<priv passphrase>"`, the passphrases as placeholders
 * (they are never shown here). An inform is answered from the manager's own engine: no `-e`.
 */
export function createUserLine(engineId: string | null, user: TrapdUser, inform = false): string {
  const engine = inform || !engineId ? '' : `-e 0x${engineId} `;
  const name = /^[\w.@<>-]+$/.test(user.security_name) ? user.security_name : `"${user.security_name.replaceAll('"', '\\"')}"`;
  const auth = user.security_level !== 'noAuthNoPriv' && user.auth_protocol ? ` ${word(authWords, user.auth_protocol)} "<auth passphrase>"` : '';
  const priv = user.security_level === 'authPriv' && user.priv_protocol ? ` ${word(privWords, user.priv_protocol)} "<priv passphrase>"` : '';
  return `createUser ${engine}${name}${auth}${priv}`;
}

/** A line of configuration shown as code, with Copy. */
export function CopyableLine({ id, text, label }: { id: string; text: string; label: string }) {
  return (
    <span className="copyable-line">
      <code id={id} className="admin-code">
        {text}
      </code>{' '}
      <CopyButton text={text} targetId={id} label={label} />
    </span>
  );
}

/** A manager's line for one user: whom it is for, and the text. */
export interface TrapdLine {
  key: string;
  /** "the line of 10.0.0.5 (monitor)": for the Copy button's name. */
  label: string;
  caption: string;
  text: string;
}

/**
 * The engine id SNMPv3 traps leave from, copyable, and the `snmptrapd.conf` line of each v3
 * user a manager must know (secrets as placeholders).
 */
export function EngineIdNote({ engineId, lines, idPrefix }: { engineId: string | null; lines: readonly TrapdLine[]; idPrefix: string }) {
  if (!engineId) return null;
  return (
    <section className="engine-id" aria-labelledby={`${idPrefix}-heading`}>
      <h2 id={`${idPrefix}-heading`}>SNMP engine id</h2>
      <p>
        <CopyableLine id={`${idPrefix}-value`} text={`0x${engineId}`} label="the engine id" />
      </p>
      <p className="hint">
        SNMPv3 traps leave from this engine id: a manager’s <code className="admin-code">snmptrapd.conf</code> names it in the line of each user, with the
        passphrases you chose in place of the placeholders. An inform is answered from the manager’s own engine: its line has no -e.
      </p>
      <ul className="plain-list trapd-lines">
        {lines.map((line) => (
          <li key={line.key}>
            <span className="hint">{line.caption}</span> <CopyableLine id={`${idPrefix}-${line.key}`} text={line.text} label={line.label} />
          </li>
        ))}
      </ul>
    </section>
  );
}
