/**
 * jose, imported at the first token signed or verified, not with the service: most servers take
 * API keys and passwords, and jose is about 0.8 MB of heap (decision 188).
 */
let jose: Promise<typeof import('jose')> | undefined;
const loadJose = () => (jose ??= import('jose'));

/** HS256 tokens for JWT mode; the key is derived from the server secret by the caller. */
export interface JwtClaims {
  userId: number;
  username: string;
  /** Changes with the user's password, so a password change ends every older token. */
  credentialVersion: string;
  /** The JWT mode period the token was issued in: re-enabling JWT mode starts a new one. */
  epoch: string;
  /** The session the token stands for (docs/decisions/179-sessions.md): revoking it ends the token. */
  sessionId: string;
}

export async function signUserToken(key: Uint8Array, claims: JwtClaims, now: Date, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = new Date((issuedAt + ttlSeconds) * 1000);
  const { SignJWT } = await loadJose();
  const token = await new SignJWT({ username: claims.username, cv: claims.credentialVersion, ep: claims.epoch, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuer('dms')
    .setAudience('dms-api')
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
  return { token, expiresAt };
}

/** Resolves the claims, or undefined for a bad signature, an expired token or wrong claims. */
export async function verifyUserToken(key: Uint8Array, token: string, now: Date): Promise<JwtClaims | undefined> {
  const { jwtVerify, errors } = await loadJose();
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: 'dms', audience: 'dms-api', currentDate: now });
    const userId = Number(payload.sub);
    const epoch = payload['ep'] ?? '';
    const sessionId = payload['sid'];
    // A token without a session (issued before sessions were kept) cannot be revoked: refused.
    if (
      !Number.isInteger(userId) ||
      typeof payload['username'] !== 'string' ||
      typeof payload['cv'] !== 'string' ||
      typeof epoch !== 'string' ||
      typeof sessionId !== 'string'
    )
      return undefined;
    return { userId, username: payload['username'], credentialVersion: payload['cv'], epoch, sessionId };
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined;
    throw error;
  }
}
