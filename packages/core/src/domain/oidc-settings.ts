import { z } from 'zod';

/**
 * The OpenID Connect sign-in settings, fields of `/settings` (docs/decisions/177-oidc-sign-in.md).
 * The client secret is write-only: sealed at rest under its own settings key, answered as
 * `oidc_client_secret_set`, audited as "changed".
 */

/** Where a role name may come from: `admin`, `operator`, `auditor`, `viewer` or a custom role's name. */
export const oidcRoleNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_-]*$/, { message: 'must be a role name: lower-case letters, digits, _ and -, starting with a letter (such as admin or viewer)' });

/** The role a user created at first sign-in gets when the provider's claim maps to none. */
export const oidcFallbackRole = 'viewer';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An issuer is an https URL; plain http only on this machine's loopback (a provider under test). */
export function isAllowedIssuer(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
}

const noControl = /^[^\p{Cc}\p{Cf}]*$/u;

export const oidcSettingsFields = {
  oidc_enabled: z.boolean(),
  oidc_issuer: z
    .string()
    .max(2048)
    .refine(isAllowedIssuer, {
      message: 'must be the provider’s issuer URL: https://… without query or fragment (http:// only on 127.0.0.1 or localhost)',
    })
    .nullable(),
  oidc_client_id: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' })
    .nullable(),
  /** Write-only; null removes it (a public client that proves itself with PKCE only). */
  oidc_client_secret: z.string().min(1).max(1024).nullable(),
  oidc_scopes: z
    .string()
    .max(1024)
    .regex(/^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/, { message: 'must be scope names separated by single spaces' })
    .refine((scopes) => scopes.split(' ').includes('openid'), { message: 'must include openid' }),
  oidc_role_claim: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_.:/-]+$/, { message: 'must be a claim name such as groups or role' })
    .nullable(),
  oidc_role_map: z
    .record(z.string().min(1).max(256).regex(noControl, { message: 'may not hold control characters' }), oidcRoleNameSchema)
    .refine((map) => Object.keys(map).length <= 256, { message: 'may map at most 256 claim values' }),
  oidc_auto_create: z.boolean(),
  oidc_button_label: z.string().trim().min(1).max(64).regex(noControl, { message: 'may not hold control characters' }),
};

export const oidcSettingsOutputFields = {
  oidc_enabled: z.boolean(),
  oidc_issuer: z.string().nullable(),
  oidc_client_id: z.string().nullable(),
  /** Whether a client secret is stored (it is never answered). */
  oidc_client_secret_set: z.boolean(),
  oidc_scopes: z.string(),
  oidc_role_claim: z.string().nullable(),
  oidc_role_map: z.record(z.string(), z.string()),
  oidc_auto_create: z.boolean(),
  oidc_button_label: z.string(),
};

export const oidcSettingsDefaults = {
  oidc_enabled: false,
  oidc_issuer: null,
  oidc_client_id: null,
  oidc_client_secret_set: false,
  oidc_scopes: 'openid profile email',
  oidc_role_claim: null,
  oidc_role_map: {},
  oidc_auto_create: false,
  oidc_button_label: 'single sign-on',
} satisfies { [Field in keyof typeof oidcSettingsOutputFields]: z.output<(typeof oidcSettingsOutputFields)[Field]> };
