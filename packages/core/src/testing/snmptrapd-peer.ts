import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mibSearchPath } from '../adapters/snmp/mib-path.js';
import { createSnmpToolEnv, type SnmpToolEnv } from './snmp-tool-env.js';

export interface ReceivedTrap {
  /** 0 for v1, 1 for v2c, 3 for v3. */
  version: number;
  community: string;
  /** v3: the USM user name it was authenticated as. */
  user: string;
  /** An InformRequest (acknowledged by snmptrapd), not a trap. */
  inform: boolean;
  /** v1 only: enterprise, generic-trap and specific-trap as snmptrapd prints them. */
  enterprise: string;
  generic: string;
  specific: string;
  /** "name = TYPE: value" per varbind, in the order received. */
  varbinds: string[];
}

/** The DMS-MIB notification a received trap carries (its snmpTrapOID varbind), e.g. `dmsAlertRaised`. */
export const trapNotification = (trap: ReceivedTrap) => /OID: DMS-MIB::(\w+)$/.exec(trap.varbinds[1] ?? '')?.[1];

/** The value of DMS-MIB `object` in a received trap, as snmptrapd printed it. */
export const trapVarbind = (trap: ReceivedTrap, object: string) => trap.varbinds.find((v) => v.startsWith(`DMS-MIB::${object}.0 = `))?.split(' = ')[1];

export interface SnmptrapdOptions {
  snmptrapd: string;
  /** Communities snmptrapd logs; traps with any other are dropped. */
  communities: string[];
  /** e.g. ["udp:127.0.0.1:16200", "udp6:[::1]:16201"] */
  listen: string[];
  /** More snmptrapd.conf lines: v3 users (`createUser -e ENGINEID name SHA-256 pass AES pass`, `authUser log name`). */
  config?: string[];
}

const recordPattern = /TRAP\|(\d)\|([^|]*)\|([^|]*)\|([^|]*)\|([^|]*)\|([\s\S]*?)\|END\n/g;

/** A real snmptrapd with DMS-MIB loaded, whose log the test reads as parsed traps. */
export class SnmptrapdPeer {
  readonly traps: ReceivedTrap[] = [];
  #output = '';
  #stderr = '';
  #startupLog = '';
  #process: ChildProcess | undefined;
  #tools: SnmpToolEnv | undefined;
  #waiters = new Set<() => void>();

  async start(options: SnmptrapdOptions): Promise<void> {
    const tools = createSnmpToolEnv();
    this.#tools = tools;
    const conf = join(tools.dir, 'snmptrapd.conf');
    writeFileSync(conf, ['disableAuthorization no', ...options.communities.map((c) => `authCommunity log ${c}`), ...(options.config ?? []), ''].join('\n'));
    const child = spawn(
      options.snmptrapd,
      ['-f', '-Lo', '-n', '-C', '-c', conf, '-M', mibSearchPath(), '-m', 'DMS-MIB', '-F', 'TRAP|%s|%P|%N|%w|%q|%v|END\n', options.listen.join(',')],
      { env: tools.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#process = child;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.#onOutput(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.#stderr += chunk));
    const started = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`snmptrapd did not start: ${this.#stderr}`)), 10_000);
      const ready = () => {
        if (this.#startupLog === '') return;
        clearTimeout(timer);
        this.#waiters.delete(ready);
        resolve();
      };
      this.#waiters.add(ready);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`snmptrapd exited (${code}): ${this.#stderr}${this.#output}`));
      });
      ready();
    });
    try {
      await started;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** What snmptrapd logged up to its "NET-SNMP version" banner: MIB parse warnings land here with -Lo. */
  get startupLog(): string {
    return this.#startupLog;
  }

  /** Resolves with the first trap (already received or to come) that matches. */
  waitFor(match: (trap: ReceivedTrap) => boolean, timeoutMs = 5000): Promise<ReceivedTrap> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.traps.find(match);
        if (!found) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`no matching trap within ${timeoutMs} ms; received:\n${JSON.stringify(this.traps, null, 2)}`));
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    this.#tools?.dispose();
  }

  #onOutput(chunk: string): void {
    this.#output += chunk;
    if (this.#startupLog === '') {
      const banner = /NET-SNMP version [^\n]*\n/.exec(this.#output);
      if (banner) this.#startupLog = this.#output.slice(0, banner.index + banner[0].length);
    }
    let consumed = 0;
    for (const match of this.#output.matchAll(recordPattern)) {
      const [whole, version, security, enterprise, generic, specific, varbinds] = match;
      this.traps.push({
        version: Number(version),
        community: /community (.*)$/.exec(security ?? '')?.[1] ?? '',
        user: /user ([^,]*),/.exec(security ?? '')?.[1] ?? '',
        inform: (security ?? '').startsWith('INFORM'),
        enterprise: enterprise ?? '',
        generic: generic ?? '',
        specific: specific ?? '',
        varbinds: (varbinds ?? '').split('\t').filter((v) => v !== ''),
      });
      consumed = (match.index ?? 0) + whole.length;
    }
    // drop parsed records so they are not parsed twice
    if (consumed > 0) this.#output = this.#output.slice(consumed);
    for (const waiter of [...this.#waiters]) waiter();
  }
}
