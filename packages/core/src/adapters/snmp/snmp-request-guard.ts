import type { RemoteInfo, Socket } from 'node:dgram';
import {
  netSnmp,
  type NetSnmpLibAgent,
  type NetSnmpRequestHandler,
  type NetSnmpRequestMessage,
  type NetSnmpRequestVarbind,
  type NetSnmpResponsePdu,
} from './net-snmp.js';
import { bulkShape, oidLength, type SnmpRequestLimits } from './snmp-request-limits.js';

export interface SnmpRequestGuardOptions {
  limits: SnmpRequestLimits;
  /** Time spent answering, after the request's own datagram was handled (the providers are async). */
  charge(address: string, ms: number): void;
}

/*
 * net-snmp 3.29.2's own GetBulk (Agent.prototype.getBulkRequest) loops
 * `while (varbinds.length < maxRepetitions && !endOfMib)`, and endOfMib is never set: it tests
 * `node.type == EndOfMibView`, but a node has no such type and the end of the MIB is a null node.
 * So one request with max-repetitions 2^31 - 1 appends endOfMibView varbinds, synchronously,
 * until memory runs out. Its Get also joins every prefix of an unknown OID
 * (Agent.prototype.tryCreateInstance), quadratic in the OID's length, and nothing bounds the
 * varbinds of a request or the size of a response (sent or failing with EMSGSIZE).
 * These handlers take the place of net-snmp's, after it parsed the message and checked the
 * community, before it looks anything up.
 */

/** Bounds every request the agent answers; see SnmpRequestLimits. */
export function guardRequests(agent: NetSnmpLibAgent, options: SnmpRequestGuardOptions): void {
  const { limits } = options;
  const original = {
    getRequest: agent.getRequest.bind(agent),
    getNextRequest: agent.getNextRequest.bind(agent),
    setRequest: agent.setRequest.bind(agent),
    sendResponse: agent.sendResponse.bind(agent),
  };

  // An OID beyond the SMI's 128 sub-identifiers is malformed: dropped, as snmpd drops a parse error.
  const wellFormed = (message: NetSnmpRequestMessage) => message.pdu.varbinds.every((varbind) => oidLength(varbind.oid) <= limits.maxOidLength);
  // A v3 request of no configured user reaches the handlers as user "" at noAuthNoPriv (net-snmp
  // lets it through for discovery, which it answers before): dropped, it reads nothing.
  const anonymous = (message: NetSnmpRequestMessage) => message.version === 3 && !(message as { user?: { name?: string } }).user?.name;

  const tooBig = (socket: Socket, message: NetSnmpRequestMessage, rinfo: RemoteInfo) => {
    const pdu = message.pdu.getResponsePduForRequest();
    pdu.errorStatus = netSnmp.ErrorStatus.TooBig;
    pdu.errorIndex = 0;
    pdu.varbinds = [];
    agent.sendResponse(socket, rinfo, message, pdu);
  };

  const bounded =
    (handle: NetSnmpRequestHandler): NetSnmpRequestHandler =>
    (socket, message, rinfo) => {
      if (!wellFormed(message) || anonymous(message)) return;
      // Its answer could not fit a response either: say so at once, without looking anything up.
      if (message.pdu.varbinds.length > limits.maxVarbinds) return tooBig(socket, message, rinfo);
      handle(socket, message, rinfo);
    };

  agent.getRequest = bounded(original.getRequest);
  agent.getNextRequest = bounded(original.getNextRequest);
  agent.setRequest = bounded(original.setRequest);
  agent.getBulkRequest = (socket, message, rinfo) => {
    // GetBulk does not exist in SNMPv1.
    if (message.version === netSnmp.Version1 || !wellFormed(message) || anonymous(message)) return;
    message.pdu.varbinds = bulkVarbinds(agent, message, limits.maxVarbinds);
    // net-snmp's request() never answers a request without varbinds
    if (message.pdu.varbinds.length === 0) return agent.sendResponse(socket, rinfo, message, message.pdu.getResponsePduForRequest());
    agent.request(socket, message, rinfo);
  };

  agent.sendResponse = (socket, rinfo, message, pdu) => {
    const started = performance.now();
    try {
      if (fitResponse(message, pdu, limits.maxMessageOctets)) original.sendResponse(socket, rinfo, message, pdu);
    } finally {
      options.charge(rinfo.address, performance.now() - started);
    }
  };
}

/** RFC 3416 §4.2.3, bounded: stops at `maxVarbinds`, and once a whole repetition is at the end of the MIB. */
function bulkVarbinds(agent: NetSnmpLibAgent, message: NetSnmpRequestMessage, maxVarbinds: number): NetSnmpRequestVarbind[] {
  const requested = message.pdu.varbinds;
  const { nonRepeaters, maxRepetitions } = bulkShape(message.pdu.nonRepeaters, message.pdu.maxRepetitions, requested.length, maxVarbinds);
  const answer: NetSnmpRequestVarbind[] = [];
  for (let i = 0; i < nonRepeaters; i++) agent.addGetNextVarbind(answer, requested[i]!.oid);
  // Only the repeaters whose first successor can still fit take part.
  const cursors = requested.slice(nonRepeaters, nonRepeaters + maxVarbinds - answer.length).map((varbind) => varbind.oid);
  for (let repetition = 0; repetition < maxRepetitions && cursors.length > 0 && answer.length < maxVarbinds; repetition++) {
    let advanced = false;
    for (let j = 0; j < cursors.length && answer.length < maxVarbinds; j++) {
      if (agent.addGetNextVarbind(answer, cursors[j]!)) {
        cursors[j] = answer[answer.length - 1]!.oid;
        advanced = true;
      }
    }
    if (!advanced) break;
  }
  return answer;
}

/**
 * Makes the response fit `maxOctets`: a GetBulk loses varbinds from its end (RFC 3416 §4.2.3),
 * anything else answers tooBig without varbinds (§4.2.1). False when even that cannot fit.
 */
function fitResponse(message: NetSnmpRequestMessage, pdu: NetSnmpResponsePdu, maxOctets: number): boolean {
  const size = () => message.createResponseForRequest(pdu).toBuffer().length;
  if (size() <= maxOctets) return true;
  if (message.pdu.type === netSnmp.PduType.GetBulkRequest) {
    const all = pdu.varbinds;
    // the largest prefix that fits, in at most log2(maxVarbinds) encodings
    let fits = 0;
    let tooMany = all.length;
    while (tooMany - fits > 1) {
      const middle = Math.floor((fits + tooMany) / 2);
      pdu.varbinds = all.slice(0, middle);
      if (size() <= maxOctets) fits = middle;
      else tooMany = middle;
    }
    pdu.varbinds = all.slice(0, fits);
    if (fits > 0) return true;
  }
  pdu.errorStatus = netSnmp.ErrorStatus.TooBig;
  pdu.errorIndex = 0;
  pdu.varbinds = [];
  return size() <= maxOctets;
}
