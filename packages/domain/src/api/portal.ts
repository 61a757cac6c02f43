import { z } from 'zod';
import { cobrandNameSchema, cobrandSchema, FOOTER_LINK_KEYS } from '../cobrand.ts';
import { LIMITS } from '../limits.ts';
import {
  type ChangePasswordServiceUrls,
  LOGIN_FORM_TYPES,
  LOGIN_TYPES,
  type LoginDescriptor,
  type LogoutLabels,
} from '../login.ts';
import { type Expect, lenient, okSchema, type SameType } from './common.ts';

/**
 * Contracts of the portal's calls (portal spec §7, docs/api.md) and the health probes. Where a call
 * refuses a field with its own answer (a code and a sentence of the spec's services, a text/plain
 * status), the issue message of the schema is a refusal key that the route maps to that answer.
 */

// ---------------------------------------------------------------------------------------------------
// Health (DESIGN §3).

export const healthSchema = z.object({ status: z.literal('ok') }).describe('The process is alive');
const probe = z.enum(['ok', 'unavailable']);
export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    database: probe,
    redis: probe.optional().describe('Only when Redis is configured'),
  })
  .describe('Readiness of the database (and Redis when configured)');

// ---------------------------------------------------------------------------------------------------
// Co-brands, text bundles and images.

/** `{name}` of the co-brand calls: longer names are refused (400), unknown ones not found (404). */
export const cobrandNameParamsSchema = z.object({ name: z.string().max(64).describe('The co-brand name') });

/** `GET /sdportal/rest/cobrand/{name}`: the record the portal reads (CobrandRecord). */
export const cobrandRecordSchema = cobrandSchema
  .omit({ locales: true })
  .extend(
    Object.fromEntries(
      FOOTER_LINK_KEYS.flatMap((key) => [
        [key, z.string().optional()],
        [`${key}Url`, z.string().optional()],
      ]),
    ) as Record<string, z.ZodOptional<z.ZodString>>,
  )
  .extend({
    logoPath: z
      .string()
      .nullable()
      .optional()
      .describe('The header logo that exists (null: none), so no probe is needed'),
    footerLogoPath: z.string().nullable().optional().describe('The footer logo that exists (null: none)'),
  })
  .meta({ id: 'CobrandRecord', description: 'The co-brand record: spec §3 fields, footer links, theme' });

/** `GET /sdportal/rest/cobrands/{name}/locales`: locale → its own name, the co-brand's default first. */
export const cobrandLocalesSchema = z
  .record(z.string(), z.string())
  .describe("The co-brand's languages: locale → name, in its order (first = default)");

/** `GET /sdportal/rest/cobrandhostabbreviation?cobrandAbbr=`: 2–8 letters or digits (any case). */
export const cobrandAbbrQuerySchema = z.object({
  cobrandAbbr: z
    .string({ error: 'cobrandAbbr.invalid' })
    .regex(/^[a-z0-9]{2,8}$/i, { error: 'cobrandAbbr.invalid' })
    .toLowerCase(),
});

/** A text bundle: flat `{ key: text }`. */
export const textBundleSchema = z.record(z.string(), z.string()).describe('Flat { key: text }');
export const textBundleParamsSchema = z.object({
  locale: z.string().describe('A supported locale (en_US, de, ...)'),
  file: z
    .string()
    .describe(
      "PortalLabels.json, Messages.json, or one of the application's namespaces: app-{namespace}.json",
    ),
});

/** A file of ours by name (a logo, a theme): anything not served answers 404. */
export const fileParamsSchema = z.object({ file: z.string().describe('The file name') });

/** Bytes of a file (an image, a workbook, a built asset). */
export const fileBytesSchema = z.string().describe('The file');

/** Text answers: a same-origin URL, a co-brand name, CSS, an HTML page. */
export const textAnswerSchema = z.string();

// ---------------------------------------------------------------------------------------------------
// Sign-in and sign-out.

/** A user ID named by a portal call: trimmed, required, at most LIMITS.userIdMaxLength characters. */
const namedUserId = (tooLong: string) =>
  z
    .string({ error: 'userId.required' })
    .trim()
    .min(1, { error: 'userId.required' })
    .max(LIMITS.userIdMaxLength, { error: tooLong });

