import type { RemoteInfo, Socket } from 'node:dgram';
import type { NetSnmpUser } from '../../domain/snmp-v3-security.js';
import { netSnmp, type NetSnmpLibAgent } from './net-snmp.js';

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
    msgUserName: string;
    msgAuthenticationParameters: Buffer;
  };
  /** The user net-snmp found for a v3 message; name "" for an unknown one at noAuthNoPriv. */
  user?: { name: string };
  hasAuthentication(): number | boolean;
  isReportable(): number | boolean;
  createReportResponseMessage(engine: NetSnmpEngine, context: string, errorType: string): unknown;
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
    isAuthentic(message: Buffer, authProtocol: number, authKey: string, engineID: Buffer, digest: Buffer): boolean;
  };
}

export const netSnmpUsm = netSnmp as unknown as NetSnmpUsm;

/** RFC 3414 usmStats reports, as net-snmp numbers them (its UsmErrorType). */
const unknownEngineId = '4';
const wrongDigests = '5';

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
 * RFC 3414 §3.2 step 6 for a v3 message of a known user: its digest is checked before
 * anything else. net-snmp 3.29.2 decrypts first and, on a wrong digest, only calls its error
 * callback, so the manager would see a timeout; here it gets the standard usmStatsWrongDigests
 * report ("Authentication failure"). True when net-snmp may handle the message.
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
  const authentic = netSnmpUsm.Authentication.isAuthentic(
    message.buffer,
    user.authProtocol,
    user.authKey,
    parameters.msgAuthoritativeEngineID,
    parameters.msgAuthenticationParameters,
  );
  return authentic || report(agent, message, wrongDigests, rinfo, socket);
}

function report(agent: NetSnmpUsmAgent, message: NetSnmpMessage, errorType: string, rinfo: RemoteInfo, socket: Socket): false {
  if (message.isReportable()) agent.listener.send(message.createReportResponseMessage(agent.engine, '', errorType), rinfo, socket);
  return false;
}
