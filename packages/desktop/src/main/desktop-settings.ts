import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { parseInput, serverDefaults } from '@dms/core';

/**
 * Where the embedded REST server listens. Loopback and 8080 by default, as `dms serve`; port 0
 * takes any free port (its number is in the status URL).
 */
export const restServerSettingsSchema = z
  .object({
    enabled: z.boolean(),
    host: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .regex(/^(?:[A-Za-z0-9.-]+|[0-9A-Fa-f:.]+)$/, { message: 'must be a host name or an IP address such as 127.0.0.1' }),
    port: z.number().int().min(0).max(65535),
  })
  .strict();

export type RestServerSettings = z.output<typeof restServerSettingsSchema>;

/** What this app keeps beside its data dir; the service's own settings live in its database. */
export const desktopSettingsSchema = z.object({ restServer: restServerSettingsSchema }).strict();
export type DesktopSettings = z.output<typeof desktopSettingsSchema>;

export const defaultDesktopSettings: DesktopSettings = { restServer: { enabled: false, host: serverDefaults.host, port: serverDefaults.port } };

/** Checks settings a user sent: field errors the console shows under each input (a core validation error). */
export function parseRestServerSettings(body: unknown): RestServerSettings {
  return parseInput(restServerSettingsSchema, body);
}

/** A settings file as read: the settings, and why the file was ignored when it was. */
export interface LoadedDesktopSettings {
  settings: DesktopSettings;
  problem?: string;
}

/**
 * Reads the settings file. None yet gives the defaults; a file that cannot be read or does not
 * match the schema gives the defaults too, with the reason, so a broken file never stops the app.
 */
export async function readDesktopSettings(file: string): Promise<LoadedDesktopSettings> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { settings: defaultDesktopSettings };
    return { settings: defaultDesktopSettings, problem: `could not read ${file}: ${(error as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { settings: defaultDesktopSettings, problem: `${file} is not valid JSON; the defaults are used until the settings are saved again` };
  }
  const parsed = desktopSettingsSchema.safeParse(json);
  if (!parsed.success)
    return {
      settings: defaultDesktopSettings,
      problem: `${file} does not hold valid settings (${z.prettifyError(parsed.error).replaceAll('\n', ' ')}); the defaults are used until the settings are saved again`,
    };
  return { settings: parsed.data };
}

/** Writes the settings file atomically: a crash mid-write leaves the old file, never half a new one. */
export async function writeDesktopSettings(file: string, settings: DesktopSettings): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(desktopSettingsSchema.parse(settings), null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}
