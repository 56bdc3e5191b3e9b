import type { Scope } from '../domain/api-key.js';

/** Who is calling. Users (Basic or JWT) have full access; API keys carry scopes. */
export type Principal =
  | { kind: 'user'; userId: number; username: string; admin: boolean }
  | { kind: 'api_key'; keyId: number; name: string; scopes: readonly Scope[] };

/** The in-process principal of the CLI and the desktop console's own operations. */
export const systemPrincipal: Principal = { kind: 'user', userId: 0, username: 'system', admin: true };
