import { z } from 'zod';

/**
 * Single sign-on over OpenID Connect (issue 18 item 4, DESIGN §7, docs/sso.md): an identity provider
 * belongs to a co-brand (all its users sign in there) or to a company (its SSO users do). Its users hold
 * no portal password ("SSO enforced") and are found by the subject the provider asserts.
 */

/** A provider's key: its path segment (`/sdportal/sso/{key}`). */
export const identityProviderKeySchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,31}$/, 'must be 2–32 lower-case letters, digits or hyphens');

/** Whether a URL is on this machine's loopback (the only place plain http is allowed for an issuer). */
export function isLoopbackUrl(url: URL): boolean {
  return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

/**
 * A provider's URL: https, or http on this machine's loopback (a provider the tests start); never a
 * fragment or credentials, and a query only where `query` allows it.
 */
const providerUrlSchema = (max: number, query: boolean) =>
  z
    .string()
    .max(max)
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url));
          return secure && (query || !url.search) && !url.hash && !url.username && !url.password;
        } catch {
          return false;
        }
      },
      {
        message: `must be an https URL (http only on loopback) without ${query ? '' : 'query, '}fragment or credentials`,
      },
    );

/** An OpenID issuer: no query (OpenID Connect Discovery §4). */
export const issuerUrlSchema = providerUrlSchema(512, false);

/** Which ID token claim names the user (`sub` unless the provider's users are known by another). */
export const subjectClaimSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/, 'must be a claim name (letters, digits, _ . : -)');

/** A subject as a provider asserts it: printable, at most 255 characters (OpenID Connect Core §2). */
export const federationSubjectSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** Whom a provider serves, OpenID or SAML: one co-brand or one company (the CLI's --cobrand, --company). */
const providerOwner = {
  cobrand: z.string().min(1).max(64).optional(),
  companyNumber: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
};
const oneOwner = (v: { cobrand?: string; companyNumber?: string }) =>
  (v.cobrand === undefined) !== (v.companyNumber === undefined);
const oneOwnerRefusal = { message: 'belongs to exactly one co-brand or one company', path: ['cobrand'] };

/** A provider's registration, as an administrator gives it (the CLI's `sso add`). */
export const identityProviderInputSchema = z
  .strictObject({
    key: identityProviderKeySchema,
    displayName: z.string().trim().min(1).max(80),
    issuer: issuerUrlSchema,
    clientId: z.string().min(1).max(255),
    /** Absent: a public client (PKCE alone, no client secret). */
    clientSecret: z.string().min(1).max(1024).optional(),
    scope: z
      .string()
      .regex(
        /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/,
        'must be scope tokens separated by spaces',
      )
      .refine((s) => s.split(' ').includes('openid'), 'must include openid')
      .default('openid'),
    subjectClaim: subjectClaimSchema.default('sub'),
    ...providerOwner,
  })
  .refine(oneOwner, oneOwnerRefusal);
export type IdentityProviderInput = z.input<typeof identityProviderInputSchema>;

/** A SAML IdP's URL (its SSO or logout page): a query is allowed. */
export const samlUrlSchema = providerUrlSchema(1024, true);

/** An entity ID (SAML 2.0 Core §8.3.6: a URI of at most 1024 characters). */
export const samlEntityIdSchema = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[\x21-\x7e]+$/, 'must be a URI (printable, no spaces)');

/**
 * A SAML 2.0 identity provider's registration (the CLI's `sso add-saml`, docs/sso.md "SAML"): the IdP's
 * entity ID (the Issuer its responses carry), its SSO URL (HTTP-Redirect binding), its signing
 * certificate (PEM; the assertion must be signed with its key), optionally its logout page, and the
 * co-brand or company it serves. Our entity ID defaults to the provider's sign-in URL.
 */
export const samlProviderInputSchema = z
  .strictObject({
    key: identityProviderKeySchema,
    displayName: z.string().trim().min(1).max(80),
    idpEntityId: samlEntityIdSchema,
    entryPoint: samlUrlSchema,
    certificate: z
      .string()
      .max(16_384)
      .regex(/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/, 'must be a PEM certificate'),
    logoutUrl: samlUrlSchema.optional(),
    spEntityId: samlEntityIdSchema.optional(),
    ...providerOwner,
  })
  .refine(oneOwner, oneOwnerRefusal);
export type SamlProviderInput = z.input<typeof samlProviderInputSchema>;

/** The SAML assertion consumer service's form (HTTP-POST binding); other fields pass. */
export const samlAcsBodySchema = z.looseObject({
  SAMLResponse: z.string().min(1).max(200_000),
  RelayState: z.string().max(512).optional(),
});

/** A sign-in through a provider must come back within this time, or it starts again (state, nonce, PKCE). */
export const SSO_ATTEMPT_MINUTES = 10;

/** The provider a path names (`/sdportal/sso/{key}/...`). */
export const ssoParamsSchema = z.object({ key: identityProviderKeySchema });

/** The authorization response at the callback (RFC 6749 §4.1.2, RFC 9207 `iss`); other parameters pass. */
export const ssoCallbackQuerySchema = z.looseObject({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  session_state: z.string().max(512).optional(),
});
