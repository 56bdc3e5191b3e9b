import { z } from 'zod';

export const idSchema = z.number().int().positive();

/** Strings that end up in logs, shell-free argv and SQL parameters: no control characters. */
export const noControlChars = /^[^\u0000-\u001f\u007f]*$/;

export function text(max: number, min = 1) {
  return z
    .string()
    .min(min)
    .max(max)
    .regex(noControlChars, { message: 'must not contain control characters' });
}

/** An optional field that `null` clears on update. */
export function optionalText(max: number) {
  return z.string().max(max).regex(noControlChars).nullable().optional();
}

export const nasTypes = ['smb_v1', 'smb_v2_1', 'smb_v3', 'nfs_v3', 'nfs_v4', 'storenext_v5', 'local'] as const;
export type NasType = (typeof nasTypes)[number];

export const hostPattern =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\])$/;
