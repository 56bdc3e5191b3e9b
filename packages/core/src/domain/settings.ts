import { z } from 'zod';

export const settingsSchema = z
  .object({ jwt_enabled: z.boolean(), jwt_ttl_seconds: z.number().int() })
  .meta({ id: 'settings' });
export const settingsUpdateSchema = z
  .object({ jwt_enabled: z.boolean(), jwt_ttl_seconds: z.number().int().min(60).max(30 * 24 * 3600) })
  .partial();

export type Settings = z.output<typeof settingsSchema>;
export const defaultSettings: Settings = { jwt_enabled: false, jwt_ttl_seconds: 3600 };
