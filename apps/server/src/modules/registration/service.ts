import { timingSafeEqual } from 'node:crypto';
import {
  type CardholderRegistrationBody,
  cardholderRegistrationProblems,
  checkRegistrationCode,
  DEFAULT_COBRAND,
  isCardExpiryCurrent,
  maskCardParts,
  normaliseCardExpiry,
  resolveLocale,
  SELF_REGISTRATION_MAX_ATTEMPTS,
  type SelfRegistrationSettings,
} from '@cardportal/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import { accounts, cardholders, companies, issuers, users } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { audit, auditAdmin } from '../../kernel/audit.ts';
import { generatedPassword } from '../../security/generated-password.ts';
import { hashSecret } from '../../security/hashing.ts';
import { companyInScope, idOf, lockCompany } from '../accounts/index.ts';
import { isFeatureOn, passwordPolicyOf } from '../issuers/index.ts';
import { enqueueFirstPassword } from '../mail/index.ts';
import { insertUser, userIdTaken } from '../users/index.ts';

/**
 * Cardholder self-registration (issue 18 item 2, docs/self-registration.md) and the company's side of
 * it: its corporate code, and unlocking a card whose registration locked.
 *
 * The proof is the card's number (found by its keyed hash, never by the number), the company's corporate
 * code and the card's expiry. Every failure of the proof answers the same `422 registration.notVerified`
 * — an unknown card, a wrong code or expiry, a locked, closed or expired card, an inactive cardholder or
 * company, a company without the program option — so no answer tells what exists. A wrong code or expiry
 * for a card we know counts against that card; the SELF_REGISTRATION_MAX_ATTEMPTS-th locks its
 * registration until an administrator unlocks it (seed 001 §4). Only after the proof do answers name a
 * taken user ID or a cardholder who already has one.
 */

/** What the proof found, decided inside the transaction and answered after it commits. */
type Outcome =
  | { kind: 'registered'; userPk: number }
  | { kind: 'refused'; code: 'registration.notVerified' }
  | { kind: 'conflict'; code: 'registration.alreadyRegistered' | 'userId.exists' };

const NOT_VERIFIED = { kind: 'refused', code: 'registration.notVerified' } as const;

