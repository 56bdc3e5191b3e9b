import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the directory that holds DMS-MIB.txt (packages/core/mib). This file
 * sits at the same depth in src/ and dist/, so one relative path serves both.
 */
export function loadMibPath(): string {
  return fileURLToPath(new URL('../../../mib', import.meta.url));
}

/**
 * Directory of the SNMPv2-SMI, SNMPv2-TC and SNMPv2-CONF modules DMS-MIB imports. Debian
 * ships no IETF MIBs (snmp-mibs-downloader is non-free and downloads them), while the
 * net-snmp package we already depend on carries these three, so Net-SNMP's tools can
 * load DMS-MIB with `-M "$(loadMibPath()):$(standardMibPath())" -m DMS-MIB`.
 */
export function standardMibPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('net-snmp')), 'lib', 'mibs');
}

/** `-M` value for snmptranslate, snmptrapd … that finds DMS-MIB and its imports. */
export function mibSearchPath(): string {
  return `${loadMibPath()}:${standardMibPath()}`;
}
