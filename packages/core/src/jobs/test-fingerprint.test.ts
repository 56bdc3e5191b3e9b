import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { systemPrincipal, type Principal } from '../scopes/principal.js';
import { testFingerprint } from './test-fingerprint.js';

const secrets = createAesGcmSecretBox(randomBytes(32));
const user: Principal = { ...systemPrincipal, userId: 7, username: 'ann' } as Principal;
const keyOfUser: Principal = { kind: 'api_key', keyId: 3, name: 'ci', scopes: [], lineage: [], ownerUserId: 7, ownerAdmin: true, expiresAt: null };
const nas = { id: 1, type: 'smb_v3' as const, host: 'filer.example' };
const connection = { path: 'media', options: null, username: 'ann', password: 'hunter2-long' };

describe('test fingerprint (docs/decisions/153-test-before-save.md)', () => {
  it('issue 45: equal only for the same principal, NAS, path, options, username and password', () => {
    const first = testFingerprint(secrets, user, nas, connection);
    expect(testFingerprint(secrets, user, nas, { ...connection })).toBe(first);
    const others = [
      testFingerprint(secrets, keyOfUser, nas, connection),
      testFingerprint(secrets, user, { ...nas, id: 2 }, connection),
      testFingerprint(secrets, user, { ...nas, host: 'other.example' }, connection),
      testFingerprint(secrets, user, nas, { ...connection, path: 'media2' }),
      testFingerprint(secrets, user, nas, { ...connection, options: 'vers=3.0' }),
      testFingerprint(secrets, user, nas, { ...connection, username: null }),
      testFingerprint(secrets, user, nas, { ...connection, password: 'hunter2-longer' }),
      testFingerprint(secrets, user, nas, { ...connection, password: null }),
    ];
    expect(new Set([first, ...others]).size).toBe(others.length + 1);
  });

  it('issue 45: keyed by the server’s secret key, and never holds the password', () => {
    const first = testFingerprint(secrets, user, nas, connection);
    expect(testFingerprint(createAesGcmSecretBox(randomBytes(32)), user, nas, connection)).not.toBe(first);
    expect(first).not.toContain('hunter2');
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