/** Equal text in time independent of where it differs (a code or expiry is compared this way). */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export class RegistrationService {
  constructor(
    private readonly db: Db,
    private readonly app: FastifyInstance,
  ) {}

  async registerCardholder(body: CardholderRegistrationBody, ip: string): Promise<void> {
    const fieldErrors = cardholderRegistrationProblems(body);
    if (Object.keys(fieldErrors).length > 0)
      throw new AppError('invalid', 'form.invalid', { fieldErrors: fieldErrors as Record<string, string> });
    const vault = this.app.secrets.cards;
    const hash = vault.hashOf(body.cardNumber);
    const code = body.companyCode.trim();
    const expiry = normaliseCardExpiry(body.expiry) as string;
    const userId = body.userId.trim();
    const email = body.email.trim();
    const locale = resolveLocale(body.locale);

    const outcome = await this.db.transaction(async (tx): Promise<Outcome> => {
      const [found] = await tx
        .select({
          account: accounts,
          cardholder: cardholders,
          company: {
            id: companies.id,
            number: companies.number,
            active: companies.active,
            registrationCode: companies.registrationCode,
          },
          issuer: { id: issuers.id, active: issuers.active, cobrand: issuers.cobrand },
        })
        .from(accounts)
        .innerJoin(cardholders, eq(cardholders.id, accounts.cardholderId))
        .innerJoin(companies, eq(companies.id, accounts.companyId))
        .innerJoin(issuers, eq(issuers.id, companies.issuerId))
        .where(eq(accounts.numberHash, hash))
        .for('update', { of: accounts })
        .limit(1);
      // An unknown card, or a company's card without a cardholder: nothing to count against.
      if (!found) return NOT_VERIFIED;
      const { account, cardholder, company, issuer } = found;
      const masked = maskCardParts({
        bin: account.bin ?? '',
        last4: account.last4,
        length: account.numberLength ?? 16,
      });
      const facts = { account: masked, company: company.number };
      if (account.registrationLockedAt) {
        await audit(tx, 'registration.refused', { ip, detail: { ...facts, reason: 'locked' } });
        return NOT_VERIFIED;
      }
      const proven =
        company.registrationCode !== null &&
        sameText(code, company.registrationCode) &&
        account.expiry !== null &&
        sameText(expiry, account.expiry);
      if (!proven) {
        const failures = account.registrationFailures + 1;
        const locks = failures >= SELF_REGISTRATION_MAX_ATTEMPTS;
        await tx
          .update(accounts)
          .set({
            registrationFailures: failures,
            ...(locks ? { registrationLockedAt: sql`now()` } : {}),
          })
          .where(eq(accounts.id, account.id));
        await audit(tx, locks ? 'registration.locked' : 'registration.failed', {
          ip,
          detail: { ...facts, failures },
        });
        return NOT_VERIFIED;
      }
      const reason =
        account.status !== 'Active'
          ? 'account'
          : !isCardExpiryCurrent(account.expiry as string, new Date())
            ? 'expired'
            : !cardholder.active || !company.active || !issuer.active
              ? 'inactive'
              : !(await isFeatureOn(tx, company.id, 'selfRegistration'))
                ? 'option-off'
                : undefined;
      if (reason) {
        await audit(tx, 'registration.refused', { ip, detail: { ...facts, reason } });
        return NOT_VERIFIED;
      }
      const [holderUser] = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.cardholderId, cardholder.id))
        .limit(1);
      if (holderUser) return { kind: 'conflict', code: 'registration.alreadyRegistered' };
      if (await userIdTaken(tx, userId)) return { kind: 'conflict', code: 'userId.exists' };

      // A cardholder user's placement (USER_TYPE_INFO.A): its company, org point and cardholder.
      const placement = {
        issuerGroupId: null,
        issuerId: null,
        companyGroupId: null,
        companyId: company.id,
        orgPointId: cardholder.orgPointId,
        accountGroupId: null,
        cardholderId: cardholder.id,
      };
      const policy = await passwordPolicyOf(tx, placement);
      const password = generatedPassword(userId, policy.passwordMinLength);
      const row = await insertUser(tx, {
        displayUserId: userId,
        email,
        firstName: cardholder.name1,
        lastName: cardholder.name2,
        userType: 'A',
        // The issuer's co-brand, never a name from the form.
        cobrand: issuer.cobrand ?? DEFAULT_COBRAND,
        locale,
        passwordHash: await hashSecret(password),
        ...placement,
      });
      await tx
        .update(accounts)
        .set({ registrationFailures: 0 })
        .where(and(eq(accounts.id, account.id), ne(accounts.registrationFailures, 0)));
      await enqueueFirstPassword(this.app, this.app.config.publicUrl, row, password, tx);
      await audit(tx, 'registration.cardholderRegistered', {
        userPk: row.id,
        ip,
        detail: { ...facts, userId: row.displayUserId },
      });
      return { kind: 'registered', userPk: row.id };
    });
    if (outcome.kind === 'registered') {
      this.app.mailWorker.kick();
      return;
    }
    if (outcome.kind === 'refused') throw new AppError('unprocessable', outcome.code);
    throw new AppError(
      'conflict',
      outcome.code,
      outcome.code === 'userId.exists' ? { fieldErrors: { userId: 'userId.exists' } } : {},
    );
  }

  // ------------------------------------------------------------------------------------------------
  // The company's side (application routes).

  async settings(caller: Caller, number: string, db: Executor = this.db): Promise<SelfRegistrationSettings> {
    const company = await companyInScope(db, caller, number);
    const [row] = await db
      .select({ code: companies.registrationCode })
      .from(companies)
      .where(eq(companies.id, company.id));
    const [locked] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(accounts)
      .where(and(eq(accounts.companyId, company.id), sql`${accounts.registrationLockedAt} is not null`));
    return {
      enabled: await isFeatureOn(db, company.id, 'selfRegistration'),
      code: row?.code ?? null,
      lockedCards: locked?.count ?? 0,
    };
  }

  async setCode(
    caller: Caller,
    number: string,
    raw: string | null,
    ip: string,
  ): Promise<SelfRegistrationSettings> {
    const code = raw === null || raw.trim() === '' ? null : raw.trim();
    if (code !== null) {
      const problem = checkRegistrationCode(code);
      if (problem) throw new AppError('invalid', 'form.invalid', { fieldErrors: { code: problem } });
    }
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const [before] = await tx
        .select({ code: companies.registrationCode })
        .from(companies)
        .where(eq(companies.id, company.id));
      if ((before?.code ?? null) !== code) {
        if (code !== null) {
          const [taken] = await tx
            .select({ id: companies.id })
            .from(companies)
            .where(and(eq(companies.registrationCode, code), ne(companies.id, company.id)))
            .limit(1);
          if (taken)
            throw new AppError('conflict', 'registrationCode.taken', {
              fieldErrors: { code: 'registrationCode.taken' },
            });
        }
        await tx
          .update(companies)
          .set({ registrationCode: code, updatedAt: sql`now()` })
          .where(eq(companies.id, company.id));
        await auditAdmin(tx, 'company.registrationCodeChanged', {
          actor: caller,
          entity: 'company',
          entityId: company.number,
          // What happened to the code, never the code: with a card's expiry it proves the card.
          detail: { change: code === null ? 'removed' : before?.code ? 'changed' : 'set' },
          ip,
        });
      }
      return this.settings(caller, number, tx);
    });
  }

  /** Unlocks a card's self-registration (seed 001 §4: only an administrator does). */
  async unlockCard(caller: Caller, number: string, idText: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      const id = idOf(idText);
      const [account] =
        id === undefined
          ? []
          : await tx
              .select()
              .from(accounts)
              .where(and(eq(accounts.id, id), eq(accounts.companyId, company.id)))
              .for('update');
      if (!account)
        throw new AppError('notFound', 'account.notFound', { message: `No account ${idText.slice(0, 20)}` });
      if (!account.registrationLockedAt)
        throw new AppError('conflict', 'registration.notLocked', {
          message: 'Self-registration is not locked',
        });
      await tx
        .update(accounts)
        .set({ registrationFailures: 0, registrationLockedAt: null })
        .where(eq(accounts.id, account.id));
      const masked = maskCardParts({
        bin: account.bin ?? '',
        last4: account.last4,
        length: account.numberLength ?? 16,
      });
      await auditAdmin(tx, 'registration.unlocked', {
        actor: caller,
        entity: 'account',
        entityId: masked,
        detail: { company: company.number, accountId: account.id },
        ip,
      });
    });
  }
}
