import type { ShareLocation } from '../ports/share-driver.js';
import type { NasType } from '../domain/common.js';

/** What a job needs to run; sealed in storage because it may hold a share password. */
export type JobPayload =
  | { kind: 'share_test'; location: SerializedLocation; label: string }
  | { kind: 'share_test_saved'; shareId: number }
  | { kind: 'share_scan'; shareId: number };

export interface SerializedLocation {
  type: NasType;
  host: string;
  path: string;
  options: string | null;
  username: string | null;
  password: string | null;
}

export function toLocation(serialized: SerializedLocation, parseOptions: (options: string | null) => ShareLocation['options']): ShareLocation {
  return { ...serialized, options: parseOptions(serialized.options) };
}
