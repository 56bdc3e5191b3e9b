import { hasAdminRights, type Principal } from '../scopes/principal.js';

/**
 * A job message may end with the absolute path on the server's disk that a local share's driver
 * checked: "path 'backups' not found on share (host path: /srv/dms/shares/backups)". The job keeps
 * it and the server's log show it; an admin (a user or key with admin rights) reads it, anyone else
 * the message without it, and so do the job's events (alerts, traps, notifications), which reach
 * readers the job's answer does not choose (docs/decisions/152-host-paths-for-admins.md).
 */
const noteStart = ' (host path: ';

/** `message`, followed by the host path it is about. */
export function withHostPath(message: string, hostPath: string): string {
  return `${message}${noteStart}${hostPath})`;
}

/**
 * The message without its host path. The note is always last, so all from its first start is cut:
 * a share path that itself holds the words cuts more, never less.
 */
export function withoutHostPath(message: string): string {
  const at = message.indexOf(noteStart);
  return at === -1 ? message : message.slice(0, at);
}

/** The message as `principal` may read it: whole for admin rights, else without its host path. */
export function messageFor<M extends string | null | undefined>(message: M, principal: Principal): M {
  if (typeof message !== 'string' || hasAdminRights(principal)) return message;
  return withoutHostPath(message) as M;
}
