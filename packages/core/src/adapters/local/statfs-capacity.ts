import { statfs } from 'node:fs/promises';
import type { ShareCapacity } from '../../ports/share-driver.js';

/**
 * A local share's capacity, as `df` reads it: statfs of its directory, `bsize × blocks` in all
 * and `bsize × bavail` free (what an unprivileged writer may still use, not the root's reserve).
 * Read as bigints: block counts times block size pass 2^53 only beyond 8 PiB, where Number
 * rounds to the byte's neighbourhood, which a percentage never notices.
 */
export async function statfsCapacity(path: string): Promise<ShareCapacity> {
  const stats = await statfs(path, { bigint: true });
  return { capacity_bytes: Number(stats.bsize * stats.blocks), free_bytes: Number(stats.bsize * stats.bavail) };
}
