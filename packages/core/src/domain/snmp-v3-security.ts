import { z } from 'zod';
import type { ErrorDetails } from '../errors/domain-error.js';
import { noControlChars, noControlCharsRule } from './common.js';

/*
 * SNMPv3 user-based security (RFC 3414 USM), shared by the agent's users
 * (`/snmp/server_configuration`.users) and the v3 trap targets (docs/decisions/052-snmp-v3.md): one set of
 * field names, allowed values, refusal messages and one mapping to net-snmp.
 */

export const securityLevels = ['noAuthNoPriv', 'authNoPriv', 'authPriv'] as const;
export type SecurityLevel = (typeof securityLevels)[number];

/** SHA-1 is still accepted (old managers) and flagged in the answer's messages; MD5 is refused. */
export const authProtocols = ['SHA-1', 'SHA-256', 'SHA-512'] as const;
export type AuthProtocol = (typeof authProtocols)[number];
export const recommendedAuthProtocols: readonly AuthProtocol[] = ['SHA-256', 'SHA-512'];

/** AES-256 is the Blumenthal key extension, Net-SNMP's `-x AES-256`. DES is refused. */
export const privProtocols = ['AES-128', 'AES-256'] as const;
export type PrivProtocol = (typeof privProtocols)[number];

/** RFC 3414 §11.2: at least 8 characters. */
export const passphraseMinLength = 8;
export const passphraseMaxLength = 255;
/** usmUserName is a SnmpAdminString of 1 to 32 octets. */
export const securityNameMaxLength = 32;

const authRule = `must be one of ${authProtocols.join(', ')} (${recommendedAuthProtocols.join(' or ')} recommended; MD5 is refused)`;
const privRule = `must be one of ${privProtocols.join(', ')} (DES is refused)`;

/** Why a well-known but broken protocol is refused, rather than only "not in the list". */
const refusals: Readonly<Record<string, string>> = {
  MD5: `is refused: MD5 is broken; use ${recommendedAuthProtocols.join(' or ')} (SHA-1 is allowed)`,
  DES: `is refused: DES is broken; use ${privProtocols.join(' or ')}`,
};
const refusalOf = (fallback: string) => (issue: { input?: unknown }) =>
  (typeof issue.input === 'string' ? refusals[issue.input.toUpperCase()] : undefined) ?? fallback;

export const securityNameSchema = z.string().min(1).max(securityNameMaxLength).regex(noControlChars, noControlCharsRule);
export const securityLevelSchema = z.enum(securityLevels);
export const authProtocolSchema = z.enum(authProtocols, { error: refusalOf(authRule) });
export const privProtocolSchema = z.enum(privProtocols, { error: refusalOf(privRule) });
export const passphraseSchema = z.string().min(passphraseMinLength).max(passphraseMaxLength).regex(noControlChars, noControlCharsRule);

/**
 * The v3 fields of a body. Protocols and passphrases are optional and nullable here: which
 * ones a level needs is checked on the whole record (checkV3Security), after a partial
 * update is merged with what is stored.
 */
export const v3SecurityFields = z.object({
  security_name: securityNameSchema,
  security_level: securityLevelSchema,
  auth_protocol: authProtocolSchema.nullable().optional(),
  auth_passphrase: passphraseSchema.nullable().optional().meta({ description: 'A secret: sealed at rest, never returned without the get_password scope.' }),
  priv_protocol: privProtocolSchema.nullable().optional(),
  priv_passphrase: passphraseSchema.nullable().optional().meta({ description: 'A secret: sealed at rest, never returned without the get_password scope.' }),
});
export type V3SecurityInput = z.output<typeof v3SecurityFields>;

/** A complete record, as stored (passphrases in clear only inside the process). */
export interface V3Security {
  security_name: string;
  security_level: SecurityLevel;
  auth_protocol: AuthProtocol | null;
  auth_passphrase: string | null;
  priv_protocol: PrivProtocol | null;
  priv_passphrase: string | null;
}

export const v3SecretFields = ['auth_passphrase', 'priv_passphrase'] as const;

const usesAuth = (level: SecurityLevel) => level !== 'noAuthNoPriv';
const usesPriv = (level: SecurityLevel) => level === 'authPriv';

