import { randomInt } from 'node:crypto';
import {
  type CompanyApplicationBody,
  type CompanyApprovalBody,
  type CompanyDeclineBody,
  type CompanyInvitationBody,
  type CompanyRegistration,
  type CompanyRegistrationList,
  type CompanyRegistrationStatus,
  checkCompanyName,
  checkDeclineReason,
  checkRegistrationCode,
  companyApplicationProblems,
  companyNameKey,
  companySchema,
  DEFAULT_COBRAND,
  LIMITS,
  type Locale,
  may,
  resolveLocale,
  SELF_REGISTRATION_MAX_ATTEMPTS,
  toFieldErrors,
} from '@cardportal/domain';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import { companyRegistrations, issuers, users } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { audit, auditAdmin } from '../../kernel/audit.ts';
import { enqueueMail } from '../../kernel/outbox.ts';
import { type Keyset, keysetPage } from '../../kernel/paging.ts';
import { generatedPassword } from '../../security/generated-password.ts';
import { hashSecret } from '../../security/hashing.ts';
import { findIssuerInScope, isIssuerFeatureOn, passwordPolicyOf } from '../issuers/index.ts';
import { composeMail, enqueueFirstPassword } from '../mail/index.ts';
import { addCompany } from '../organisations/index.ts';
import { insertUser, userIdTaken } from '../users/index.ts';

/**
 * Company self-registration (issue 18 item 1, docs/self-registration.md "Company self-registration").
 * The issuer's side (invite, list, approve, decline, unlock, withdraw) and the portal's application.
 *
 * The application's proof is the invitation's code and the company's name as the bank knows it. Every
 * failure answers the same `422 registration.notVerified` (an unknown code, a wrong name, a locked, used
 * or withdrawn invitation, an issuer that no longer offers self-registration), so nothing tells a code
 * that exists from one that does not; a wrong name for a code counts against it and the
 * SELF_REGISTRATION_MAX_ATTEMPTS-th locks it until the issuer's administrator unlocks it.
 */

type Row = typeof companyRegistrations.$inferSelect;
const inviter = alias(users, 'inviter');
const decider = alias(users, 'decider');
const NOT_VERIFIED = () => new AppError('unprocessable', 'registration.notVerified');

/** Eight random digits (10^8 codes): what the issuer hands the company when it names none. */
const drawCode = () => String(randomInt(10_000_000, 100_000_000));

export class CompanyRegistrationService {
  constructor(
    private readonly db: Db,
    private readonly app: FastifyInstance,
  ) {}

  // ------------------------------------------------------------------------------------------------
  // The portal: a company applies.

