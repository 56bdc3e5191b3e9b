import { totpConfirmRequestSchema, totpDisableRequestSchema, totpEnrollmentSchema, totpRecoveryCodesSchema, totpStatusSchema } from '@dms/core';
import { respondEmpty, respondJson } from '../http/respond.js';
import { readJsonBody } from '../http/json-body.js';
import { defineOperation } from './operation.js';
import { totpCodeExample, totpEnrollmentExample, totpRecoveryCodesExample, totpStatusExample } from '../contracts/examples.js';

const ownOnly = 'The caller’s own second factor (docs/decisions/178-totp-second-factor.md): a signed-in user only; an API key is refused (403).';

/** `/auth/totp` (docs/api.md#two-factor-sign-in): a user's TOTP second factor, and an admin's reset of it. */
export const totpOperations = [
  defineOperation({
    operationId: 'showTotp',
    sdkSample: `const { enabled, recovery_codes_left } = await dms.totp.status();`,
    handle: async (c, core) => respondJson(c, await core.totp.status(c.get('principal'))),
    method: 'get',
    path: '/auth/totp',
    tag: 'admin',
    summary: 'Whether the caller’s TOTP second factor is on',
    description: `${ownOnly} \`pending\`: enrolled, not confirmed yet.`,
    success: { status: 200, description: 'the second factor’s state', schema: totpStatusSchema, example: totpStatusExample },
  }),
  defineOperation({
    operationId: 'enrollTotp',
    sdkSample: `const { secret, otpauth_uri } = await dms.totp.enroll();`,
    handle: async (c, core) => respondJson(c, await core.totp.enroll(c.get('principal'))),
    method: 'post',
    path: '/auth/totp',
    tag: 'admin',
    summary: 'Start turning TOTP on: a new secret for an authenticator app',
    description: `${ownOnly} Answers the base32 \`secret\` and its \`otpauth_uri\` (show it as a QR code). Not in force until confirmed; enrolling again replaces an unconfirmed secret; 409 while TOTP is on.`,
    errors: [409],
    success: { status: 200, description: 'the secret, this once', schema: totpEnrollmentSchema, example: totpEnrollmentExample },
  }),
  defineOperation({
    operationId: 'confirmTotp',
    sdkSample: `const { recovery_codes } = await dms.totp.confirm('123456');`,
    handle: async (c, core) => respondJson(c, await core.totp.confirm(c.get('principal'), await readJsonBody(c))),
    method: 'post',
    path: '/auth/totp/confirm',
    tag: 'admin',
    summary: 'Turn TOTP on with a code of the enrolled secret',
    description: `${ownOnly} A valid \`totp_code\` turns it on and answers 10 \`recovery_codes\`, shown this once (each signs in once instead of a code). From then on the user's sign-ins need a code, and HTTP Basic is refused for the user (use an API key or a token).`,
    errors: [409],
    body: totpConfirmRequestSchema,
    bodyExample: totpCodeExample,
    bodyExampleRefused: 'a code that is never right: the server answers 422 or 409',
    success: { status: 200, description: 'the recovery codes, this once', schema: totpRecoveryCodesSchema, example: totpRecoveryCodesExample },
  }),
  defineOperation({
    operationId: 'disableTotp',
    sdkSample: `await dms.totp.disable({ totp_code: '123456' });`,
    handle: async (c, core) => {
      await core.totp.disable(c.get('principal'), await readJsonBody(c));
      return respondEmpty(c, 204);
    },
    method: 'post',
    path: '/auth/totp/disable',
    tag: 'admin',
    summary: 'Turn TOTP off with a code or a recovery code',
    description: `${ownOnly} Send \`totp_code\` or \`recovery_code\`; a wrong one is 401, none is 401 with \`details.totp_code\` \`blank\`; 404 when TOTP is off.`,
    errors: [404],
    body: totpDisableRequestSchema,
    bodyExample: totpCodeExample,
    bodyExampleRefused: 'a code that is never right: the server answers 401 or 404',
    success: { status: 204, description: 'TOTP is off' },
  }),
  defineOperation({
    operationId: 'resetUserTotp',
    sdkSample: `await dms.users.resetTotp('alice');`,
    handle: async (c, core) => {
      await core.totp.reset(c.get('principal'), c.req.param('user_id')!);
      return respondEmpty(c, 204);
    },
    method: 'delete',
    path: '/users/:user_id/totp',
    tag: 'admin',
    summary: 'Turn a user’s TOTP off (admin)',
    description: 'Admin only: for a user who lost both the app and the recovery codes. Audited as `totp_disabled`.',
    scope: { controller: 'users', action: 'update' },
    success: { status: 204, description: 'the user’s TOTP is off' },
  }),
];
