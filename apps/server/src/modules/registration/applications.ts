import {
  type CardApplication,
  type CardApplicationApprovalBody,
  type CardApplicationBody,
  type CardApplicationList,
  type CardApplicationStatus,
  type CompanyDeclineBody,
  cardApplicationProblems,
  checkCardExpiry,
  checkDeclineReason,
  DEFAULT_COBRAND,
  LIMITS,
  type Locale,
  maskCardParts,
  may,
  portalUrl,
  resolveLocale,
} from '@cardportal/domain';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import { accounts, cardApplications, cardholders, companies, issuers, users } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { audit, auditAdmin } from '../../kernel/audit.ts';
import { enqueueMail } from '../../kernel/outbox.ts';
import { type Keyset, keysetPage } from '../../kernel/paging.ts';
import { companyInScope, findGroup, findOrgPoint, issueAccount, lockCompany } from '../accounts/index.ts';
import { composeMail, type MailKind } from '../mail/index.ts';

/**
 * New card account applications (issue 18 item 3, docs/self-registration.md "Card account
 * applications"). The portal's form names the company by its self-registration code; an unknown code
 * answers `422 application.notVerified` like any code that does not lead to an active company, so the
 * form tells nothing about which codes exist. The application creates nothing but itself: the company's
 * administrators approve it with the card the bank issued (the cardholder and the account then exist,
 * by the accounts module's rule) or decline it; the applicant is told by mail each time.
 */

type Row = typeof cardApplications.$inferSelect;
const decider = alias(users, 'decider');

export class CardApplicationService {
  constructor(
    private readonly db: Db,
    private readonly app: FastifyInstance,
  ) {}

  private async mail(
    tx: Executor,
    kind: MailKind,
    row: Pick<Row, 'email' | 'firstName' | 'lastName' | 'locale'>,
    cobrand: string,
    args: string[],
  ) {
    await enqueueMail(
      tx,
      await composeMail(
        this.app,
        kind,
        { email: row.email, firstName: row.firstName, lastName: row.lastName, displayUserId: row.email },
        { cobrand, locale: row.locale },
        args,
        tx,
      ),
    );
  }

  async apply(body: CardApplicationBody, ip: string): Promise<void> {
    const offered = body.cobrandName ? await this.app.cobrands.get(body.cobrandName) : undefined;
    if (!offered?.cobrand.prospectiveAccountApplicationSupported)
      throw new AppError('forbidden', 'application.notOffered', {
        message: 'Card account applications are not offered here',
      });
    const fieldErrors = cardApplicationProblems(body);
    if (Object.keys(fieldErrors).length > 0)
      throw new AppError('invalid', 'form.invalid', { fieldErrors: fieldErrors as Record<string, string> });
    const code = body.companyCode.trim();
    const email = body.email.trim();
    const refused = await this.db.transaction(async (tx) => {
      const [company] = await tx
        .select({
          id: companies.id,
          number: companies.number,
          name1: companies.name1,
          active: companies.active,
          issuerActive: issuers.active,
          cobrand: issuers.cobrand,
        })
        .from(companies)
        .innerJoin(issuers, eq(issuers.id, companies.issuerId))
        .where(eq(companies.registrationCode, code))
        .limit(1);
      if (!company || !company.active || !company.issuerActive) {
        if (company) await audit(tx, 'cardApplication.refused', { ip, detail: { company: company.number } });
        return true;
      }
      // The company's lock: one pending application per address at a time.
      await lockCompany(tx, company.id);
      const [pending] = await tx
        .select({ id: cardApplications.id })
        .from(cardApplications)
        .where(
          and(
            eq(cardApplications.companyId, company.id),
            eq(cardApplications.status, 'Pending'),
            sql`lower(${cardApplications.email}) = lower(${email})`,
          ),
        )
        .limit(1);
      if (pending)
        throw new AppError('conflict', 'application.pending', { message: 'An application is pending' });
      const values = {
        companyId: company.id,
        firstName: body.firstName.trim(),
        lastName: body.lastName.trim(),
        email,
        locale: resolveLocale(body.locale),
        reason: body.reason.trim(),
      };
      const [row] = await tx.insert(cardApplications).values(values).returning({ id: cardApplications.id });
      await this.mail(tx, 'card-application-received', values, company.cobrand ?? DEFAULT_COBRAND, [
        company.name1,
      ]);
      await audit(tx, 'cardApplication.applied', {
        ip,
        detail: { company: company.number, application: row?.id },
      });
      return false;
    });
    if (refused) throw new AppError('unprocessable', 'application.notVerified');
    this.app.mailWorker.kick();
  }

