import { maxWaitSeconds } from '@dms/core/runtime';
import { z } from 'zod';

/** An optional whole-number query parameter with its bounds, as the document types it. */
export function integerParameter([min, max]: readonly [number, number], description: string | undefined) {
  const schema = z.int().min(min).max(max).optional();
  return description === undefined ? schema : schema.describe(description);
}

/** A job's long-poll (`wait=N` seconds), as the job service bounds it. */
export const waitBounds = [0, maxWaitSeconds] as const;
