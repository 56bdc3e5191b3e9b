// Hostile input: SNMP GetBulk with max-repetitions 2^31 - 1 to the dms agent (issue 20, finding 1).
// First the command of the finding, `snmpbulkget -v2c -c public -Cn0 -Cr2147483647`, a number of
// times; then a burst of hostile datagrams for a few seconds over dgram (the same GetBulk, one of
// 60 repeaters, a Get of 100 varbinds, an OID of 128 sub-identifiers); then the command once more,
// which must be answered again once the burst is over.
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir, sleep } from '../lib.mjs';

const run = promisify(execFile);
const commandRuns = 20;
const burstMs = 3_000;
const maxDatagrams = 1_000_000;

// --- just enough BER for the burst
function tlv(tag, body) {
  const n = body.length;
  const length = n < 128 ? [n] : n < 256 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
}
function integer(value) {
  const body = Buffer.alloc(4);
  body.writeInt32BE(value);
  return tlv(0x02, body);
}
function oid(text) {
  const [first, second, ...rest] = text.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let x = arc >>> 7; x > 0; x >>>= 7) groups.unshift((x & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}
function message(type, id, oids, nonRepeaters = 0, maxRepetitions = 0) {
  const varbinds = tlv(0x30, Buffer.concat(oids.map((o) => tlv(0x30, Buffer.concat([oid(o), Buffer.from([0x05, 0x00])])))));
  const pdu = tlv(type, Buffer.concat([integer(id), integer(nonRepeaters), integer(maxRepetitions), varbinds]));
  return tlv(0x30, Buffer.concat([integer(1), tlv(0x04, Buffer.from('public')), pdu]));
}
const getBulk = 0xa5;
const get = 0xa0;
const hostileDatagrams = [
  message(getBulk, 1, ['1.3.6.1.2.1.1'], 0, 2 ** 31 - 1),
  message(
    getBulk,
    2,
    Array.from({ length: 60 }, () => '1.3.6.1.2.1.1.1.0'),
    2 ** 31 - 1,
    2 ** 31 - 1,
  ),
  message(
    get,
    3,
    Array.from({ length: 100 }, () => '1.3.6.1.2.1.1.7.0'),
  ),
  message(get, 4, [`1.3.6.1.2.1.1.${Array.from({ length: 121 }, () => '1').join('.')}`]),
];

async function findSnmpBulkGet() {
  try {
    return (await run('sh', ['-c', 'command -v snmpbulkget'])).stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The tools read no snmp.conf of the machine and write their state in a temp dir. */
function toolEnv() {
  const dir = makeTempDir('dms-hostile-snmp-');
  mkdirSync(join(dir, 'conf'));
  mkdirSync(join(dir, 'persist', 'cert_indexes'), { recursive: true });
  return { ...process.env, SNMPCONFPATH: join(dir, 'conf'), SNMP_PERSISTENT_DIR: join(dir, 'persist'), MIBS: '' };
}

/** One snmpbulkget of the finding; the number of varbinds answered, or undefined without an answer within 2 s. */
async function bulkGet(tool, env, port) {
  try {
    const { stdout } = await run(
      tool,
      ['-v2c', '-c', 'public', '-Cn0', '-Cr2147483647', '-t', '2', '-r', '0', '-m', '', '-On', `127.0.0.1:${port}`, '1.3.6.1.2.1.1'],
      { env, timeout: 10_000 },
    );
    return stdout.trim().split('\n').length;
  } catch {
    return undefined;
  }
}

/** Hostile datagrams as fast as the socket takes them, for `burstMs` at most; answers counted. */
async function burst(port) {
  const socket = dgram.createSocket('udp4');
  let answers = 0;
  let largest = 0;
  let seconds = 0;
  socket.on('message', (datagram) => {
    answers += 1;
    largest = Math.max(largest, datagram.length);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  let sent = 0;
  const started = Date.now();
  const deadline = started + burstMs;
  try {
    while (Date.now() < deadline && sent < maxDatagrams) {
      const batch = [];
      for (let i = 0; i < 64; i++, sent++) {
        batch.push(new Promise((resolve) => socket.send(hostileDatagrams[sent % hostileDatagrams.length], port, '127.0.0.1', () => resolve())));
      }
      await Promise.all(batch);
    }
    seconds = (Date.now() - started) / 1000;
    // answers still in flight
    await sleep(200);
  } finally {
    await new Promise((resolve) => socket.close(resolve));
  }
  return { sent, seconds, answers, largest };
}

/**
 * @param {{ origin: string, base: string, adminAuth: string, snmpPort: number, dataDir: string, localRoot: string, log: (message: string) => void }} target
 * @returns {Promise<string | undefined>}
 */
export async function attack(target) {
  const tool = await findSnmpBulkGet();
  const notes = [];
  if (tool) {
    const env = toolEnv();
    const counts = [];
    for (let i = 0; i < commandRuns; i++) counts.push(await bulkGet(tool, env, target.snmpPort));
    const answered = counts.filter((count) => count !== undefined);
    notes.push(`${commandRuns}x snmpbulkget -Cn0 -Cr2147483647: ${answered.length} answered, at most ${Math.max(0, ...answered)} varbinds`);
  } else {
    notes.push('snmpbulkget not installed (apt-get install snmp): datagrams only');
  }

  const { sent, seconds, answers, largest } = await burst(target.snmpPort);
  notes.push(
    `${sent} hostile datagrams in ${seconds.toFixed(1)} s (GetBulk 2^31-1, 60 repeaters, Get of 100, 128-arc OID): ${answers} answered (largest ${largest} octets), the rest dropped unread (the work budget of the agent, or a full socket buffer)`,
  );

  if (tool) {
    // The agent's budget refills within a second of the burst: the manager is answered again.
    const env = toolEnv();
    let after;
    for (let i = 0; i < 5 && after === undefined; i++) after = await bulkGet(tool, env, target.snmpPort);
    notes.push(after === undefined ? 'NOT answered after the burst' : `answered again after the burst (${after} varbinds)`);
  }
  return notes.join('; ');
}