export interface V3SecurityProblem {
  details: ErrorDetails;
  messages: string[];
}

/**
 * Whether a merged record has what its level needs. `sent` is the body as received: a
 * protocol or passphrase sent for a level that does not use it is refused, not dropped.
 * `prefix` is the field's path in details (`users.0.`), `label` in messages (`users[0].`).
 */
export function checkV3Security(record: V3Security, sent: Partial<V3SecurityInput> = record, prefix = '', label = prefix): V3SecurityProblem | undefined {
  const details: ErrorDetails = {};
  const messages: string[] = [];
  const level = record.security_level;
  const need = (field: keyof V3Security, needed: boolean) => {
    const present = record[field] !== null && record[field] !== undefined;
    if (needed && !present) {
      details[prefix + field] = [{ error: 'blank' }];
      messages.push(`${label}${field} can't be blank at security_level ${level}`);
    } else if (!needed && sent[field] !== undefined && sent[field] !== null) {
      details[prefix + field] = [{ error: 'invalid' }];
      messages.push(`${label}${field} is not used at security_level ${level} (send null or leave it out)`);
    }
  };
  need('auth_protocol', usesAuth(level));
  need('auth_passphrase', usesAuth(level));
  need('priv_protocol', usesPriv(level));
  need('priv_passphrase', usesPriv(level));
  return messages.length === 0 ? undefined : { details, messages };
}

/** The record with the fields its level does not use cleared: lowering a level drops its unused secrets. */
export function normalizeV3Security<T extends V3Security>(record: T): T {
  const level = record.security_level;
  return {
    ...record,
    auth_protocol: usesAuth(level) ? record.auth_protocol : null,
    auth_passphrase: usesAuth(level) ? record.auth_passphrase : null,
    priv_protocol: usesPriv(level) ? record.priv_protocol : null,
    priv_passphrase: usesPriv(level) ? record.priv_passphrase : null,
  };
}

/** Warnings for a successful answer's `messages`: an allowed but weak choice. */
export function v3SecurityWarnings(record: Pick<V3Security, 'auth_protocol'>, prefix = ''): string[] {
  return record.auth_protocol === 'SHA-1' ? [`${prefix}auth_protocol SHA-1 is allowed but weak; ${recommendedAuthProtocols.join(' or ')} is recommended`] : [];
}

/** The slice of net-snmp's constants the mapping needs (its expanded constant objects). */
export interface NetSnmpSecurityConstants {
  SecurityLevel: Readonly<Record<string, number>>;
  AuthProtocols: Readonly<Record<string, number>>;
  PrivProtocols: Readonly<Record<string, number>>;
}

/** net-snmp's names of the protocols (the keys of its AuthProtocols / PrivProtocols). */
export const netSnmpAuthProtocolNames: Readonly<Record<AuthProtocol, string>> = { 'SHA-1': 'sha', 'SHA-256': 'sha256', 'SHA-512': 'sha512' };
export const netSnmpPrivProtocolNames: Readonly<Record<PrivProtocol, string>> = { 'AES-128': 'aes', 'AES-256': 'aes256b' };

/** A net-snmp user (agent authorizer's addUser, or the `user` of createV3Session). */
export interface NetSnmpUser {
  name: string;
  level: number;
  authProtocol?: number;
  authKey?: string;
  privProtocol?: number;
  privKey?: string;
}

export function toNetSnmpUser(record: V3Security, snmp: NetSnmpSecurityConstants): NetSnmpUser {
  const normalized = normalizeV3Security(record);
  const user: NetSnmpUser = { name: normalized.security_name, level: snmp.SecurityLevel[normalized.security_level]! };
  if (normalized.auth_protocol !== null && normalized.auth_passphrase !== null) {
    user.authProtocol = snmp.AuthProtocols[netSnmpAuthProtocolNames[normalized.auth_protocol]]!;
    user.authKey = normalized.auth_passphrase;
  }
  if (normalized.priv_protocol !== null && normalized.priv_passphrase !== null) {
    user.privProtocol = snmp.PrivProtocols[netSnmpPrivProtocolNames[normalized.priv_protocol]]!;
    user.privKey = normalized.priv_passphrase;
  }
  return user;
}
