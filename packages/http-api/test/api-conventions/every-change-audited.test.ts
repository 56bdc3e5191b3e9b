import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal, type AuditEvent } from '@dms/core';
import { openDms, type Core, type Dms } from '@dms/core/runtime';
import { NetSnmpTrapSender } from '@dms/core/snmp';
import { createMemoryRateLimiter } from '@dms/core/memory';
import { createTestDatabase, type TestDatabase } from '@dms/core/testing';
import type { Hono } from 'hono';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/http/logger.js';
import type { AppEnv } from '../../src/http/env.js';
import { restOperations } from '../../src/operations/rest-operations.js';
import type { OperationId, RestOperation } from '../../src/operations/rest-operations.js';
import { adminPassword, adminUsername, createTestApp, testAdapter, type TestApp } from '../../src/testing/test-app.js';
import { operationPath, operationRequests, seedOperationWorld } from '../../src/testing/operation-requests.js';

/**
 * Issue 22, "done when": an audit event for every mutating operation. This suite walks every
 * route contract whose method is not GET, sends its valid request (testing/operation-requests.ts)
 * in a seeded world, and fails when a successful answer left no new audit event, or none that
 * names the request: via `rest` and the answer's X-Request-Id. A new writing operation is walked
 * as soon as its contract exists.
 */

const changing = restOperations.filter((contract) => contract.method !== 'get');

/** The operations the test app cannot make succeed, and where each is walked instead. */
const walkedElsewhere: Partial<Record<OperationId, string>> = {
  testSnmpTrap: 'createTestApp runs no trap sender (503, as with the notifier down): walked below, with one',
  enrollTotp: 'changes nothing in force until confirmed (the confirm is audited): test/routes/totp-session-routes.test.ts',
  confirmTotp: 'needs a code of a secret enrolled by the same user, not the admin whose Basic the walk sends: test/routes/totp-session-routes.test.ts',
  disableTotp: 'needs TOTP on for the caller, whose Basic is then refused: test/routes/totp-session-routes.test.ts',
};

function successStatuses(contract: RestOperation): number[] {
  return [contract.success.status, ...(contract.otherSuccess ?? []).map((response) => response.status)];
}

/** The newest event's id (0 when there is none), read through the core, not the route under test. */
async function newestEventId(core: Core): Promise<number> {
  const { audit_events: newest } = await core.auditEvents.list(systemPrincipal, { sort_by: ['id:desc'], limit: ['1'] });
  return newest[0]?.id ?? 0;
}

async function eventsAfter(core: Core, id: number): Promise<AuditEvent[]> {
  return (await core.auditEvents.list(systemPrincipal, { id: [`>${id}`], sort_by: ['id'], limit: ['100'] })).audit_events;
}

/** What a change left in the audit log, and the event of this very request. */
function expectRecorded(operationId: string, res: Response, recorded: AuditEvent[]): void {
  expect(recorded.length, `${operationId} answered ${res.status} and left no audit event`).toBeGreaterThan(0);
  const requestId = res.headers.get('x-request-id');
  const own = recorded.find((event) => event.request_id === requestId);
  expect(own, `${operationId}: no event with the answer's X-Request-Id ${requestId}: ${JSON.stringify(recorded)}`).toBeDefined();
  expect(own).toMatchObject({ via: 'rest', outcome: 'success' });
}

describe('issue 22: every change through REST leaves an audit event', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('walks every writing operation but those walked elsewhere, and only writing ones are left out', () => {
    expect(changing.length).toBeGreaterThan(0);
    for (const operationId of Object.keys(walkedElsewhere)) {
      expect(
        changing.map((contract) => contract.operationId),
        operationId,
      ).toContain(operationId);
    }
  });

  it.each(changing.filter((contract) => walkedElsewhere[contract.operationId] === undefined).map((contract) => [contract.operationId, contract] as const))(
    '%s: a successful call leaves an event of its request',
    async (operationId, contract) => {
      const request = operationRequests[operationId];
      const f = await seedOperationWorld(t, request);
      const before = await newestEventId(t.core);
      const query = request.query?.(f);
      const body = request.body?.(f);
      const res = await t.call(contract.method.toUpperCase(), operationPath(contract, request.params?.(f) ?? {}) + (query ? `?${query}` : ''), {
        auth: t.basic,
        ...(body === undefined ? {} : { body }),
      });
      const text = await res.text();
      expect(successStatuses(contract), `${operationId} → ${res.status}: ${text}`).toContain(res.status);
      expectRecorded(operationId, res, await eventsAfter(t.core, before));
    },
  );
});

/**
 * The service as the test app opens it (openDms, this run's adapter), but with net-snmp's trap
 * sender, sending to a UDP socket of the test's.
 */
describe('issue 22: a test trap sent through REST leaves an audit event', () => {
  let dms: Dms;
  let app: Hono<AppEnv>;
  let dataDir: string;
  let database: TestDatabase | undefined;
  let manager: Socket;
  const basic = `Basic ${Buffer.from(`${adminUsername}:${adminPassword}`).toString('base64')}`;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dms-audit-trap-'));
    database = testAdapter === 'postgres' ? await createTestDatabase() : undefined;
    const generous = () => createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 });
    dms = await openDms({
      role: 'command',
      createDatabase: true,
      dataDir,
      ...(database ? { databaseUrl: database.url } : {}),
      localRoots: [tmpdir()],
      trapSender: new NetSnmpTrapSender(),
      core: { limits: { perCredential: generous(), perAddress: generous(), authFailures: generous() } },
    });
    await dms.core.users.add({ username: adminUsername, password: adminPassword, admin: true });
    app = createApp({ core: dms.core, logger: createLogger('silent') }).app;
    manager = createSocket('udp4');
    await new Promise<void>((resolve) => manager.bind(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    manager.close();
    await dms.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('testSnmpTrap: a successful call leaves an event of its request, and the trap reaches its target', async () => {
    const contract = restOperations.find((candidate) => candidate.operationId === 'testSnmpTrap')!;
    const trap = await dms.core.traps.create(systemPrincipal, { manager: `127.0.0.1:${manager.address().port}` });
    const arrived = new Promise<Buffer>((resolve) => manager.once('message', resolve));
    const before = await newestEventId(dms.core);
    const res = await app.request(operationPath(contract, { snmp_trap_id: trap.snmp_trap_id }), { method: 'POST', headers: { authorization: basic } });
    expect(successStatuses(contract), await res.clone().text()).toContain(res.status);
    expectRecorded('testSnmpTrap', res, await eventsAfter(dms.core, before));
    expect((await arrived).length).toBeGreaterThan(0);
  });
});
