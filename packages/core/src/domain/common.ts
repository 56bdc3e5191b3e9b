import { z } from 'zod';

/** Ids fit PostgreSQL's `integer` identity columns, so both adapters take and refuse the same ids. */
export const maxId = 2_147_483_647;
export const idSchema = z.number().int().positive().max(maxId);

/** Strings that end up in logs, shell-free argv and SQL parameters: no control characters. */
export const noControlChars = /^[^\u0000-\u001f\u007f]*$/;
export const noControlCharsRule = { message: 'must not contain control characters' };

export function text(max: number, min = 1) {
  return z.string().min(min).max(max).regex(noControlChars, noControlCharsRule);
}

/**
 * Embeddings, overrides and isolates reorder text on screen (Trojan Source): a name that looks
 * like another. The marks LRM, RLM and ALM only hint direction and stay allowed for RTL names.
 */
const bidiControls = /[\u202a-\u202e\u2066-\u2069]/;

/** Format characters (zero-width space, BOM, LRM, word joiner …): invisible, so not part of how a name reads. */
const formatCharacters = /\p{Cf}/gu;

/**
 * Whether a name reads as an id: all digits once compatibility forms are folded (NFKC makes
 * full-width `１７` and mathematical `𝟏𝟕` plain `17`) and invisible format characters are
 * dropped (`17\u200b`, `\ufeff17`). Digits of any script count: `١٧` reads as 17 too.
 */
export function looksLikeId(name: string): boolean {
  return /^\p{Nd}+$/u.test(name.normalize('NFKC').replace(formatCharacters, ''));
}

/** The rule every name that paths take obeys (resources and users alike). */
export const notIdLikeRule = { message: 'must not be all digits (an all-digit name would read as an id in paths)' };

/**
 * A resource's name, which paths take in place of its id (docs/decisions/055-names.md): a name that
 * reads as digits would shadow an id, and bidi controls make one name look like another.
 */
export function resourceName(max: number) {
  return text(max)
    .refine((name) => !looksLikeId(name), notIdLikeRule)
    .refine((name) => !bidiControls.test(name), { message: 'must not contain bidirectional control characters' });
}

/** An optional field that `null` clears on update. */
export function optionalText(max: number) {
  return z.string().max(max).regex(noControlChars, noControlCharsRule).nullable().optional();
}

export const nasTypes = ['smb_v1', 'smb_v2_1', 'smb_v3', 'nfs_v3', 'nfs_v4', 'storenext_v5', 'local'] as const;
export type NasType = (typeof nasTypes)[number];

export const hostPattern =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\])$/;