/** `POST /sdportal/rest/user/loginSignin`. */
export const loginSigninBodySchema = z.object(
  { userId: namedUserId('userId.tooLong') },
  { error: 'userId.required' },
);

export const loginDescriptorSchema = z
  .object({ ldapId: z.string(), loginType: z.enum(LOGIN_TYPES), b2BAlias: z.string() })
  .meta({
    id: 'LoginDescriptor',
    description: 'The login descriptor: the same for every ID (a decoy for unknown ones)',
  });

/** A field of the sign-in form: a single text value, anything else (a repeated field) counts as absent. */
const formText = lenient(z.string());

/**
 * `POST /heracles/login` (form-encoded): `login-form-type` password or token start a sign-in; otp, token
 * (new-PIN stage) and next-token continue the session's stage. Other fields (`ldapId`, `loginType`,
 * `b2BAlias`, `referral_path`, ...) are accepted and ignored.
 */
export const heraclesLoginFormSchema = z.object({
  username: formText.describe('The user ID'),
  password: formText.describe('The password, the code, the PIN + tokencode or the next tokencode'),
  'login-form-type': z
    .preprocess(
      (value) => (typeof value === 'string' ? value : undefined),
      z.enum([...LOGIN_FORM_TYPES, ''], { error: 'loginFormType.unsupported' }).optional(),
    )
    .describe('password (default), otp, token or next-token'),
  cobrandHost: formText,
  locale: formText,
});

/** `?cobrandHost=`: the co-brand a page or call is for; an invalid one is ignored. */
export const cobrandHostQuerySchema = z.object({ cobrandHost: lenient(cobrandNameSchema) });

/**
 * `?cobrandHost=&locale=` of the calls whose texts belong to a page (logout labels): the page's resolved
 * locale wins over the user_locale cookie, so every text on the page is in one language.
 */
export const cobrandLocaleQuerySchema = z.object({
  cobrandHost: lenient(cobrandNameSchema),
  locale: lenient(z.string().max(16)).describe(
    "The page's locale (en_US, de, ...); else the user_locale cookie",
  ),
});

export const logoutLabelsSchema = z
  .object({
    'ng.you.have.been.logged.out': z.string(),
    'ng.return.to.login.screen': z.string(),
    cobrandHostInfo: z.string(),
    fssoLogoutUrl: z.string().nullable(),
  })
  .describe('The logout screen: its texts and the co-brand');

export const changePasswordServiceUrlsSchema = z
  .object({ changePassword: z.string(), autoLogout: z.string(), cancelPasswordReset: z.string() })
  .describe('Same-origin URLs of the change-password flow');

/** `PUT /sdportal/rest/log/logErrorStatement.json`: a JSON string or `{ message }`, not blank. */
export const logStatementBodySchema = z
  .union([z.string(), z.object({ message: z.string() })], { error: 'log.invalid' })
  .refine((body) => (typeof body === 'string' ? body : body.message).trim() !== '', { error: 'log.invalid' });

export const sessionWarningSchema = z
  .object({
    sessionExpireWarningBoxTitle: z.string(),
    generalSessionAboutToExpireMessage: z.string().describe('With {0} for the seconds left'),
    sessionExpireContinueButtonLabel: z.string(),
    sessionExpireLogoutButtonLabel: z.string(),
    warningAfterMs: z.number().int(),
    countdownSeconds: z.number().int(),
  })
  .describe("The session-expiry warning's texts and timings");

export const sessionPingSchema = z
  .object({ ok: z.literal(true), expiresAt: z.string().describe('ISO 8601') })
  .describe('The session was renewed');

export const csrfIssuedSchema = okSchema.describe('The sec-token cookie is set');

// ---------------------------------------------------------------------------------------------------
// Second factor and credentials.

/** `POST /services/authentication-service/protected/one-time-pins`: the language of the e-mail. */
export const oneTimePinBodySchema = z.object({ locale: lenient(z.string()) }).catch({});
export const oneTimePinSentSchema = z
  .object({ emailAddress: z.string().describe('Masked: j***@example.com') })
  .describe('A new code was sent');