  // ------------------------------------------------------------------------------------------------
  // The company's administrators.

  private select(db: Executor) {
    return db
      .select({
        row: cardApplications,
        decidedBy: decider.displayUserId,
        account: { id: accounts.id, bin: accounts.bin, last4: accounts.last4, length: accounts.numberLength },
      })
      .from(cardApplications)
      .leftJoin(decider, eq(decider.id, cardApplications.decidedBy))
      .leftJoin(accounts, eq(accounts.id, cardApplications.accountId))
      .$dynamic();
  }

  private toApi(found: Awaited<ReturnType<CardApplicationService['one']>>): CardApplication {
    const { row, account } = found;
    return {
      id: row.id,
      status: row.status as CardApplicationStatus,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      locale: resolveLocale(row.locale) as Locale,
      reason: row.reason,
      appliedAt: row.appliedAt.toISOString(),
      decision: row.decidedAt
        ? {
            by: found.decidedBy,
            at: row.decidedAt.toISOString(),
            reason: row.declineReason,
            account:
              account?.id != null
                ? {
                    id: account.id,
                    maskedNumber: maskCardParts({
                      bin: account.bin ?? '',
                      last4: account.last4 ?? '',
                      length: account.length ?? 16,
                    }),
                  }
                : null,
            cardholderId: row.cardholderId,
          }
        : null,
    };
  }

  private async one(db: Executor, companyId: number, idText: string, lock = false) {
    const id = /^\d{1,9}$/.test(idText) ? Number(idText) : undefined;
    const query = this.select(db).where(
      and(eq(cardApplications.id, id ?? 0), eq(cardApplications.companyId, companyId)),
    );
    const [found] =
      id === undefined ? [] : lock ? await query.for('update', { of: cardApplications }) : await query;
    if (!found)
      throw new AppError('notFound', 'cardApplication.notFound', { message: 'No such card application' });
    return found;
  }

  async list(
    caller: Caller,
    number: string,
    query: {
      status?: CardApplicationStatus | undefined;
      after?: string | undefined;
      before?: string | undefined;
    },
  ): Promise<CardApplicationList> {
    const company = await companyInScope(this.db, caller, number);
    const keyset: Keyset<{ row: Row }> = {
      list: 'cardApplications',
      keys: [{ expr: cardApplications.id, type: 'int' }],
      direction: 'desc',
      keyOf: (found) => [found.row.id],
    };
    const where = and(
      eq(cardApplications.companyId, company.id),
      query.status ? eq(cardApplications.status, query.status) : undefined,
    );
    const page = await keysetPage(
      keyset,
      { after: query.after, before: query.before, limit: LIMITS.searchPageSize },
      (beyond) => this.select(this.db).where(and(where, beyond)),
    );
    return {
      ...page,
      rows: page.rows.map((r) => this.toApi(r)),
      canModify: may(caller, 'maintainCardApplications'),
    };
  }

  async get(caller: Caller, number: string, id: string): Promise<CardApplication> {
    const company = await companyInScope(this.db, caller, number);
    return this.toApi(await this.one(this.db, company.id, id));
  }

  private async cobrandOf(db: Executor, companyId: number): Promise<{ cobrand: string; name1: string }> {
    const [row] = await db
      .select({ cobrand: issuers.cobrand, name1: companies.name1 })
      .from(companies)
      .innerJoin(issuers, eq(issuers.id, companies.issuerId))
      .where(eq(companies.id, companyId));
    return { cobrand: row?.cobrand ?? DEFAULT_COBRAND, name1: row?.name1 ?? '' };
  }

