import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { openJobPayload, sealJobPayload } from './job-payload.js';

const secrets = createAesGcmSecretBox(randomBytes(32));
const location = { type: 'local' as const, host: 'localhost', path: 'projects', options: 'ro', username: 'svc', password: 'pa55' };
const stored = (sealed: string) => JSON.parse(secrets.open(sealed)) as unknown;

describe('job payload at rest', () => {
  it('seals in the stored words an earlier version wrote and reads (share_test, share_test_saved, share_scan)', () => {
    expect(stored(sealJobPayload(secrets, 'share_test', { location, label: 'p' }))).toEqual({ kind: 'share_test', location, label: 'p' });
    expect(stored(sealJobPayload(secrets, 'share_test', { shareId: 7 }))).toEqual({ kind: 'share_test_saved', shareId: 7 });
    expect(stored(sealJobPayload(secrets, 'share_scan', { shareId: 7 }))).toEqual({ kind: 'share_scan', shareId: 7 });
  });

  it('opens a payload an earlier version sealed (a job queued before an upgrade)', () => {
    const seal = (payload: object) => secrets.seal(JSON.stringify(payload));
    expect(openJobPayload(secrets, seal({ kind: 'share_test', location, label: 'p' }))).toEqual({ location, label: 'p' });
    expect(openJobPayload(secrets, seal({ kind: 'share_test_saved', shareId: 3 }))).toEqual({ shareId: 3 });
    expect(openJobPayload(secrets, seal({ kind: 'share_scan', shareId: 4 }))).toEqual({ shareId: 4 });
  });
});
