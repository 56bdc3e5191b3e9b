import type { RemoteInfo, Socket } from 'node:dgram';
import type { NetSnmpUser } from '../../domain/snmp-v3-security.js';
import { netSnmp, type NetSnmpLibAgent } from './net-snmp.js';
import { digestsMatch } from './usm-digest.js';
import { withinTimeWindow } from './usm-time-window.js';

/*
 * The slice of net-snmp's SNMPv3 (USM) side the agent uses, described like net-snmp.ts
 * describes the rest: its engine, its users, its messages.
 */

export interface NetSnmpEngine {
  engineID: Buffer;
  engineBoots: number;
  engineTime: number;
}

export interface NetSnmpUsmAuthorizer {
  addUser(user: NetSnmpUser): void;
  deleteUser(name: string): void;
  getUser(name: string): NetSnmpUser | null;
  getUsers(): NetSnmpUser[];
}

/** A parsed message (net-snmp's Message, which it does not export). */
export interface NetSnmpMessage {
  version: number;
  buffer: Buffer;
  msgSecurityParameters?: {
    msgAuthoritativeEngineID: Buffer;
    msgAuthoritativeEngineBoots: number;
    msgAuthoritativeEngineTime: number;
    msgUserName: string;
    /** A view into `buffer`: net-snmp computes a digest with it zeroed in place. */
    msgAuthenticationParameters: Buffer;
  };
  /** The user net-snmp found for a v3 message; name "" for an unknown one at noAuthNoPriv. */
  user?: { name: string };
  hasAuthentication(): number | boolean;
  isReportable(): number | boolean;
  createReportResponseMessage(engine: NetSnmpEngine, context: string, errorType: string): NetSnmpReportMessage;
}

/** A report net-snmp built (noAuthNoPriv, user ""): what it signs when it serializes it. */
export interface NetSnmpReportMessage {
  user: NetSnmpUser;
  msgGlobalData: { msgFlags: number };
  msgSecurityParameters: { msgUserName: string };
}

interface NetSnmpMessageClass {
  createFromBuffer(buffer: Buffer): NetSnmpMessage;
}

interface NetSnmpListenerClass {
  processIncoming(buffer: Buffer, authorizer: unknown, callback: () => void): NetSnmpMessage | undefined;
}

export interface NetSnmpUsmAgent {
  engine: NetSnmpEngine;
  listener: { send(message: unknown, rinfo: RemoteInfo, socket: Socket): void };
}

interface NetSnmpUsm {
  Version3: number;
  SecurityLevel: Readonly<Record<string, number>>;
  AuthProtocols: Readonly<Record<string, number>>;
  PrivProtocols: Readonly<Record<string, number>>;
  Authentication: {
    /** HMAC of the message with the key localized to `engineID`, cut to the protocol's length. */
    calculateDigest(message: Buffer, authProtocol: number, authKey: string, engineID: Buffer): Buffer;
  };
}

export const netSnmpUsm = netSnmp as unknown as NetSnmpUsm;

/** RFC 3414 usmStats reports, as net-snmp numbers them (its UsmErrorType). */
const notInTimeWindow = '2';
const unknownEngineId = '4';
const wrongDigests = '5';
/** msgFlags of a report sent at authNoPriv: authFlag only (a report is never reportable, RFC 3412 §6.4). */
const authFlag = 1;

/*
 * A v2c GetRequest for 1.3 with community "dms": parsed once by net-snmp's own listener to
 * reach its Message class, whose parser and report builder the agent needs before net-snmp
 * handles a v3 message.
 */
const probe = Buffer.from('301c0201010403646d73a012020101020100020100300730050601' + '2b0500', 'hex');

let messageClass: NetSnmpMessageClass | undefined;