  async approve(
    caller: Caller,
    number: string,
    idText: string,
    body: CardApplicationApprovalBody,
    ip: string,
  ) {
    const expiryProblem = checkCardExpiry(body.expiry);
    if (expiryProblem)
      throw new AppError('invalid', 'form.invalid', { fieldErrors: { expiry: expiryProblem } });
    await this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      const { row } = await this.one(tx, company.id, idText, true);
      if (row.status !== 'Pending')
        throw new AppError('conflict', 'cardApplication.decided', { message: 'Already decided' });
      let orgPointId: number | null = null;
      if (body.orgPoint?.trim()) {
        const point = await findOrgPoint(tx, company.id, body.orgPoint.trim());
        if (!point)
          throw new AppError('invalid', 'form.invalid', {
            fieldErrors: { orgPoint: 'cardholder.orgPoint.unknown' },
          });
        orgPointId = point.id;
      }
      let groupId: number | null = null;
      if (body.groupId) {
        const group = await findGroup(tx, caller, company.id, body.groupId);
        if (!group || !group.active)
          throw new AppError('invalid', 'form.invalid', {
            fieldErrors: { groupId: group ? 'account.group.inactive' : 'account.group.unknown' },
          });
        groupId = group.id;
      }
      const [holder] = await tx
        .insert(cardholders)
        .values({ companyId: company.id, orgPointId, name1: row.firstName, name2: row.lastName })
        .returning({ id: cardholders.id });
      if (!holder) throw new Error('cardholder insert returned no row');
      const issued = await issueAccount(tx, this.app.secrets.cards, {
        companyId: company.id,
        cardholderId: holder.id,
        groupId,
        number: body.cardNumber,
        expiry: body.expiry,
      });
      if (issued.problem !== undefined) {
        const field = issued.field === 'expiry' ? 'expiry' : 'cardNumber';
        throw new AppError(
          issued.problem === 'account.number.duplicate' ? 'conflict' : 'invalid',
          issued.problem,
          {
            fieldErrors: { [field]: issued.problem },
          },
        );
      }
      await tx
        .update(cardApplications)
        .set({
          status: 'Approved',
          cardholderId: holder.id,
          accountId: issued.accountId,
          decidedBy: caller.accessedBy?.pk ?? caller.userPk,
          decidedAt: sql`now()`,
        })
        .where(eq(cardApplications.id, row.id));
      const { cobrand, name1 } = await this.cobrandOf(tx, company.id);
      const register = new URL(portalUrl('register', { cobrandHost: cobrand }), this.app.config.publicUrl);
      await this.mail(tx, 'card-application-approved', row, cobrand, [
        name1,
        issued.masked,
        register.toString(),
      ]);
      await auditAdmin(tx, 'account.issued', {
        actor: caller,
        entity: 'account',
        entityId: issued.masked,
        changes: { status: { before: null, after: 'Active' } },
        detail: {
          company: company.number,
          accountId: issued.accountId,
          cardholderId: holder.id,
          via: 'cardApplication',
        },
        ip,
      });
      await auditAdmin(tx, 'cardApplication.approved', {
        actor: caller,
        entity: 'cardApplication',
        entityId: String(row.id),
        detail: { company: company.number, account: issued.masked },
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
      const company = await companyInScope(tx, caller, number);
      const { row } = await this.one(tx, company.id, idText, true);
      if (row.status !== 'Pending')
        throw new AppError('conflict', 'cardApplication.decided', { message: 'Already decided' });
      await tx
        .update(cardApplications)
        .set({
          status: 'Declined',
          declineReason: reason,
          decidedBy: caller.accessedBy?.pk ?? caller.userPk,
          decidedAt: sql`now()`,
        })
        .where(eq(cardApplications.id, row.id));
      const { cobrand, name1 } = await this.cobrandOf(tx, company.id);
      await this.mail(tx, 'card-application-declined', row, cobrand, [name1, reason]);
      await auditAdmin(tx, 'cardApplication.declined', {
        actor: caller,
        entity: 'cardApplication',
        entityId: String(row.id),
        detail: { company: company.number, reason },
        ip,
      });
    });
    this.app.mailWorker.kick();
    return this.get(caller, number, idText);
  }
}