/** `POST /cpae/public/users/securityquestions`. */
export const securityQuestionBodySchema = z.object(
  { userId: namedUserId('userId.tooLong'), locale: lenient(z.string()) },
  { error: 'userId.required' },
);
export const securityQuestionSchema = z
  .object({ questionId: z.string(), questionText: z.string() })
  .describe("The user's question (a stable decoy for unknown IDs)");

/**
 * `POST /services/authentication-service/public/forgotPassword`. Refusal keys, in the order the call
 * names them: `userId.required`, `question.required`, `answer.required`, then `request.tooLong`.
 */
export const forgotPasswordBodySchema = z.object(
  {
    userId: namedUserId('request.tooLong'),
    locale: lenient(z.string()),
    cobrandName: lenient(cobrandNameSchema),
    securityQuestion: z.object(
      {
        questionId: z
          .string({ error: 'question.required' })
          .min(1, { error: 'question.required' })
          .max(20, { error: 'request.tooLong' }),
        questionResponse: z
          .string({ error: 'answer.required' })
          .refine((answer) => answer.trim() !== '', { error: 'answer.required' })
          .max(1000, { error: 'request.tooLong' }),
      },
      { error: 'question.required' },
    ),
  },
  { error: 'userId.required' },
);
export const FORGOT_PASSWORD_REFUSALS = [
  'userId.required',
  'question.required',
  'answer.required',
  'request.tooLong',
] as const;

/**
 * `POST /services/authentication-service/public/changePassword`. Refusal keys, in order:
 * `userId.required`, `oldCredential.required`, `newCredential.required`, `newCredential.tooLong`.
 */
export const changePasswordBodySchema = z.object(
  {
    userId: z.string({ error: 'userId.required' }).trim().min(1, { error: 'userId.required' }),
    oldCredential: z.string({ error: 'oldCredential.required' }).min(1, { error: 'oldCredential.required' }),
    newCredential: z
      .string({ error: 'newCredential.required' })
      .min(1, { error: 'newCredential.required' })
      .max(LIMITS.credentialMaxLength, { error: 'newCredential.tooLong' }),
  },
  { error: 'userId.required' },
);
export const CHANGE_PASSWORD_REFUSALS = [
  'userId.required',
  'oldCredential.required',
  'newCredential.required',
  'newCredential.tooLong',
] as const;

/** `GET /sdportal/rest/rsapin/information?action=newpin|nexttoken`. */
export const tokenInformationQuerySchema = z.object({ action: lenient(z.enum(['newpin', 'nexttoken'])) });
export const tokenInformationSchema = z
  .object({
    shouldAccess: z.boolean(),
    forwardFormEndpoint: z.string(),
    ldapId: z.string().optional(),
    b2BAlias: z.string().optional(),
  })
  .describe('Whether the session is in that stage, and the sign-in form to post to');

/** `POST /services/twofactortoken-service/protected/tokens/{ldapId}`: the new PIN (checked by the PIN rules). */
export const ldapIdParamsSchema = z.object({ ldapId: z.string().describe("The token owner's ldap id") });
export const newPinBodySchema = z.object({ newPin: lenient(z.string()) }).catch({});
export const pinSetSchema = z
  .object({
    ok: z.literal(true),
    redirect: z.string().describe('The logout screen: sign in again with the new PIN'),
  })
  .describe('The PIN is set and the user signed out');

/**
 * The refusal of the first key of `order` among a failed parse's issues (a call that names its
 * problems one at a time, in its own order); undefined when none is there.
 */
export function firstRefusal<K extends string>(
  issues: readonly { message: string }[],
  order: readonly K[],
): K | undefined {
  return order.find((key) => issues.some((issue) => issue.message === key));
}

// Compile-time checks: the schemas answer exactly the interfaces the clients read.
export type PortalContractChecks = [
  Expect<SameType<z.output<typeof loginDescriptorSchema>, LoginDescriptor>>,
  Expect<SameType<z.output<typeof logoutLabelsSchema>, LogoutLabels>>,
  Expect<SameType<z.output<typeof changePasswordServiceUrlsSchema>, ChangePasswordServiceUrls>>,
];
