import { createSocket } from 'node:dgram';

/*
 * Capture and replay of real SNMPv3 datagrams, and just enough BER to tell the agent's answers
 * apart: what the time-window tests (issue 40 item 6) send and read.
 */

/** [offset of the body, offset after it] of the TLV at `at`. */
function element(data: Buffer, at: number): [number, number] {
  const first = data[at + 1] ?? 0;
  let length = first;
  let body = at + 2;
  if (first & 0x80) {
    length = 0;
    for (let i = 0; i < (first & 0x7f); i++) length = length * 256 + (data[body++] ?? 0);
  }
  return [body, body + length];
}

/** msgFlags of a v3 message: 1 auth, 2 priv, 4 reportable. */
export function msgFlags(data: Buffer): number {
  const [message] = element(data, 0);
  const [, afterVersion] = element(data, message);
  const [header] = element(data, afterVersion);
  const [, afterId] = element(data, header);
  const [, afterMaxSize] = element(data, afterId);
  return data[element(data, afterMaxSize)[0]]!;
}

/** Offset of msgAuthenticationParameters' body (the digest) in a v3 message. */
export function digestOffset(data: Buffer): number {
  const [message] = element(data, 0);
  const [, afterVersion] = element(data, message);
  const [, afterHeader] = element(data, afterVersion);
  const [parameters] = element(data, afterHeader);
  let at = element(data, parameters)[0];
  // engine id, boots, time, user name, then the digest
  for (let i = 0; i < 4; i++) at = element(data, at)[1];
  return element(data, at)[0];
}

/** usmStatsWrongDigests.0 (1.3.6.1.6.3.15.1.1.5.0) as BER. */
export const wrongDigestsOid = Buffer.from('060a2b060106030f01010500', 'hex');
/** usmStatsNotInTimeWindows.0 (1.3.6.1.6.3.15.1.1.2.0) as BER. */
const notInTimeWindowOid = Buffer.from('060a2b060106030f01010200', 'hex');

/** An agent's answer to an authPriv request: encrypted (the data), the signed notInTimeWindow report, or something else. */
export function answerKind(answer: Buffer): 'data' | 'notInTimeWindow' | 'other' {
  const flags = msgFlags(answer);
  if (flags === 3) return 'data';
  // a Report PDU (0xa8) of usmStatsNotInTimeWindows, signed (authNoPriv) and not reportable
  if (flags === 1 && answer.includes(notInTimeWindowOid) && answer.includes(0xa8)) return 'notInTimeWindow';
  return 'other';
}

/**
 * Runs a manager against a relay to the agent at 127.0.0.1:`agentPort` and returns what it
 * returned with the last datagram it sent (after discovery, its authenticated request).
 */
export async function captureLastRequest<T>(agentPort: number, manager: (relayPort: number) => Promise<T>): Promise<{ result: T; request: Buffer }> {
  const relay = createSocket('udp4');
  const upstream = createSocket('udp4');
  await new Promise<void>((resolve) => relay.bind(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => upstream.bind(0, '127.0.0.1', resolve));
  let from: number | undefined;
  let request: Buffer | undefined;
  relay.on('message', (datagram, sender) => {
    from = sender.port;
    request = datagram;
    upstream.send(datagram, agentPort, '127.0.0.1');
  });
  upstream.on('message', (datagram) => from !== undefined && relay.send(datagram, from, '127.0.0.1'));
  try {
    const result = await manager(relay.address().port);
    if (!request) throw new Error('the manager sent nothing');
    return { result, request };
  } finally {
    relay.close();
    upstream.close();
  }
}

/**
 * Sends one datagram to 127.0.0.1:`port` as a manager would and resolves with the first answer.
 * Like a manager it sends again while no answer came (an agent drops what its work budget does
 * not allow, and a cold start computes keys), `attempts` times a second apart.
 */
export async function replayTo(port: number, datagram: Buffer, attempts = 5): Promise<Buffer> {
  const socket = createSocket('udp4');
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return await new Promise<Buffer>((resolve, reject) => {
      socket.once('message', resolve);
      let sent = 0;
      const send = () => {
        if (sent++ === attempts) return reject(new Error(`no answer from 127.0.0.1:${port} after ${attempts} sends`));
        socket.send(datagram, port, '127.0.0.1');
        timer = setTimeout(send, 1000);
      };
      send();
    });
  } finally {
    clearTimeout(timer);
    socket.close();
  }
}
