import { createSocket, type SocketType } from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mibSearchPath } from '../adapters/snmp/mib-path.js';

export interface SnmpToolEnv {
  dir: string;
  env: NodeJS.ProcessEnv;
  dispose(): void;
}

/**
 * Environment for Net-SNMP's tools that ignores the machine's snmp.conf (Debian's says
 * `mibs :`, a developer's may load anything) and keeps persistent state in a temporary
 * directory, so what a test sees depends on the command line alone.
 */
export function createSnmpToolEnv(): SnmpToolEnv {
  const dir = mkdtempSync(join(tmpdir(), 'dms-snmp-'));
  mkdirSync(join(dir, 'conf'));
  // made beforehand, or the first tool run reports "Created directory" on stderr
  mkdirSync(join(dir, 'persist', 'cert_indexes'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SNMPCONFPATH: join(dir, 'conf'),
    SNMP_PERSISTENT_DIR: join(dir, 'persist'),
    MIBDIRS: mibSearchPath(),
    MIBS: '',
  };
  return { dir, env, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A UDP port free right now on `address` (the kernel picks it; races are unlikely on loopback). */
export function freeUdpPort(address = '127.0.0.1'): Promise<number> {
  const type: SocketType = address.includes(':') ? 'udp6' : 'udp4';
  return new Promise((resolve, reject) => {
    const socket = createSocket(type);
    socket.once('error', reject);
    socket.bind(0, address, () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}
