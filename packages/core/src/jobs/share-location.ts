import type { NasRecord, NasShareRecord } from '../ports/storage.js';
import type { ShareLocation } from '../ports/share-driver.js';
import { parseShareOptions } from '../domain/nas-share.js';

/** What a share says of where it connects and as whom: a saved share's columns, or a body before it is saved. */
export type ShareConnection = Pick<NasShareRecord, 'path' | 'options' | 'username'>;

/**
 * The one place a driver's `ShareLocation` is built: the NAS gives type and host, the share its
 * path, options (parsed here) and username; the password is given in clear by the caller, who
 * alone knows where it comes from (a body, a sealed column, nothing at all).
 */
export function shareLocation(nas: Pick<NasRecord, 'type' | 'host'>, share: ShareConnection, password: string | null): ShareLocation {
  return {
    type: nas.type,
    host: nas.host,
    path: share.path,
    options: parseShareOptions(share.options),
    username: share.username,
    password,
  };
}
