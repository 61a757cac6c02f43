import {
  federationSubjectSchema,
  identityProviderKeySchema,
  isLoopbackUrl,
  LIMITS,
  type LockedReason,
  SSO_ATTEMPT_MINUTES,
} from '@cardportal/domain';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import { and, eq } from 'drizzle-orm';
import type * as Oidc from 'openid-client';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { audit } from '../../kernel/audit.ts';
import { lazy } from '../../kernel/lazy.ts';
import type { Secrets } from '../../kernel/secrets.ts';
import { openText, randomId, safeEqual, sha256 } from '../../security/crypto.ts';
import { organisationActive } from '../access/index.ts';
import { isFeatureOn } from '../issuers/index.ts';
import { recordSuccess, type UserRow } from '../users/index.ts';
import {
  CLIENT_SECRET_AAD,
  findAttempt,
  findProvider,
  type IdentityProviderRow,
  saveAttempt,
  takeAttempt,
} from './repository.ts';

/** The protocols' libraries, at their first sign-in (kernel/lazy.ts): most servers use one or none. */
const openidClient = lazy(() => import('openid-client'));
const samlLibrary = lazy(() => import('@node-saml/node-saml'));

/**
 * The requests to a provider: one more try when the first failed before any answer (a pooled connection
 * the provider had closed — seen on the first discovery after an idle spell). Safe for every call: a
 * GET is idempotent, and an authorization code is single-use, so a token request that did reach the
 * provider fails its second time rather than signing in twice.
 */
const providerFetch: Oidc.CustomFetch = async (url, options) => {
  // openid-client's body type allows any Uint8Array; it only ever sends strings and URLSearchParams.
  const init = options as RequestInit;
  try {
    return await fetch(url, init);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return fetch(url, init);
  }
};

/** A provider's discovered configuration is reused this long, then discovered again (key rotation). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/** Why a sign-in through a provider did not end in a session (the audit row's reason; docs/sso.md). */
export type SsoFailure =
  | 'provider-unreachable'
  | 'no-state'
  | 'unknown-state'
  | 'expired-state'
  | 'foreign-browser'
  | 'provider-refused'
  | 'invalid-response'
  | 'unsolicited-response'
  | 'no-subject'
  | 'unknown-subject'
  | 'not-sso-user'
  | 'wrong-owner'
  | 'option-off'
  | 'inactive'
  | 'locked'
  | 'organisation-inactive';

export type SsoOutcome =
  | { kind: 'session'; user: UserRow; cobrand: string | null; locale: string }
  | { kind: 'failed'; failure: SsoFailure; screen: LockedReason; cobrand: string | null; locale?: string };

/** The paths of a provider (one place: routes, the logout labels and the CLI's hints use them). */
export const ssoPaths = (key: string) => ({
  start: `/sdportal/sso/${key}`,
  callback: `/sdportal/sso/${key}/callback`,
  logout: `/sdportal/sso/${key}/logout`,
  signedOut: `/sdportal/sso/${key}/signed-out`,
  /** SAML 2.0: the assertion consumer service (HTTP-POST binding). */
  acs: `/sdportal/sso/${key}/acs`,
});

/** How far a SAML IdP's clock may be from ours when its assertion's validity window is checked. */
const SAML_CLOCK_SKEW_MS = 60_000;

/** Whether a user is the provider's to sign in: of its company, or of its co-brand. */
export function providerOwns(
  provider: Pick<IdentityProviderRow, 'companyId' | 'cobrand'>,
  user: Pick<UserRow, 'companyId' | 'cobrand'>,
): boolean {
  return provider.companyId !== null
    ? user.companyId === provider.companyId
    : user.cobrand === provider.cobrand;
}

/**
 * The relying party (openid-client): authorization code with PKCE (S256), state and nonce, the ID
 * token's signature, issuer, audience, expiry and nonce checked by the library; our part is the
 * attempt's single use and its binding to the browser that started it, and who the subject is.
 */
/**
 * The Recipient of every SubjectConfirmationData in an assertion (node-saml's parsed form of the signed
 * assertion: xml2js objects, attributes under `$`, whatever the namespace prefixes).
 */
function recipientsOf(node: unknown, inside = false): string[] {
  if (Array.isArray(node)) return node.flatMap((n) => recipientsOf(n, inside));
  if (!node || typeof node !== 'object') return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    const local = key.slice(key.indexOf(':') + 1);
    if (key === '$') {
      const recipient = (value as Record<string, unknown>).Recipient;
      if (inside && typeof recipient === 'string') found.push(recipient);
    } else found.push(...recipientsOf(value, local === 'SubjectConfirmationData'));
  }
  return found;
}

