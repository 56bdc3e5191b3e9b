import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { AppCaller } from '../src/main/router/index.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

let t: TestDesktop;
let admin: AppCaller;

beforeAll(async () => {
  t = await openTestDesktop();
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
});
afterAll(async () => {
  await t?.close();
});

const codeOf = (call: Promise<unknown>) =>
  call.then(
    () => 'ok',
    (error: unknown) => (error instanceof TRPCError ? error.code : String(error)),
  );

describe('security review 2, finding 20.3: the console re-checks its signed-in user on every call', () => {
  it('finding 20.3: a demoted, re-passworded, then deleted admin can no longer act through an open console', async () => {
    await admin.users.create({ username: 'bob', password: 'bob-first-password', admin: true });
    const bob = t.caller();
    await bob.auth.signIn({ username: 'bob', password: 'bob-first-password' });
    expect(await codeOf(bob.users.list())).toBe('ok');

    await admin.users.update({ user: 'bob', body: { admin: false } });
    // At once, not after a cache expires: the demoted console may not make an admin or change settings.
    expect(await codeOf(bob.users.create({ username: 'mallory', password: 'mallory-password', admin: true }))).toBe('FORBIDDEN');
    expect(await codeOf(bob.settings.update({ jwt_enabled: true }))).toBe('FORBIDDEN');
    expect(await bob.auth.me()).toMatchObject({ username: 'bob', admin: false });

    await admin.users.update({ user: 'bob', body: { password: 'bob-second-password' } });
    expect(await codeOf(bob.nas.list())).toBe('UNAUTHORIZED');
    expect(await bob.auth.me()).toBeNull();

    await bob.auth.signIn({ username: 'bob', password: 'bob-second-password' });
    expect(await codeOf(bob.nas.list())).toBe('ok');
    await admin.users.delete({ user: 'bob' });
    expect(await codeOf(bob.nas.list())).toBe('UNAUTHORIZED');
    // The session is over: a new user named bob does not inherit it.
    await admin.users.create({ username: 'bob', password: 'bob-second-password', admin: true });
    expect(await codeOf(bob.users.list())).toBe('UNAUTHORIZED');
    expect(await admin.users.list()).toMatchObject({ users: expect.not.arrayContaining([expect.objectContaining({ username: 'mallory' })]) });
  });
});