function messages(agent: NetSnmpLibAgent): NetSnmpMessageClass {
  if (messageClass) return messageClass;
  const listener = Object.getPrototypeOf(agent.listener).constructor as NetSnmpListenerClass;
  const message = listener.processIncoming(probe, { communities: ['dms'], users: [], disableAuthorization: false }, () => {});
  if (!message) throw new Error('net-snmp did not parse the probe message; its Message class is out of reach');
  messageClass = Object.getPrototypeOf(message).constructor as NetSnmpMessageClass;
  return messageClass;
}

/**
 * RFC 3414 §3.2 steps 6 and 7 for a v3 message of a known user: its digest is checked before
 * anything else, then its timeliness. net-snmp 3.29.2 decrypts first and, on a wrong digest, only
 * calls its error callback, so the manager would see a timeout; here it gets the standard
 * usmStatsWrongDigests report ("Authentication failure"). net-snmp never checks the time window,
 * so a captured request would be answered minutes later and after a restart; here a message of
 * another boot or outside ±150 s of the engine's time gets the usmStatsNotInTimeWindows report,
 * signed with the user's key so the manager may trust the boots and time it carries and resend.
 * True when net-snmp may handle the message.
 */
export function passesUsmAuthentication(agent: NetSnmpLibAgent & NetSnmpUsmAgent, datagram: Buffer, rinfo: RemoteInfo, socket: Socket): boolean {
  let message: NetSnmpMessage;
  try {
    message = messages(agent).createFromBuffer(datagram);
  } catch {
    return false;
  }
  const parameters = message.msgSecurityParameters;
  if (message.version !== netSnmpUsm.Version3 || !parameters || !message.hasAuthentication()) return true;
  const user = (agent.getAuthorizer() as unknown as NetSnmpUsmAuthorizer).getUser(parameters.msgUserName);
  // unknown users and levels the user does not have: net-snmp answers those reports itself
  if (!user || user.authProtocol === undefined || user.authKey === undefined) return true;
  // RFC 3414 §3.2 step 3: keys are localized to this engine only. net-snmp takes any engine id
  // and caches one localized key per id it sees, without bound: another id is answered with
  // the usmStatsUnknownEngineIDs report (which carries ours) before any key is computed.
  if (!parameters.msgAuthoritativeEngineID.equals(agent.engine.engineID)) return report(agent, message, unknownEngineId, rinfo, socket);
  if (!isAuthentic(message, user.authProtocol, user.authKey, agent.engine.engineID)) return report(agent, message, wrongDigests, rinfo, socket);
  if (!withinTimeWindow(agent.engine, parameters.msgAuthoritativeEngineBoots, parameters.msgAuthoritativeEngineTime)) {
    return report(agent, message, notInTimeWindow, rinfo, socket, user);
  }
  // net-snmp checks the digest again, with Buffer.equals: only on a digest already found equal here
  return true;
}

/** RFC 3414 §6.3.2: the digest is computed over the whole message with its own field zeroed. */
function isAuthentic(message: NetSnmpMessage, authProtocol: number, authKey: string, engineId: Buffer): boolean {
  const field = message.msgSecurityParameters!.msgAuthenticationParameters;
  const received = Buffer.from(field);
  field.fill(0);
  try {
    return digestsMatch(netSnmpUsm.Authentication.calculateDigest(message.buffer, authProtocol, authKey, engineId), received);
  } finally {
    received.copy(field);
  }
}

/** Sends the report (signed with `signer`'s key when given, RFC 3414 §3.2 step 7a) if the message asks for one. */
function report(agent: NetSnmpUsmAgent, message: NetSnmpMessage, errorType: string, rinfo: RemoteInfo, socket: Socket, signer?: NetSnmpUser): false {
  if (!message.isReportable()) return false;
  const answer = message.createReportResponseMessage(agent.engine, '', errorType);
  if (signer) {
    answer.user = { name: signer.name, level: netSnmpUsm.SecurityLevel['authNoPriv']!, authProtocol: signer.authProtocol!, authKey: signer.authKey! };
    answer.msgSecurityParameters.msgUserName = signer.name;
    answer.msgGlobalData.msgFlags = authFlag;
  }
  agent.listener.send(answer, rinfo, socket);
  return false;
}