export class SsoService {
  private readonly configurations = new Map<
    number,
    { at: number; configuration: Promise<Oidc.Configuration> }
  >();

  constructor(
    private readonly db: Db,
    private readonly secrets: Secrets,
    private readonly config: Pick<Config, 'publicUrl'>,
  ) {}

  /** The provider of a key; undefined for none, and for anything that is no key (a cookie may hold anything). */
  async provider(key: string): Promise<IdentityProviderRow | undefined> {
    return identityProviderKeySchema.safeParse(key).success ? findProvider(this.db, key) : undefined;
  }

  /** The absolute URL of one of our paths (what the provider has registered). */
  absolute(path: string): string {
    return new URL(path, this.config.publicUrl).toString();
  }

  /** Discovery (`/.well-known/openid-configuration`), cached per provider; a failure is not cached. */
  configuration(provider: IdentityProviderRow): Promise<Oidc.Configuration> {
    const cached = this.configurations.get(provider.id);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
    const issuer = new URL(provider.issuer);
    const secret = provider.clientSecretEnc
      ? openText(this.secrets.tokenKey, provider.clientSecretEnc, CLIENT_SECRET_AAD)
      : undefined;
    const configuration = openidClient().then((oidc) =>
      oidc.discovery(
        issuer,
        provider.clientId,
        secret,
        secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
        {
          // The ID token's signature is checked against the provider's published keys too, not only
          // trusted for arriving over TLS (OIDC Core 3.1.3.7 allows that; a bank keeps the proof). Plain
          // http only for a provider on this machine's loopback (the domain's issuer rule).
          execute: [
            oidc.enableNonRepudiationChecks,
            ...(issuer.protocol === 'http:' && isLoopbackUrl(issuer) ? [oidc.allowInsecureRequests] : []),
          ],
          timeout: 10,
          [oidc.customFetch]: providerFetch,
        },
      ),
    );
    this.configurations.set(provider.id, { at: Date.now(), configuration });
    configuration.catch(() => this.configurations.delete(provider.id));
    return configuration;
  }

