import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesktopSession } from '../src/main/session.js';
import { handleTrpcRequest } from '../src/test-host/fetch-host.js';
import type { DesktopContext } from '../src/main/context.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

let t: TestDesktop;
let context: DesktopContext;

beforeAll(async () => {
  t = await openTestDesktop();
  context = { core: t.dms.core, snmpAgent: () => t.dms.snmpAgent(), session: new DesktopSession() };
});
afterAll(async () => {
  await t?.close();
});

const post = async (path: string, input: unknown) => {
  const response = await handleTrpcRequest(
    new Request(`http://desktop.test/trpc/${path}`, { method: 'POST', body: JSON.stringify(input), headers: { 'content-type': 'application/json' } }),
    context,
  );
  return { status: response.status, body: (await response.json()) as { result?: unknown; error?: { message: string; data: Record<string, unknown> } } };
};

describe('errors as a client receives them (errorFormatter)', () => {
  it("carries the core's model_error details and messages in data, with no stack", async () => {
    await post('auth.signIn', { username: 'admin', password: adminPassword });
    const { status, body } = await post('nas.create', { name: '', host: 'localhost', type: 'local' });
    expect(status).toBe(400);
    expect(body.error?.data).toMatchObject({
      code: 'BAD_REQUEST',
      domainCode: 'validation',
      details: { name: [{ error: 'blank' }] },
      messages: [expect.stringMatching(/^name /)],
    });
    expect(body.error?.data).not.toHaveProperty('stack');
  });

  it('answers a signed-out call with UNAUTHORIZED and no domain data', async () => {
    await post('auth.signOut', undefined);
    const { status, body } = await post('nas.create', { name: 'x', host: 'localhost', type: 'local' });
    expect(status).toBe(401);
    expect(body.error?.data).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(body.error?.data).not.toHaveProperty('domainCode');
  });
});
