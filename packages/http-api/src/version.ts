import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The version of dms: the one in @dms/http-api's package.json, read once. `dms --version`, the
 * `version` of GET /api/v2 and the `dms_build_info` metric all say this one. The file sits one
 * level above both src/ and dist/, so the same relative URL finds it from the sources and the build.
 */
export const dmsVersion: string = z
  .object({ version: z.string().min(1) })
  .parse(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))).version;