  /**
   * Starts a sign-in: a fresh state, nonce and PKCE verifier, kept server-side under the state's hash
   * with the hash of a binding the browser gets as a cookie. Answers where to send the browser.
   */
  async begin(
    provider: IdentityProviderRow,
    context: { cobrand: string | null; locale: string },
  ): Promise<{ url: string; binding: string }> {
    if (provider.protocol === 'saml') return this.beginSaml(provider, context);
    const oidc = await openidClient();
    const configuration = await this.configuration(provider);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const binding = randomId();
    await saveAttempt(this.db, {
      stateHash: sha256(state),
      providerId: provider.id,
      bindingHash: sha256(binding),
      nonce,
      codeVerifier,
      cobrand: context.cobrand,
      locale: context.locale,
    });
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.absolute(ssoPaths(provider.key).callback),
      scope: provider.scope,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, binding };
  }

  /** The provider's answer at our callback: a session for the subject's user, or why not. */
  async finish(
    provider: IdentityProviderRow,
    query: URLSearchParams,
    binding: string | undefined,
    ip: string,
  ): Promise<SsoOutcome> {
    const fail = async (
      failure: SsoFailure,
      context: { cobrand: string | null; locale?: string },
      user?: UserRow,
    ): Promise<SsoOutcome> => {
      await audit(this.db, user ? 'login.refused' : 'login.failure', {
        ...(user ? { userPk: user.id } : {}),
        ip,
        detail: { factor: 'sso', provider: provider.key, reason: failure },
      });
      const screen: LockedReason =
        failure === 'locked'
          ? 'locked'
          : failure === 'inactive' || failure === 'organisation-inactive'
            ? 'inactive'
            : 'sso';
      return { kind: 'failed', failure, screen, ...context };
    };
    const state = query.get('state');
    const noContext = { cobrand: provider.cobrand };
    if (!state) return fail('no-state', noContext);
    const taken = await takeAttempt(this.db, provider.id, sha256(state));
    if (!taken) return fail('unknown-state', noContext);
    const { attempt, fresh } = taken;
    const context = { cobrand: attempt.cobrand, locale: attempt.locale };
    if (!fresh) return fail('expired-state', context);
    if (!binding || !safeEqual(sha256(binding), attempt.bindingHash)) return fail('foreign-browser', context);

    // SAML: the response was verified at the assertion consumer service; this step, in the browser that
    // started the sign-in (its binding cookie), releases the subject it asserted.
    if (provider.protocol === 'saml')
      return attempt.subject
        ? this.signIn(provider, attempt.subject, context, ip, fail)
        : fail('no-subject', context);

    const oidc = await openidClient();
    let claims: Oidc.IDToken | undefined;
    try {
      const configuration = await this.configuration(provider);
      const callback = new URL(this.absolute(ssoPaths(provider.key).callback));
      callback.search = query.toString();
      const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      const refused =
        error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError;
      return fail(refused ? 'provider-refused' : 'invalid-response', context);
    }
    const subject = federationSubjectSchema.safeParse(claims?.[provider.subjectClaim]);
    if (!subject.success) return fail('no-subject', context);
    return this.signIn(provider, subject.data, context, ip, fail);
  }

  /** The user a provider's subject names, if it may sign in now: a full session, or why not. */
  private async signIn(
    provider: IdentityProviderRow,
    subject: string,
    context: { cobrand: string | null; locale: string },
    ip: string,
    fail: (
      failure: SsoFailure,
      context: { cobrand: string | null; locale?: string },
      user?: UserRow,
    ) => Promise<SsoOutcome>,
  ): Promise<SsoOutcome> {
    const [user] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.federationProviderId, provider.id), eq(users.federationSubject, subject)))
      .limit(1);
    if (!user) return fail('unknown-subject', context);
    if (!user.sso) return fail('not-sso-user', context, user);
    if (!providerOwns(provider, user)) return fail('wrong-owner', context, user);
    // A company's provider signs in only while its program option is on (an issuer may switch it off).
    if (provider.companyId !== null && !(await isFeatureOn(this.db, provider.companyId, 'singleSignOn')))
      return fail('option-off', context, user);
    if (user.status === 'Inactive') return fail('inactive', context, user);
    if (user.status === 'Locked') {
      // A lock of failed attempts lifts by itself (users/attempts.ts); any other only by an administrator.
      const lifted =
        user.lockReason === 'attempts' &&
        user.lockedAt !== null &&
        Date.now() - user.lockedAt.getTime() > LIMITS.lockMinutes * 60_000;
      if (!lifted) return fail('locked', context, user);
    }
    if (!(await organisationActive(this.db, user.id))) return fail('organisation-inactive', context, user);
    await recordSuccess(this.db, user.id, {
      signedIn: true,
      audit: {
        event: 'login.success',
        entry: { userPk: user.id, ip, detail: { stage: 'full', factor: 'sso', provider: provider.key } },
      },
    });
    return { kind: 'session', user, ...context };
  }

  /** Where the provider ends its own session (RP-initiated logout), back to our signed-out path after. */
  async endSessionUrl(provider: IdentityProviderRow): Promise<string | undefined> {
    // A SAML IdP's logout page, when it has one (we send no LogoutRequest: the session here is over).
    if (provider.protocol === 'saml') return provider.samlLogoutUrl ?? undefined;
    const oidc = await openidClient();
    const configuration = await this.configuration(provider);
    if (!configuration.serverMetadata().end_session_endpoint) return undefined;
    return oidc.buildEndSessionUrl(configuration, {
      client_id: provider.clientId,
      post_logout_redirect_uri: this.absolute(ssoPaths(provider.key).signedOut),
    }).href;
  }

  // ------------------------------------------------------------------------------------------------
  // SAML 2.0 (docs/sso.md "SAML"): node-saml builds the AuthnRequest and verifies the response — the
  // assertion's signature against the IdP's certificate, its issuer, audience, validity window and
  // InResponseTo; our part is the request's single use, the browser binding and who the subject is.

  /** node-saml for a provider; `requests` answers which of our AuthnRequest IDs are outstanding. */
  private async saml(provider: IdentityProviderRow, requests: CacheProvider): Promise<SAML> {
    const { SAML, ValidateInResponseTo } = await samlLibrary();
    return new SAML({
      callbackUrl: this.absolute(ssoPaths(provider.key).acs),
      entryPoint: provider.samlEntryPoint ?? '',
      issuer: provider.clientId,
      audience: provider.clientId,
      idpIssuer: provider.issuer,
      idpCert: provider.samlCertificate ?? '',
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SSO_ATTEMPT_MINUTES * 60_000,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
      cacheProvider: requests,
    });
  }

  private async beginSaml(
    provider: IdentityProviderRow,
    context: { cobrand: string | null; locale: string },
  ): Promise<{ url: string; binding: string }> {
    const binding = randomId();
    let requestId: string | undefined;
    const requests: CacheProvider = {
      saveAsync: async (key, value) => {
        requestId = key;
        return { value, createdAt: Date.now() };
      },
      getAsync: async () => null,
      removeAsync: async () => null,
    };
    const url = await (await this.saml(provider, requests)).getAuthorizeUrlAsync('', undefined, {});
    if (!requestId) throw new Error('node-saml made no request ID');
    await saveAttempt(this.db, {
      stateHash: sha256(requestId),
      providerId: provider.id,
      bindingHash: sha256(binding),
      nonce: '',
      codeVerifier: '',
      cobrand: context.cobrand,
      locale: context.locale,
    });
    return { url, binding };
  }

  /**
   * The IdP's response at our assertion consumer service (a cross-site form POST, so no cookie of ours
   * comes with it): verified, its request taken once; the subject is kept under a fresh state for the
   * callback, which the browser reaches next (a top-level GET: its binding cookie comes along there).
   */
  async consumeSaml(
    provider: IdentityProviderRow,
    body: { SAMLResponse: string },
    ip: string,
  ): Promise<{ kind: 'continue'; url: string } | Extract<SsoOutcome, { kind: 'failed' }>> {
    const failed = async (failure: SsoFailure, context: { cobrand: string | null; locale?: string }) => {
      await audit(this.db, 'login.failure', {
        ip,
        detail: { factor: 'sso', provider: provider.key, reason: failure },
      });
      return { kind: 'failed' as const, failure, screen: 'sso' as LockedReason, ...context };
    };
    const outstanding: CacheProvider = {
      saveAsync: async () => null,
      // Whether a request ID is one of ours for this provider (node-saml refuses the response otherwise).
      getAsync: async (key) =>
        (await findAttempt(this.db, provider.id, sha256(key))) ? new Date().toISOString() : null,
      removeAsync: async () => null,
    };
    let profile: (Profile & { inResponseTo?: string }) | null;
    try {
      ({ profile } = await (await this.saml(provider, outstanding)).validatePostResponseAsync({
        SAMLResponse: body.SAMLResponse,
      }));
    } catch (error) {
      const unsolicited = /InResponseTo/i.test((error as Error).message);
      return failed(unsolicited ? 'unsolicited-response' : 'invalid-response', { cobrand: provider.cobrand });
    }
    const requestId = profile?.inResponseTo;
    if (!profile || !requestId) return failed('unsolicited-response', { cobrand: provider.cobrand });
    // node-saml checks the signature against the IdP's certificate but not who says it issued the
    // assertion: an assertion of another IdP sharing a key is no answer of this one.
    if (profile.issuer !== provider.issuer) return failed('invalid-response', { cobrand: provider.cobrand });
    // Nor whether the signed assertion was meant for us (SAML profiles §4.1.4.3: a bearer confirmation's
    // Recipient is the consumer service it was sent to): an assertion for another service is replayed.
    const recipients = recipientsOf(profile.getAssertion?.());
    const acs = this.absolute(ssoPaths(provider.key).acs);
    if (recipients.length === 0 || recipients.some((r) => r !== acs))
      return failed('invalid-response', { cobrand: provider.cobrand });
    const taken = await takeAttempt(this.db, provider.id, sha256(requestId));
    if (!taken) return failed('unknown-state', { cobrand: provider.cobrand });
    const context = { cobrand: taken.attempt.cobrand, locale: taken.attempt.locale };
    if (!taken.fresh) return failed('expired-state', context);
    const subject = federationSubjectSchema.safeParse(profile.nameID);
    if (!subject.success) return failed('no-subject', context);
    const state = randomId();
    await saveAttempt(this.db, {
      stateHash: sha256(state),
      providerId: provider.id,
      bindingHash: taken.attempt.bindingHash,
      nonce: '',
      codeVerifier: '',
      subject: subject.data,
      cobrand: context.cobrand,
      locale: context.locale,
    });
    return { kind: 'continue', url: `${ssoPaths(provider.key).callback}?state=${encodeURIComponent(state)}` };
  }
}
