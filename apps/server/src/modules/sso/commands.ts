import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  federationSubjectSchema,
  identityProviderInputSchema,
  identityProviderKeySchema,
  samlProviderInputSchema,
} from '@cardportal/domain';
import { count, eq, sql } from 'drizzle-orm';
import { cobrands, companies, identityProviders, multiUserMembers, users } from '../../db/schema.ts';
import { audit } from '../../kernel/audit.ts';
import { CliInputError, defineCommand } from '../../kernel/cli.ts';
import { randomId, sealText } from '../../security/crypto.ts';
import { generatedPassword } from '../../security/generated-password.ts';
import { hashSecret } from '../../security/hashing.ts';
import { endSessionsOf } from '../../security/sessions.ts';
import { isFeatureOn, passwordPolicyOf } from '../issuers/index.ts';
import { enqueueFirstPassword, mailTexts } from '../mail/index.ts';
import { findUserByUserId } from '../users/index.ts';
import { CLIENT_SECRET_AAD, findProvider, listProviders } from './repository.ts';
import { providerOwns, SsoService, ssoPaths } from './service.ts';

/**
 * The provider's owner (one co-brand, or one company whose program option singleSignOn is on): the
 * company's id, or null for a co-brand; a co-brand signs in through one provider only.
 */
async function ownerOf(
  db: Parameters<Parameters<typeof defineCommand>[0]['run']>[0]['db'],
  command: string,
  input: { cobrand?: string | undefined; companyNumber?: string | undefined },
): Promise<number | null> {
  if (input.companyNumber !== undefined) {
    const [company] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.number, input.companyNumber));
    if (!company) throw new CliInputError(`${command}: no company ${input.companyNumber}`);
    if (!(await isFeatureOn(db, company.id, 'singleSignOn')))
      throw new CliInputError(
        `${command}: single sign-on is off for company ${input.companyNumber} (program option singleSignOn)`,
      );
    return company.id;
  } else {
    const [owner] = await db
      .select({ name: cobrands.name })
      .from(cobrands)
      .where(eq(cobrands.name, input.cobrand ?? ''));
    if (!owner) throw new CliInputError(`${command}: no co-brand ${input.cobrand}`);
    const [taken] = await db
      .select({ key: identityProviders.key })
      .from(identityProviders)
      .where(eq(identityProviders.cobrand, input.cobrand ?? ''));
    if (taken)
      throw new CliInputError(`${command}: co-brand ${input.cobrand} already signs in through ${taken.key}`);
  }
  return null;
}

function problemOf(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
}