  async apply(body: CompanyApplicationBody, ip: string): Promise<void> {
    const fieldErrors = companyApplicationProblems(body);
    if (Object.keys(fieldErrors).length > 0)
      throw new AppError('invalid', 'form.invalid', { fieldErrors: fieldErrors as Record<string, string> });
    // Only where the co-brand offers it (portal spec §2: the link shows only then); public facts.
    const offered = body.cobrandName ? await this.app.cobrands.get(body.cobrandName) : undefined;
    if (!offered?.cobrand.companySelfRegisterSupported)
      throw new AppError('forbidden', 'registration.notOffered', {
        message: 'Company registration is not offered here',
      });
    const code = body.code.trim();
    const userId = body.userId.trim();
    const locale = resolveLocale(body.locale);
    const outcome = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(companyRegistrations)
        .where(eq(companyRegistrations.code, code))
        .for('update')
        .limit(1);
      if (!row) return NOT_VERIFIED();
      const facts = { registration: row.id };
      const refused = async (reason: string) => {
        await audit(tx, 'companyRegistration.refused', { ip, detail: { ...facts, reason } });
        return NOT_VERIFIED();
      };
      if (row.lockedAt) return refused('locked');
      if (companyNameKey(body.companyName) !== companyNameKey(row.companyName)) {
        const failures = row.failures + 1;
        const locks = failures >= SELF_REGISTRATION_MAX_ATTEMPTS;
        await tx
          .update(companyRegistrations)
          .set({ failures, ...(locks ? { lockedAt: sql`now()` } : {}), updatedAt: sql`now()` })
          .where(eq(companyRegistrations.id, row.id));
        await audit(tx, locks ? 'companyRegistration.locked' : 'companyRegistration.failed', {
          ip,
          detail: { ...facts, failures },
        });
        return NOT_VERIFIED();
      }
      if (row.status !== 'Invited') return refused('used');
      if (!(await isIssuerFeatureOn(tx, row.issuerId, 'selfRegistration'))) return refused('option-off');
      if (await userIdTaken(tx, userId))
        return new AppError('conflict', 'userId.exists', { fieldErrors: { userId: 'userId.exists' } });
      const email = body.email.trim();
      await tx
        .update(companyRegistrations)
        .set({
          status: 'Applied',
          failures: 0,
          companyName2: body.companyName2.trim(),
          adminFirstName: body.firstName.trim(),
          adminLastName: body.lastName.trim(),
          adminUserId: userId,
          adminEmail: email,
          adminLocale: locale,
          appliedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(companyRegistrations.id, row.id));
      const cobrand = await this.cobrandOf(tx, row.issuerId);
      await enqueueMail(
        tx,
        await composeMail(
          this.app,
          'company-registration-received',
          { email, firstName: body.firstName.trim(), lastName: body.lastName.trim(), displayUserId: userId },
          { cobrand, locale },
          [row.companyName],
          tx,
        ),
      );
      await audit(tx, 'companyRegistration.applied', { ip, detail: { ...facts, userId } });
      return undefined;
    });
    if (outcome) throw outcome;
    this.app.mailWorker.kick();
  }

  // ------------------------------------------------------------------------------------------------
  // The issuer's administrators.

  private async issuer(db: Executor, caller: Caller, number: string) {
    const found = /^\d{1,10}$/.test(number) ? await findIssuerInScope(db, caller, number) : undefined;
    if (!found)
      throw new AppError('notFound', 'issuer.notFound', { message: `No issuer ${number.slice(0, 20)}` });
    return found;
  }

  private async cobrandOf(db: Executor, issuerId: number): Promise<string> {
    const [row] = await db.select({ cobrand: issuers.cobrand }).from(issuers).where(eq(issuers.id, issuerId));
    return row?.cobrand ?? DEFAULT_COBRAND;
  }

  private select(db: Executor) {
    return db
      .select({
        row: companyRegistrations,
        invitedBy: inviter.displayUserId,
        decidedBy: decider.displayUserId,
        companyNumber: sql<
          string | null
        >`(select number from companies where id = ${companyRegistrations.companyId})`,
      })
      .from(companyRegistrations)
      .leftJoin(inviter, eq(inviter.id, companyRegistrations.invitedBy))
      .leftJoin(decider, eq(decider.id, companyRegistrations.decidedBy))
      .$dynamic();
  }

  private toApi(found: {
    row: Row;
    invitedBy: string | null;
    decidedBy: string | null;
    companyNumber: string | null;
  }): CompanyRegistration {
    const { row } = found;
    return {
      id: row.id,
      status: row.status as CompanyRegistrationStatus,
      code: row.code,
      companyName: row.companyName,
      invitedAt: row.invitedAt.toISOString(),
      invitedBy: found.invitedBy,
      locked: row.lockedAt !== null,
      application: row.appliedAt
        ? {
            companyName2: row.companyName2 ?? '',
            firstName: row.adminFirstName ?? '',
            lastName: row.adminLastName ?? '',
            userId: row.adminUserId ?? '',
            email: row.adminEmail ?? '',
            locale: resolveLocale(row.adminLocale ?? undefined) as Locale,
            appliedAt: row.appliedAt.toISOString(),
          }
        : null,
      decision: row.decidedAt
        ? {
            by: found.decidedBy,
            at: row.decidedAt.toISOString(),
            reason: row.declineReason,
            companyNumber: found.companyNumber,
          }
        : null,
    };
  }

  private async one(db: Executor, issuerId: number, idText: string, lock = false) {
    const id = /^\d{1,9}$/.test(idText) ? Number(idText) : undefined;
    const query = this.select(db).where(
      and(eq(companyRegistrations.id, id ?? 0), eq(companyRegistrations.issuerId, issuerId)),
    );
    const [found] =
      id === undefined ? [] : lock ? await query.for('update', { of: companyRegistrations }) : await query;
    if (!found)
      throw new AppError('notFound', 'companyRegistration.notFound', {
        message: 'No such company registration',
      });
    return found;
  }

  async list(
    caller: Caller,
    number: string,
    query: {
      status?: CompanyRegistrationStatus | undefined;
      after?: string | undefined;
      before?: string | undefined;
    },
  ): Promise<CompanyRegistrationList> {
    const issuer = await this.issuer(this.db, caller, number);
    const keyset: Keyset<{ row: Row }> = {
      list: 'companyRegistrations',
      keys: [{ expr: companyRegistrations.id, type: 'int' }],
      direction: 'desc',
      keyOf: (found) => [found.row.id],
    };
    const where = and(
      eq(companyRegistrations.issuerId, issuer.id),
      query.status ? eq(companyRegistrations.status, query.status) : undefined,
    );
    const page = await keysetPage(
      keyset,
      { after: query.after, before: query.before, limit: LIMITS.searchPageSize },
      (beyond) => this.select(this.db).where(and(where, beyond)),
    );
    return {
      ...page,
      rows: page.rows.map((r) => this.toApi(r)),
      canModify: may(caller, 'maintainCompanyRegistrations'),
      enabled: await isIssuerFeatureOn(this.db, issuer.id, 'selfRegistration'),
    };
  }

  async get(caller: Caller, number: string, id: string): Promise<CompanyRegistration> {
    const issuer = await this.issuer(this.db, caller, number);
    return this.toApi(await this.one(this.db, issuer.id, id));
  }

  async invite(caller: Caller, number: string, body: CompanyInvitationBody, ip: string) {
    const errors: Record<string, string> = {};
    const nameProblem = checkCompanyName(body.companyName);
    if (nameProblem) errors.companyName = nameProblem;
    const given = body.code?.trim() ? body.code.trim() : null;
    if (given !== null) {
      const codeProblem = checkRegistrationCode(given);
      if (codeProblem) errors.code = codeProblem;
    }
    if (Object.keys(errors).length > 0)
      throw new AppError('invalid', 'form.invalid', { fieldErrors: errors });
    const id = await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      if (!(await isIssuerFeatureOn(tx, issuer.id, 'selfRegistration')))
        throw new AppError('conflict', 'companyRegistration.optionOff');
      let inserted: { id: number } | undefined;
      for (let attempt = 0; attempt < 5 && !inserted; attempt++) {
        [inserted] = await tx
          .insert(companyRegistrations)
          .values({
            issuerId: issuer.id,
            code: given ?? drawCode(),
            companyName: body.companyName.trim(),
            invitedBy: caller.accessedBy?.pk ?? caller.userPk,
          })
          .onConflictDoNothing({ target: companyRegistrations.code })
          .returning({ id: companyRegistrations.id });
        if (!inserted && given !== null)
          throw new AppError('conflict', 'registrationCode.taken', {
            fieldErrors: { code: 'registrationCode.taken' },
          });
      }
      if (!inserted) throw new Error('no free company registration code after 5 draws');
      await auditAdmin(tx, 'companyRegistration.invited', {
        actor: caller,
        entity: 'companyRegistration',
        entityId: String(inserted.id),
        detail: { issuer: issuer.number, companyName: body.companyName.trim() },
        ip,
      });
      return inserted.id;
    });
    return this.get(caller, number, String(id));
  }

  async approve(caller: Caller, number: string, idText: string, body: CompanyApprovalBody, ip: string) {
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const { row } = await this.one(tx, issuer.id, idText, true);
      if (row.status !== 'Applied')
        throw new AppError('conflict', 'companyRegistration.notApplied', { message: 'Nothing to decide' });
      const parsed = companySchema.safeParse({
        number: body.companyNumber,
        name1: row.companyName,
        name2: row.companyName2 ?? '',
        groupName: body.groupName ?? '',
      });
      if (!parsed.success) {
        const fields = toFieldErrors(parsed.error);
        throw new AppError('invalid', 'form.invalid', {
          fieldErrors: Object.fromEntries(
            Object.entries(fields).map(([f, key]) => [f === 'number' ? 'companyNumber' : f, key]),
          ),
        });
      }
      const userId = row.adminUserId ?? '';
      if (await userIdTaken(tx, userId))
        throw new AppError('conflict', 'userId.exists', { fieldErrors: { userId: 'userId.exists' } });
      let company: Awaited<ReturnType<typeof addCompany>>;
      try {
        company = await addCompany(tx, caller, { issuerId: issuer.id, ...parsed.data, multiUser: false }, ip);
      } catch (error) {
        if (error instanceof AppError && error.code === 'company.number.duplicate')
          throw new AppError('conflict', error.code, { fieldErrors: { companyNumber: error.code } });
        throw error;
      }
      const scope = {
        issuerGroupId: null,
        issuerId: null,
        companyGroupId: null,
        companyId: company.id,
        orgPointId: null,
        accountGroupId: null,
        cardholderId: null,
      };
      const policy = await passwordPolicyOf(tx, scope);
      const password = generatedPassword(userId, policy.passwordMinLength);
      const admin = await insertUser(tx, {
        displayUserId: userId,
        email: row.adminEmail ?? '',
        firstName: row.adminFirstName ?? '',
        lastName: row.adminLastName ?? '',
        userType: 'C',
        cobrand: issuer.cobrand ?? DEFAULT_COBRAND,
        locale: resolveLocale(row.adminLocale ?? undefined),
        passwordHash: await hashSecret(password),
        ...scope,
      });
      await tx
        .update(companyRegistrations)
        .set({
          status: 'Approved',
          companyId: company.id,
          decidedBy: caller.accessedBy?.pk ?? caller.userPk,
          decidedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(companyRegistrations.id, row.id));
      await enqueueFirstPassword(this.app, this.app.config.publicUrl, admin, password, tx);
      await auditAdmin(tx, 'user.created', {
        actor: caller,
        entity: 'user',
        entityId: admin.displayUserId,
        subjectPk: admin.id,
        detail: { via: 'companyRegistration', registration: row.id },
        ip,
      });
      await auditAdmin(tx, 'companyRegistration.approved', {
        actor: caller,
        entity: 'companyRegistration',
        entityId: String(row.id),
        detail: { company: company.number, userId: admin.displayUserId },
        ip,
      });
    });
    this.app.mailWorker.kick();
    return this.get(caller, number, idText);
  }

  async decline(caller: Caller, number: string, idText: string, body: CompanyDeclineBody, ip: string) {
    const problem = checkDeclineReason(body.reason);
    if (problem) throw new AppError('invalid', 'form.invalid', { fieldErrors: { reason: problem } });
    const reason = body.reason.trim();
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const { row } = await this.one(tx, issuer.id, idText, true);
      if (row.status !== 'Applied')
        throw new AppError('conflict', 'companyRegistration.notApplied', { message: 'Nothing to decide' });
      await tx
        .update(companyRegistrations)
        .set({
          status: 'Declined',
          declineReason: reason,
          decidedBy: caller.accessedBy?.pk ?? caller.userPk,
          decidedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(companyRegistrations.id, row.id));
      await enqueueMail(
        tx,
        await composeMail(
          this.app,
          'company-registration-declined',
          {
            email: row.adminEmail ?? '',
            firstName: row.adminFirstName ?? '',
            lastName: row.adminLastName ?? '',
            displayUserId: row.adminUserId ?? '',
          },
          { cobrand: issuer.cobrand ?? DEFAULT_COBRAND, locale: resolveLocale(row.adminLocale ?? undefined) },
          [row.companyName, reason],
          tx,
        ),
      );
      await auditAdmin(tx, 'companyRegistration.declined', {
        actor: caller,
        entity: 'companyRegistration',
        entityId: String(row.id),
        detail: { reason },
        ip,
      });
    });
    this.app.mailWorker.kick();
    return this.get(caller, number, idText);
  }

  async unlock(caller: Caller, number: string, idText: string, ip: string) {
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const { row } = await this.one(tx, issuer.id, idText, true);
      if (!row.lockedAt) throw new AppError('conflict', 'registration.notLocked', { message: 'Not locked' });
      await tx
        .update(companyRegistrations)
        .set({ lockedAt: null, failures: 0, updatedAt: sql`now()` })
        .where(eq(companyRegistrations.id, row.id));
      await auditAdmin(tx, 'companyRegistration.unlocked', {
        actor: caller,
        entity: 'companyRegistration',
        entityId: String(row.id),
        ip,
      });
    });
    return this.get(caller, number, idText);
  }

  /** Withdraws an invitation nobody has used yet (its code then proves nothing). */
  async withdraw(caller: Caller, number: string, idText: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const { row } = await this.one(tx, issuer.id, idText, true);
      if (row.status !== 'Invited')
        throw new AppError('conflict', 'companyRegistration.notInvited', { message: 'Already applied' });
      await tx.delete(companyRegistrations).where(eq(companyRegistrations.id, row.id));
      await auditAdmin(tx, 'companyRegistration.withdrawn', {
        actor: caller,
        entity: 'companyRegistration',
        entityId: String(row.id),
        detail: { companyName: row.companyName },
        ip,
      });
    });
  }
}
