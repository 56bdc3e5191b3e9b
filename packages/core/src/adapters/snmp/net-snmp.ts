import { createRequire } from 'node:module';
import type { RemoteInfo, Socket } from 'node:dgram';

/*
 * net-snmp ships no types. Rather than an ambient `declare module` that would leak into
 * the published declarations, this file describes the slice of it dms uses as its own
 * interfaces and loads the CommonJS module through them; nothing else imports net-snmp.
 */

export type NetSnmpTransport = 'udp4' | 'udp6';

export interface NetSnmpVarbind {
  oid: string;
  type: number;
  value: string | number | Buffer;
}

export interface NetSnmpTrapOptions {
  /** agent-addr of a v1 trap (dotted IPv4). */
  agentAddr?: string;
  /** sysUpTime.0 of a v2c trap and time-stamp of a v1 trap, in hundredths of a second. */
  upTime?: number;
}

export interface NetSnmpSession {
  /**
   * v1: `oid` is enterprise.specific (generic 6 is implied by a string OID);
   * v2c: `oid` becomes snmpTrapOID.0, after sysUpTime.0. The callback runs when the
   * datagram is handed to the socket (or fails to be).
   */
  trap(oid: string, varbinds: NetSnmpVarbind[], options: NetSnmpTrapOptions, callback: (error: Error | null) => void): void;
  /**
   * v2c/v3: an InformRequest (sysUpTime.0, snmpTrapOID.0 = `oid`, then the varbinds), re-sent
   * `retries` times, `timeout` ms apart times `backoff` each time; v3 first discovers the
   * manager's engine. The callback runs on the acknowledgement or the last failure.
   */
  inform(oid: string, varbinds: NetSnmpVarbind[], options: { upTime?: number }, callback: (error: Error | null) => void): void;
  close(): void;
}

export interface NetSnmpSessionOptions {
  version: number;
  transport: NetSnmpTransport;
  trapPort: number;
  /** Informs: ms before the first re-send, the number of re-sends, and the factor between waits. */
  timeout?: number;
  retries?: number;
  backoff?: number;
  /** v3: the engine a trap is sent from (hex); informs discover the manager's. */
  engineID?: string;
}

/** A USM user as net-snmp takes it (domain/snmp-v3-security.ts builds it). */
export interface NetSnmpV3User {
  name: string;
  level: number;
  authProtocol?: number;
  authKey?: string;
  privProtocol?: number;
  privKey?: string;
}

export interface NetSnmpInstanceNode {
  value: unknown;
}

export interface NetSnmpMibRequest {
  instanceNode: NetSnmpInstanceNode;
  done(): void;
}

export interface NetSnmpScalarProvider {
  name: string;
  type: number;
  /** OID of the object, without the `.0` instance. */
  oid: string;
  scalarType: number;
  maxAccess: number;
  /** Called on every get/get-next of the instance; the response is sent once done() runs. */
  handler?(request: NetSnmpMibRequest): void;
}

export interface NetSnmpMib {
  registerProvider(provider: NetSnmpScalarProvider): void;
  setScalarValue(name: string, value: unknown): void;
}

export interface NetSnmpAuthorizer {
  addCommunity(community: string): void;
  deleteCommunity(community: string): void;
}

/** A varbind of a parsed request, or one a GetNext/GetBulk step produced. */
export interface NetSnmpRequestVarbind {
  oid: string;
  type?: number;
  value?: unknown;
}

export interface NetSnmpResponsePdu {
  errorStatus?: number;
  errorIndex?: number;
  varbinds: unknown[];
}

export interface NetSnmpRequestPdu {
  type: number;
  id: number;
  /** Signed 32-bit, as the manager sent them; meaningful in a GetBulk only. */
  nonRepeaters: number;
  maxRepetitions: number;
  varbinds: NetSnmpRequestVarbind[];
  getResponsePduForRequest(): NetSnmpResponsePdu;
}

/** A parsed, authorized request message. */
export interface NetSnmpRequestMessage {
  version: number;
  pdu: NetSnmpRequestPdu;
  createResponseForRequest(pdu: NetSnmpResponsePdu): { toBuffer(): Buffer };
}

/** One of the agent's per-PDU-type handlers, which onMsg calls after parsing and the community check. */
export type NetSnmpRequestHandler = (socket: Socket, message: NetSnmpRequestMessage, rinfo: RemoteInfo) => void;

export interface NetSnmpLibAgent {
  getMib(): NetSnmpMib;
  getAuthorizer(): NetSnmpAuthorizer;
  /** The agent's handler of one datagram (community check, then the request). */
  onMsg(socket: Socket, buffer: Buffer, rinfo: RemoteInfo): void;
  listener: { sockets: Record<string, Socket> };
  /*
   * Prototype methods onMsg dispatches to, through `this`: an own property of the same name
   * on the agent object takes their place, which is how the adapter bounds every request.
   */
  getRequest: NetSnmpRequestHandler;
  getNextRequest: NetSnmpRequestHandler;
  setRequest: NetSnmpRequestHandler;
  getBulkRequest: NetSnmpRequestHandler;
  /** Looks up every varbind of the message, runs the providers' handlers, then sendResponse. */
  request: NetSnmpRequestHandler;
  sendResponse(socket: Socket, rinfo: RemoteInfo, message: NetSnmpRequestMessage, pdu: NetSnmpResponsePdu): void;
  /** Appends the successor of `startOid` (or endOfMibView at `startOid`); returns its node, null at the end of the MIB. */
  addGetNextVarbind(target: NetSnmpRequestVarbind[], startOid: string): unknown;
}

export interface NetSnmpLibAgentOptions {
  port: number;
  address: string | null;
  transport: NetSnmpTransport;
  disableAuthorization: boolean;
  accessControlModelType: number;
}

export interface NetSnmp {
  Version1: number;
  Version2c: number;
  Version3: number;
  SecurityLevel: Readonly<Record<string, number>>;
  AuthProtocols: Readonly<Record<string, number>>;
  PrivProtocols: Readonly<Record<string, number>>;
  ObjectType: { Integer: number; OctetString: number; OID: number; Gauge: number; TimeTicks: number; EndOfMibView: number };
  ErrorStatus: { TooBig: number };
  PduType: { GetBulkRequest: number };
  MibProviderType: { Scalar: number };
  MaxAccess: { 'read-only': number };
  AccessControlModelType: { None: number };
  createSession(target: string, community: string, options: NetSnmpSessionOptions): NetSnmpSession;
  createV3Session(target: string, user: NetSnmpV3User, options: NetSnmpSessionOptions): NetSnmpSession;
  /** Creates the sockets and binds them at once; bind errors arrive as socket 'error' events. */
  createAgent(options: NetSnmpLibAgentOptions, callback: (error: Error | null, data?: unknown) => void): NetSnmpLibAgent;
}

export const netSnmp = createRequire(import.meta.url)('net-snmp') as NetSnmp;
