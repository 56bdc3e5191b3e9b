import { describe, expect, it } from 'vitest';
import { systemPrincipal, type Principal } from '../scopes/principal.js';
import { builtInRole } from '../scopes/built-in-roles.js';
import { messageFor, withHostPath, withoutHostPath } from './host-path-note.js';

const admin: Principal = { ...systemPrincipal, userId: 1, username: 'admin' } as Principal;
const user: Principal = { kind: 'user', userId: 2, username: 'ann', role: 'operator', admin: false, scopes: builtInRole('operator')!.scopes };

describe('a host path in a job message (docs/decisions/152-host-paths-for-admins.md)', () => {
  const message = withHostPath("path 'backups' not found on share", '/srv/dms/shares/backups');

  it('issue 45: is read whole with admin rights, without the host path otherwise', () => {
    expect(message).toBe("path 'backups' not found on share (host path: /srv/dms/shares/backups)");
    expect(messageFor(message, admin)).toBe(message);
    expect(messageFor(message, user)).toBe("path 'backups' not found on share");
    expect(messageFor(null, user)).toBeNull();
  });

  it('issue 45: a share path holding the note words cuts more, never leaves the host path', () => {
    const crafted = withHostPath("path 'x (host path: y' not found on share", '/srv/secret/x (host path: y');
    expect(withoutHostPath(crafted)).toBe("path 'x");
    expect(withoutHostPath('opened share, 2 entries listed')).toBe('opened share, 2 entries listed');
  });
});
