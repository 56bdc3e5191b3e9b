/**
 * What a caller presents, as a host parsed it at its edge: no transport string (an HTTP
 * `Authorization` header, an IPC message) reaches the core. A host that cannot make sense
 * of what it was sent passes `unreadable`, so the failure is throttled and counted like any
 * other wrong credential.
 */
export type Credential = PasswordCredential | BearerCredential | SessionCredential | UnreadableCredential;

/** A user's name and password (HTTP Basic, a console sign-in, a login body). */
export interface PasswordCredential {
  kind: 'password';
  username: string;
  password: string;
}

/** An API key or, in JWT mode, a signed token. */
export interface BearerCredential {
  kind: 'bearer';
  token: string;
}

/**
 * An in-process host's signed-in user (the desktop console), handed out by a password
 * sign-in. It proves nothing by itself: every use re-reads the user, and it stops working
 * when the user is deleted or its password changes. No network edge ever makes one.
 */
export interface SessionCredential {
  kind: 'session';
  userId: number;
  username: string;
  /** A digest of the password hash at sign-in: a new password ends the session. */
  credentialVersion: string;
  /** The stored session (GET /sessions): revoking it ends this credential. */
  sessionId: string;
}

export interface UnreadableCredential {
  kind: 'unreadable';
  /** Why the host could not read it, for the 401 message ("malformed Basic credentials"). */
  reason: string;
}

/** Longest user name and password a credential may carry: longer ones cannot match a user. */
export const credentialBounds = { username: 64, password: 1024, token: 4096 } as const;

const controlCharacter = /\p{Cc}/u;

/**
 * A name and password as a credential, or `unreadable` when no stored user could have them
 * (too long, or holding a NUL or another control character), so nothing downstream (a
 * database query, a rate-limit key) ever sees such a string.
 */
export function passwordCredential(username: string, password: string): PasswordCredential | UnreadableCredential {
  if (username.length === 0 || username.length > credentialBounds.username || controlCharacter.test(username)) {
    return { kind: 'unreadable', reason: 'invalid username or password' };
  }
  if (password.length > credentialBounds.password || password.includes('\u0000')) {
    return { kind: 'unreadable', reason: 'invalid username or password' };
  }
  return { kind: 'password', username, password };
}

/** A bearer token as a credential, or `unreadable` when it cannot be a key or a token. */
export function bearerCredential(token: string): BearerCredential | UnreadableCredential {
  if (token.length === 0 || token.length > credentialBounds.token || !/^[\x21-\x7e]+$/.test(token)) {
    return { kind: 'unreadable', reason: 'malformed bearer token' };
  }
  return { kind: 'bearer', token };
}

/** Who a credential claims to be, for throttling guesses at one user from one address. */
export function claimedIdentity(credential: Credential | undefined): string {
  switch (credential?.kind) {
    case undefined:
      return 'none';
    case 'password':
    case 'session':
      return `user:${credential.username}`;
    case 'bearer':
      return 'bearer';
    case 'unreadable':
      return 'unreadable';
  }
}