/** The single sign-on commands of the admin CLI (docs/sso.md). */
export const ssoCommands = [
  defineCommand({
    name: 'sso add',
    synopsis:
      '--key KEY --name NAME --issuer URL --client-id ID\n[--client-secret-file FILE] [--scope S] [--subject-claim C]\n(--cobrand NAME | --company NUMBER)',
    summary:
      'register an OpenID Connect provider of a co-brand or a company; its\nissuer is discovered first; prints the URLs to register at the provider',
    options: {
      key: { type: 'string' },
      name: { type: 'string' },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret-file': { type: 'string' },
      scope: { type: 'string' },
      'subject-claim': { type: 'string' },
      cobrand: { type: 'string' },
      company: { type: 'string' },
    },
    async run({ db, io, config, secrets }, { values }) {
      // The secret comes from a file, never the command line (a process list would show it).
      const secretFile = values['client-secret-file'];
      const clientSecret = secretFile ? readFileSync(secretFile, 'utf8').trim() : undefined;
      const parsed = identityProviderInputSchema.safeParse({
        key: values.key,
        displayName: values.name,
        issuer: values.issuer,
        clientId: values['client-id'],
        clientSecret,
        scope: values.scope,
        subjectClaim: values['subject-claim'],
        cobrand: values.cobrand,
        companyNumber: values.company,
      });
      if (!parsed.success) throw new CliInputError(`sso add: ${problemOf(parsed.error)}`);
      const input = parsed.data;
      if (await findProvider(db, input.key))
        throw new CliInputError(`sso add: a provider with key ${input.key} exists`);
      const companyId = await ownerOf(db, 'sso add', input);
      const keys = await secrets();
      const row = {
        id: 0,
        key: input.key,
        displayName: input.displayName,
        issuer: input.issuer,
        clientId: input.clientId,
        clientSecretEnc: input.clientSecret
          ? sealText(keys.tokenKey, input.clientSecret, CLIENT_SECRET_AAD)
          : null,
        scope: input.scope,
        subjectClaim: input.subjectClaim,
        protocol: 'oidc',
        samlEntryPoint: null,
        samlCertificate: null,
        samlLogoutUrl: null,
        cobrand: input.cobrand ?? null,
        companyId,
        createdAt: new Date(),
        updatedAt: new Date(),
      };
      // Discovered before it is saved: a provider that cannot be reached or does not describe itself is no provider.
      const service = new SsoService(db, keys, config);
      try {
        await service.configuration(row);
      } catch (error) {
        throw new CliInputError(
          `sso add: the issuer ${input.issuer} could not be discovered (${(error as Error).message})`,
        );
      }
      const { id: _id, createdAt: _c, updatedAt: _u, ...values_ } = row;
      await db.insert(identityProviders).values(values_);
      await audit(db, 'sso.providerAdded', { detail: { provider: input.key, issuer: input.issuer } });
      const paths = ssoPaths(input.key);
      io.out(`added ${input.key}`);
      io.out(`sign-in URL:              ${service.absolute(paths.start)}`);
      io.out(`redirect URI:             ${service.absolute(paths.callback)}`);
      io.out(`post-logout redirect URI: ${service.absolute(paths.signedOut)}`);
      if (input.cobrand)
        io.out(`set the co-brand's fssoRedirectUrl to ${paths.start} to send its sign-in there`);
    },
  }),
  defineCommand({
    name: 'sso add-saml',
    synopsis:
      '--key KEY --name NAME --idp-entity-id ID --entry-point URL\n--certificate-file PEM [--logout-url URL] [--sp-entity-id ID]\n(--cobrand NAME | --company NUMBER)',
    summary:
      'register a SAML 2.0 identity provider of a co-brand or a company: its\nSSO URL (HTTP-Redirect binding) and signing certificate; prints what to\nregister at the IdP (our entity ID and assertion consumer service)',
    options: {
      key: { type: 'string' },
      name: { type: 'string' },
      'idp-entity-id': { type: 'string' },
      'entry-point': { type: 'string' },
      'certificate-file': { type: 'string' },
      'logout-url': { type: 'string' },
      'sp-entity-id': { type: 'string' },
      cobrand: { type: 'string' },
      company: { type: 'string' },
    },
    async run({ db, io, config, secrets }, { values }) {
      const certificateFile = values['certificate-file'];
      const certificate = certificateFile ? readFileSync(certificateFile, 'utf8').trim() : undefined;
      const parsed = samlProviderInputSchema.safeParse({
        key: values.key,
        displayName: values.name,
        idpEntityId: values['idp-entity-id'],
        entryPoint: values['entry-point'],
        certificate,
        logoutUrl: values['logout-url'],
        spEntityId: values['sp-entity-id'],
        cobrand: values.cobrand,
        companyNumber: values.company,
      });
      if (!parsed.success) throw new CliInputError(`sso add-saml: ${problemOf(parsed.error)}`);
      const input = parsed.data;
      // A certificate that does not parse, or no longer holds, signs nothing we could trust.
      try {
        const x509 = new X509Certificate(input.certificate);
        if (new Date(x509.validTo) < new Date()) throw new Error(`it expired on ${x509.validTo}`);
      } catch (error) {
        throw new CliInputError(`sso add-saml: --certificate-file: ${(error as Error).message}`);
      }
      if (await findProvider(db, input.key))
        throw new CliInputError(`sso add-saml: a provider with key ${input.key} exists`);
      const companyId = await ownerOf(db, 'sso add-saml', input);
      const service = new SsoService(db, await secrets(), config);
      const paths = ssoPaths(input.key);
      const spEntityId = input.spEntityId ?? service.absolute(paths.start);
      await db.insert(identityProviders).values({
        key: input.key,
        displayName: input.displayName,
        issuer: input.idpEntityId,
        clientId: spEntityId,
        clientSecretEnc: null,
        protocol: 'saml',
        samlEntryPoint: input.entryPoint,
        samlCertificate: input.certificate,
        samlLogoutUrl: input.logoutUrl ?? null,
        cobrand: input.cobrand ?? null,
        companyId,
      });
      await audit(db, 'sso.providerAdded', {
        detail: { provider: input.key, issuer: input.idpEntityId, protocol: 'saml' },
      });
      io.out(`added ${input.key} (SAML 2.0)`);
      io.out(`sign-in URL:                   ${service.absolute(paths.start)}`);
      io.out(`entity ID (audience):          ${spEntityId}`);
      io.out(`assertion consumer service:    ${service.absolute(paths.acs)} (HTTP-POST)`);
      if (input.cobrand)
        io.out(`set the co-brand's fssoRedirectUrl to ${paths.start} to send its sign-in there`);
    },
  }),
  defineCommand({
    name: 'sso list',
    summary: 'list the identity providers (never their secrets)',
    async run({ db, io }) {
      for (const p of await listProviders(db)) {
        const owner = p.cobrand ? `cobrand:${p.cobrand}` : `company-id:${p.companyId}`;
        io.out(`${p.key}\t${owner}\t${p.issuer}\t${p.clientId}\t${p.displayName}`);
      }
    },
  }),
  defineCommand({
    name: 'sso remove',
    synopsis: 'KEY',
    summary: 'remove a provider no user signs in through',
    positionals: ['KEY'],
    async run({ db, io }, { positionals: [key = ''] }) {
      const provider = await findProvider(db, key);
      if (!provider) throw new CliInputError(`sso remove: no provider ${key}`);
      const [linked] = await db
        .select({ n: count() })
        .from(users)
        .where(eq(users.federationProviderId, provider.id));
      if ((linked?.n ?? 0) > 0)
        throw new CliInputError(`sso remove: Cannot delete: ${linked?.n} user(s) sign in through ${key}`);
      await db.delete(identityProviders).where(eq(identityProviders.id, provider.id));
      await audit(db, 'sso.providerRemoved', { detail: { provider: key } });
      io.out(`removed ${key}`);
    },
  }),
  defineCommand({
    name: 'sso link',
    synopsis: '--user-id ID --provider KEY --subject SUBJECT',
    summary:
      'make a user an SSO user of a provider (its co-brand or company): the\nsubject the provider asserts signs them in; their portal password is void',
    options: { 'user-id': { type: 'string' }, provider: { type: 'string' }, subject: { type: 'string' } },
    async run({ db, io }, { values }) {
      const key = identityProviderKeySchema.safeParse(values.provider);
      const subject = federationSubjectSchema.safeParse(values.subject);
      if (!values['user-id'] || !key.success || !subject.success) {
        throw new CliInputError(
          'sso link needs --user-id, --provider (a key) and --subject (printable, ≤ 255)',
          true,
        );
      }
      const user = await findUserByUserId(db, values['user-id']);
      if (!user) throw new CliInputError(`sso link: no user ${values['user-id']}`);
      const provider = await findProvider(db, key.data);
      if (!provider) throw new CliInputError(`sso link: no provider ${key.data}`);
      if (provider.companyId !== null && !(await isFeatureOn(db, provider.companyId, 'singleSignOn')))
        throw new CliInputError(
          `sso link: single sign-on is off for ${provider.key}'s company (program option singleSignOn)`,
        );
      if (!providerOwns(provider, user))
        throw new CliInputError(
          `sso link: ${user.displayUserId} is not a user of ${provider.key}'s ${provider.companyId !== null ? 'company' : 'co-brand'}`,
        );
      // Seed 001: SSO cannot be combined with multi-user; two-factor users are not SSO users.
      const [member] = await db
        .select({ n: count() })
        .from(multiUserMembers)
        .where(eq(multiUserMembers.userPk, user.id));
      if ((member?.n ?? 0) > 0)
        throw new CliInputError(
          `sso link: ${user.displayUserId} is a multi-user; SSO cannot be combined with multi-user`,
        );
      if (user.loginType !== 'pwd')
        throw new CliInputError(
          `sso link: ${user.displayUserId} signs in with ${user.loginType}; only password users become SSO users`,
        );
      const [taken] = await db
        .select({ userId: users.displayUserId })
        .from(users)
        .where(
          sql`${users.federationProviderId} = ${provider.id} and ${users.federationSubject} = ${subject.data} and ${users.id} <> ${user.id}`,
        );
      if (taken)
        throw new CliInputError(
          `sso link: ${taken.userId} already has subject ${subject.data} at ${provider.key}`,
        );
      // "SSO users never hold a portal password": the one they had is replaced by one nobody knows.
      const voided = await hashSecret(randomId());
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({
            sso: true,
            federationProviderId: provider.id,
            federationSubject: subject.data,
            passwordHash: voided,
            updatedAt: sql`now()`,
          })
          .where(eq(users.id, user.id));
        await endSessionsOf(tx, user.id);
        await audit(tx, 'sso.userLinked', { userPk: user.id, detail: { provider: provider.key } });
      });
      io.out(`${user.displayUserId} signs in through ${provider.key}`);
    },
  }),
  defineCommand({
    name: 'sso unlink',
    synopsis: '--user-id ID',
    summary:
      'end the single sign-on of a user: they sign in with the portal again, with\na first password that goes out by mail (changed at their first sign-in)',
    options: { 'user-id': { type: 'string' } },
    async run({ db, io, texts, config }, { values }) {
      if (!values['user-id']) throw new CliInputError('sso unlink needs --user-id', true);
      const user = await findUserByUserId(db, values['user-id']);
      if (!user) throw new CliInputError(`sso unlink: no user ${values['user-id']}`);
      if (!user.sso) throw new CliInputError(`sso unlink: ${user.displayUserId} is no SSO user`);
      const policy = await passwordPolicyOf(db, user);
      const password = generatedPassword(user.displayUserId, policy.passwordMinLength);
      const passwordHash = await hashSecret(password);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({
            sso: false,
            federationProviderId: null,
            federationSubject: null,
            passwordHash,
            passwordTemporary: false,
            firstLogin: true,
            passwordChangedAt: sql`now()`,
            failedAttempts: 0,
            updatedAt: sql`now()`,
          })
          .where(eq(users.id, user.id));
        await endSessionsOf(tx, user.id);
        // The first password goes by mail in the same transaction, as for a new user (never printed).
        await enqueueFirstPassword(mailTexts(db, texts), config.publicUrl, user, password, tx);
        await audit(tx, 'sso.userUnlinked', { userPk: user.id, detail: { by: 'cli' } });
      });
      io.out(
        `${user.displayUserId} signs in with a portal password again: a first password is in the outbox`,
      );
    },
  }),
];
