import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from '../domain/events.js';
import { isInformAbandoned, isInformNotAcknowledged } from '../ports/notifier.js';
import { systemPrincipal } from '../scopes/principal.js';
import { createTestDatabase, postgresOrSkip, type TestDatabase } from '../testing/postgres-test-database.js';
import { openDms, type Dms } from './open-dms.js';

/**
 * Fault E: a manager that never answers an inform held every graceful stop for the inform's
 * re-sends (1 + 2 + 4 + 8 s by default), past a host's shutdown timeout, which then cut off the
 * storage close. A real service (openDms) with the real net-snmp sender and its default
 * retries, a real UDP socket that receives and never answers.
 */
// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the inform-at-stop suite');

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

const targets = {
  v2c: { version: 'v2c', community: 'silent' },
  v3: {
    version: 'v3',
    security_name: 'ops',
    security_level: 'authPriv',
    auth_protocol: 'SHA-256',
    auth_passphrase: 'auth-passphrase-1',
    priv_protocol: 'AES-128',
    priv_passphrase: 'priv-passphrase-1',
  },
} as const;

for (const adapter of ['sqlite', 'postgres'] as const) {
  describe.skipIf(adapter === 'postgres' && unreachable !== undefined)(`a stop with an inform pending (${adapter})`, () => {
    let root: string;
    let database: TestDatabase | undefined;
    let dms: Dms;
    let silent: Socket;
    let datagrams: Buffer[];
    let sendErrors: unknown[];
    let warnings: Array<{ fields: object; message: string }>;

    beforeEach(async () => {
      // a database per test: each opens a data dir of its own, with its own secret key
      database = adapter === 'postgres' ? await createTestDatabase() : undefined;
      root = mkdtempSync(join(tmpdir(), 'dms-inform-stop-'));
      datagrams = [];
      sendErrors = [];
      warnings = [];
      silent = createSocket('udp4');
      silent.on('message', (datagram) => datagrams.push(datagram));
      await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
      dms = await openDms({
        dataDir: join(root, 'data'),
        role: 'service',
        ...(database ? { databaseUrl: database.url } : {}),
        onTrapSendError: (error) => sendErrors.push(error),
        log: { info: () => {}, error: () => {}, warn: (fields, message) => warnings.push({ fields, message }) },
      });
    });
    afterEach(async () => {
      await dms.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await database?.drop();
      rmSync(root, { recursive: true, force: true });
    });

    for (const version of ['v2c', 'v3'] as const) {
      it(`issue 40 item E: a stop abandons a pending ${version} inform to a silent manager at once and still closes the storage`, async () => {
        // band 4-5: the configuration_changed events of the set-up (1) and service_stopping (1) send nothing
        await dms.core.traps.create(systemPrincipal, {
          ...targets[version],
          manager: `127.0.0.1:${silent.address().port}`,
          notify_type: 'inform',
          severity_low: 4,
          severity_high: 5,
        });
        dms.events.publish(makeEvent('share_test_failed', 'nobody answers', new Date()));
        // the inform's first datagram (v3: the engine discovery) reached the silent manager
        await until(() => datagrams.length === 1, 'the first datagram of the inform');

        await dms.close();

        // given up, not waited out: no re-send left, and the manager is not called unreachable
        expect(sendErrors).toHaveLength(1);
        expect(isInformAbandoned(sendErrors[0])).toBe(true);
        expect(isInformNotAcknowledged(sendErrors[0])).toBe(false);
        expect(datagrams).toHaveLength(1);
        expect(warnings).toContainEqual({ fields: { abandoned_informs: 1 }, message: 'SNMP informs abandoned at stop: 1' });
        // the rest of the stop ran: the storage is closed
        await expect(dms.core.traps.list(systemPrincipal, {})).rejects.toThrow();
      });
    }
  });
}
