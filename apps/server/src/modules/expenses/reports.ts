import {
  approvalIsAuthorised,
  canonicalUserId,
  currencyExponent,
  decimalOfMinor,
  decimalOfScaled,
  EXPENSE_LIMITS,
  EXPENSE_REPORT_LIMITS,
  EXPENSE_REPORT_STATUSES,
  type ExpenseLine,
  type ExpenseLineBody,
  type ExpenseLineFlag,
  type ExpenseReportDetail,
  type ExpenseReportList,
  type ExpenseReportQuery,
  type ExpenseReportStatus,
  type ExpenseReportSummary,
  type ExpenseTransactionList,
  expenseLineBodySchema,
  formatMoney,
  includedTax,
  isIsoDate,
  isReportEditable,
  isReroutable,
  lineDescriptionProblem,
  lineFlags,
  type Money,
  maskCardParts,
  mayApprove,
  mileageAmount,
  type NewExpenseReportBody,
  odometerProblem,
  positiveMinor,
  type RerouteBody,
  type RouteResult,
  reportNameProblem,
  reportNoteProblem,
  routeReport,
  type SendBackBody,
  submitProblem,
} from '@cardportal/domain';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import {
  accounts,
  cardholders,
  companies,
  expenseLines,
  expensePolicies,
  expensePolicyLimits,
  expenseReportActions,
  expenseReportPending,
  expenseReports,
  expenseTypes,
  issuers,
  mileageRates,
  storedFiles,
  taxRates,
  transactions,
  users,
} from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, auditAdmin } from '../../kernel/audit.ts';
import { readStoredFile, storeReceipt } from '../../kernel/files.ts';
import { enqueueMail } from '../../kernel/outbox.ts';
import { type Keyset, keysetPage, type PageRequest } from '../../kernel/paging.ts';
import { cardholderScope, companyScope, FALSE } from '../access/index.ts';
import { companyInScope } from '../accounts/index.ts';
import { composeMail, type MailKind, type MailTexts } from '../mail/index.ts';
import { loadRouteContext } from './route-context.ts';

/**
 * Expense reports (issue 17 items 2 and 3, docs/expenses.md): a cardholder's reports and their lines,
 * receipts, submission, the approval route with its e-mails, sending back and rerouting. Every change is
 * one database transaction holding the report's row lock, so two submits, two approvals or a change
 * racing an approval cannot both pass; the total and the flags are rewritten with the lines they sum.
 */

type ReportRow = typeof expenseReports.$inferSelect;
type LineRow = typeof expenseLines.$inferSelect;

/** What sending mail needs: composing it, and waking the mail worker after the commit. */
export interface ReportMail {
  texts: MailTexts;
  kick: () => void;
}

const PAGE = 25;

const notFound = () =>
  new AppError('notFound', 'expenseReport.notFound', { message: 'No such expense report' });
const conflict = (code: string, message: string) => new AppError('conflict', code, { message });
const invalidLine = (fieldErrors: Record<string, string>) =>
  new AppError('invalid', Object.values(fieldErrors)[0] as string, {
    message: 'The line has invalid fields',
    fieldErrors,
  });

const money = (minor: bigint, currency: string): Money => ({
  minor: minor.toString(),
  currency,
  exponent: currencyExponent(currency) ?? 2,
});

const nameOf = (u: { firstName: string; lastName: string; displayUserId: string }) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ') || u.displayUserId;

/** Markup or control characters in a name or note. */
const FORBIDDEN = /[<>\p{Cc}]/u;

function noteOf(note: string, required: boolean): string {
  const problem = reportNoteProblem(note, required);
  if (problem) throw new AppError('invalid', problem, { fieldErrors: { note: problem } });
  return note.trim();
}

/** The company's policy as reports use it, or undefined while it has none. */
async function policyOf(db: Executor, companyId: number) {
  const [policy] = await db.select().from(expensePolicies).where(eq(expensePolicies.companyId, companyId));
  if (!policy) return undefined;
  const limits = await db
    .select()
    .from(expensePolicyLimits)
    .where(eq(expensePolicyLimits.companyId, companyId));
  return { ...policy, limits: new Map(limits.map((l) => [l.typeId, l])) };
}
type Policy = NonNullable<Awaited<ReturnType<typeof policyOf>>>;

/** A line's flags under the policy (none while there is none, or when its currency differs). */
function flagsOf(
  line: Pick<LineRow, 'typeId' | 'amountMinor' | 'receiptSha256'>,
  policy: Policy | undefined,
  currency: string,
): ExpenseLineFlag[] {
  if (!policy || policy.currency !== currency) return [];
  const own = policy.limits.get(line.typeId);
  return lineFlags({
    amountMinor: line.amountMinor,
    limitMinor: own?.limitMinor ?? null,
    receiptAboveMinor: own?.receiptAboveMinor ?? policy.receiptAboveMinor,
    hasReceipt: line.receiptSha256 !== null,
  });
}

/** Who may see a report (beside the rule of the route): its cardholder, its approvers past and present, the company's administrators and managers in scope. */
function visible(caller: Caller): SQL {
  const involved = sql`(${expenseReports.ownerPk} = ${caller.userPk}
    or exists (select 1 from ${expenseReportPending} p where p.report_id = ${expenseReports.id} and p.user_pk = ${caller.userPk})
    or exists (select 1 from ${expenseReportActions} a where a.report_id = ${expenseReports.id} and (a.by_pk = ${caller.userPk} or a.target_pk = ${caller.userPk})))`;
  let scoped: SQL = FALSE;
  if (['Z', 'H', 'I', 'G', 'C'].includes(caller.type))
    scoped = sql`${expenseReports.companyId} in (select ${companies.id} from ${companies} join ${issuers} on ${issuers.id} = ${companies.issuerId} where ${companyScope(caller)})`;
  else if (caller.type === 'O' && caller.companyId)
    scoped = sql`${expenseReports.cardholderId} in (select ${cardholders.id} from ${cardholders} where ${cardholderScope(caller, caller.companyId)})`;
  return sql`(${involved} or ${scoped})`;
}

const summaryColumns = {
  id: expenseReports.id,
  name: expenseReports.name,
  status: expenseReports.status,
  currency: expenseReports.currency,
  totalMinor: expenseReports.totalMinor,
  lineCount: expenseReports.lineCount,
  flaggedCount: expenseReports.flaggedCount,
  submittedAt: expenseReports.submittedAt,
  updatedAt: expenseReports.updatedAt,
  updatedKey: sql<string>`${expenseReports.updatedAt}::text`,
  ownerUserId: users.displayUserId,
  ownerFirst: users.firstName,
  ownerLast: users.lastName,
  companyNumber: companies.number,
};
type SummaryRow = {
  id: number;
  name: string;
  status: string;
  currency: string;
  totalMinor: bigint;
  lineCount: number;
  flaggedCount: number;
  submittedAt: Date | null;
  updatedAt: Date;
  ownerUserId: string;
  ownerFirst: string;
  ownerLast: string;
  companyNumber: string;
};

function toSummary(row: SummaryRow): ExpenseReportSummary {
  return {
    id: row.id,
    name: row.name,
    status: row.status as ExpenseReportStatus,
    total: money(row.totalMinor, row.currency),
    lines: row.lineCount,
    flagged: row.flaggedCount,
    owner: {
      userId: row.ownerUserId,
      name: nameOf({ firstName: row.ownerFirst, lastName: row.ownerLast, displayUserId: row.ownerUserId }),
    },
    companyNumber: row.companyNumber,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const selectSummaries = (db: Executor) =>
  db
    .select(summaryColumns)
    .from(expenseReports)
    .innerJoin(users, eq(users.id, expenseReports.ownerPk))
    .innerJoin(companies, eq(companies.id, expenseReports.companyId))
    .$dynamic();

/** Newest change first, over (owner | company [, status], updated_at, id) indexes. */
const byUpdated = (list: string): Keyset<SummaryRow & { updatedKey: string }> => ({
  list,
  keys: [
    { expr: expenseReports.updatedAt, type: 'timestamptz' },
    { expr: expenseReports.id, type: 'int' },
  ],
  direction: 'desc',
  keyOf: (row) => [row.updatedKey, row.id],
});

function statusFilter(status: string | undefined): SQL | undefined {
  if (status === undefined || status === '') return undefined;
  if (!(EXPENSE_REPORT_STATUSES as readonly string[]).includes(status))
    throw new AppError('invalid', 'expenseReport.status.invalid', {
      message: `Status must be one of ${EXPENSE_REPORT_STATUSES.join(', ')}`,
      fieldErrors: { status: 'expenseReport.status.invalid' },
    });
  return eq(expenseReports.status, status);
}

export class ExpenseReportService {
  constructor(
    private readonly db: Db,
    private readonly mail?: ReportMail,
  ) {}

  // ---- lists ---------------------------------------------------------------------------------------

  /** The caller's own reports (a cardholder's), newest change first. */
  async mine(caller: Caller, query: ExpenseReportQuery): Promise<ExpenseReportList> {
    const where = and(eq(expenseReports.ownerPk, caller.userPk), statusFilter(query.status));
    const page = await keysetPage(byUpdated('expenseReports.mine'), this.pageOf(query), (beyond) =>
      selectSummaries(this.db).where(and(where, beyond)),
    );
    return { ...page, rows: page.rows.map(toSummary) };
  }

  /** A company's reports, for its administrators in scope. */
  async ofCompany(caller: Caller, number: string, query: ExpenseReportQuery): Promise<ExpenseReportList> {
    const company = await companyInScope(this.db, caller, number);
    const where = and(eq(expenseReports.companyId, company.id), statusFilter(query.status));
    const page = await keysetPage(byUpdated('expenseReports.company'), this.pageOf(query), (beyond) =>
      selectSummaries(this.db).where(and(where, beyond)),
    );
    return { ...page, rows: page.rows.map(toSummary) };
  }

  /** The approver's queue: reports waiting for the caller, the longest waiting first. */
  async queue(caller: Caller, query: { after?: string; before?: string }): Promise<ExpenseReportList> {
    const keyset: Keyset<SummaryRow & { sinceKey: string }> = {
      list: 'expenseReports.queue',
      keys: [
        { expr: expenseReportPending.since, type: 'timestamptz' },
        { expr: expenseReportPending.reportId, type: 'int' },
      ],
      direction: 'asc',
      keyOf: (row) => [row.sinceKey, row.id],
    };
    const page = await keysetPage(keyset, this.pageOf(query), (beyond) =>
      this.db
        .select({ ...summaryColumns, sinceKey: sql<string>`${expenseReportPending.since}::text` })
        .from(expenseReportPending)
        .innerJoin(expenseReports, eq(expenseReports.id, expenseReportPending.reportId))
        .innerJoin(users, eq(users.id, expenseReports.ownerPk))
        .innerJoin(companies, eq(companies.id, expenseReports.companyId))
        .where(and(eq(expenseReportPending.userPk, caller.userPk), beyond))
        .$dynamic(),
    );
    return { ...page, rows: page.rows.map(toSummary) };
  }

  /** The cardholder's card transactions that no report holds yet, newest first (what a card line may take). */
  async openTransactions(
    caller: Caller,
    query: { after?: string; before?: string },
  ): Promise<ExpenseTransactionList> {
    const holder = this.cardholderOf(caller);
    const keyset: Keyset<{ id: number; transactionDate: string }> = {
      list: 'expenseReports.transactions',
      keys: [
        { expr: transactions.transactionDate, type: 'date' },
        { expr: transactions.id, type: 'int' },
      ],
      direction: 'desc',
      keyOf: (row) => [row.transactionDate, row.id],
    };
    const page = await keysetPage(keyset, this.pageOf(query), (beyond) =>
      this.db
        .select({
          id: transactions.id,
          reference: transactions.reference,
          transactionDate: transactions.transactionDate,
          merchantName: transactions.merchantName,
          amount: transactions.amount,
          currency: transactions.currency,
          bin: accounts.bin,
          last4: accounts.last4,
          numberLength: accounts.numberLength,
        })
        .from(transactions)
        .innerJoin(accounts, eq(accounts.id, transactions.accountId))
        .leftJoin(expenseLines, eq(expenseLines.transactionId, transactions.id))
        .where(and(eq(accounts.cardholderId, holder), isNull(expenseLines.id), beyond))
        .$dynamic(),
    );
    return {
      ...page,
      rows: page.rows.map((r) => ({
        id: r.id,
        reference: r.reference,
        transactionDate: r.transactionDate,
        merchantName: r.merchantName,
        amount: money(r.amount, r.currency),
        maskedNumber: masked(r),
      })),
    };
  }

  // ---- one report ----------------------------------------------------------------------------------

  async get(caller: Caller, idText: string): Promise<ExpenseReportDetail> {
    const report = await this.visibleReport(this.db, caller, idText);
    return this.detail(this.db, caller, report);
  }

  /** A new report of the caller (cardholders only: the route's rule), in the policy's currency. */
  async create(caller: Caller, body: NewExpenseReportBody, ip: string): Promise<ExpenseReportDetail> {
    const holder = this.cardholderOf(caller);
    const name = body.name.trim();
    const problem = reportNameProblem(name);
    if (problem) throw new AppError('invalid', problem, { fieldErrors: { name: problem } });
    return this.db.transaction(async (tx) => {
      const [owner] = await tx
        .select({ companyId: cardholders.companyId })
        .from(cardholders)
        .where(eq(cardholders.id, holder));
      if (!owner) throw notFound();
      const policy = await policyOf(tx, owner.companyId);
      const asked = body.currency?.trim().toUpperCase() || undefined;
      if (asked !== undefined && currencyExponent(asked) === undefined)
        throw new AppError('invalid', 'expenseReport.currency.invalid', {
          fieldErrors: { currency: 'expenseReport.currency.invalid' },
        });
      if (policy && asked !== undefined && asked !== policy.currency)
        throw new AppError('invalid', 'expenseReport.currency.policy', {
          message: `Reports of this company are in ${policy.currency}`,
          fieldErrors: { currency: 'expenseReport.currency.policy' },
        });
      const currency = policy?.currency ?? asked;
      if (!currency)
        throw new AppError('invalid', 'expenseReport.currency.required', {
          fieldErrors: { currency: 'expenseReport.currency.required' },
        });
      const [row] = await tx
        .insert(expenseReports)
        .values({ companyId: owner.companyId, ownerPk: caller.userPk, cardholderId: holder, name, currency })
        .returning();
      const report = row as ReportRow;
      await this.audit(tx, caller, 'expenseReport.created', report, ip, {
        name: { before: null, after: name },
      });
      return this.detail(tx, caller, report);
    });
  }

  async rename(
    caller: Caller,
    idText: string,
    body: { name: string },
    ip: string,
  ): Promise<ExpenseReportDetail> {
    const name = body.name.trim();
    const problem = reportNameProblem(name);
    if (problem) throw new AppError('invalid', problem, { fieldErrors: { name: problem } });
    return this.db.transaction(async (tx) => {
      const report = await this.ownEditable(tx, caller, idText);
      if (report.name !== name) {
        await tx
          .update(expenseReports)
          .set({ name, updatedAt: new Date() })
          .where(eq(expenseReports.id, report.id));
        await this.audit(tx, caller, 'expenseReport.updated', report, ip, {
          name: { before: report.name, after: name },
        });
      }
      return this.detail(tx, caller, { ...report, name });
    });
  }

  /** Deletes an editable report of the caller with its lines (their transactions are free again). */
  async remove(caller: Caller, idText: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const report = await this.ownEditable(tx, caller, idText);
      await tx.delete(expenseReports).where(eq(expenseReports.id, report.id));
      await this.audit(tx, caller, 'expenseReport.deleted', report, ip);
    });
  }

  // ---- lines ---------------------------------------------------------------------------------------

  async addLine(
    caller: Caller,
    idText: string,
    body: ExpenseLineBody,
    ip: string,
  ): Promise<ExpenseReportDetail> {
    const input = expenseLineBodySchema.parse(body);
    return this.db.transaction(async (tx) => {
      const report = await this.ownEditable(tx, caller, idText);
      if (report.lineCount >= EXPENSE_REPORT_LIMITS.linesPerReport)
        throw conflict(
          'expenseReport.tooManyLines',
          `A report has at most ${EXPENSE_REPORT_LIMITS.linesPerReport} lines`,
        );
      const values = await this.lineValues(tx, report, input, undefined);
      const [line] = await tx
        .insert(expenseLines)
        .values({ ...values, reportId: report.id })
        .returning();
      const updated = await this.recount(tx, report);
      await this.audit(tx, caller, 'expenseLine.added', report, ip, lineChanges(undefined, line as LineRow));
      return this.detail(tx, caller, updated);
    });
  }

  async changeLine(
    caller: Caller,
    idText: string,
    lineText: string,
    body: ExpenseLineBody,
    ip: string,
  ): Promise<ExpenseReportDetail> {
    const input = expenseLineBodySchema.parse(body);
    return this.db.transaction(async (tx) => {
      const report = await this.ownEditable(tx, caller, idText);
      const current = await this.lineOf(tx, report, lineText);
      const values = await this.lineValues(tx, report, input, current);
      const [line] = await tx
        .update(expenseLines)
        .set(values)
        .where(eq(expenseLines.id, current.id))
        .returning();
      const updated = await this.recount(tx, report);
      await this.audit(tx, caller, 'expenseLine.changed', report, ip, lineChanges(current, line as LineRow));
      return this.detail(tx, caller, updated);
    });
  }

  async removeLine(
    caller: Caller,
    idText: string,
    lineText: string,
    ip: string,
  ): Promise<ExpenseReportDetail> {
    return this.db.transaction(async (tx) => {
      const report = await this.ownEditable(tx, caller, idText);
      const current = await this.lineOf(tx, report, lineText);
      await tx.delete(expenseLines).where(eq(expenseLines.id, current.id));
      const updated = await this.recount(tx, report);
      await this.audit(tx, caller, 'expenseLine.removed', report, ip, lineChanges(current, undefined));
      return this.detail(tx, caller, updated);
    });
  }

  /** Attaches a receipt (JPEG, PNG or PDF by content, ≤ 4 MB, EICAR-checked) to a line, replacing any. */
  async attachReceipt(
    caller: Caller,
    idText: string,
    lineText: string,
    bytes: Uint8Array,
    rawName: string | undefined,
    ip: string,
  ): Promise<ExpenseReportDetail> {
    const name = receiptName(rawName);
    return this.db.transaction(async (tx) => {
      const report = await this.ownEditable(tx, caller, idText);
      const line = await this.lineOf(tx, report, lineText);
      const file = await storeReceipt(tx, bytes);
      await tx
        .update(expenseLines)
        .set({ receiptSha256: file.sha256, receiptName: name })
        .where(eq(expenseLines.id, line.id));
      const updated = await this.recount(tx, report);
      await this.audit(tx, caller, 'expenseLine.receiptAttached', report, ip, {
        receipt: { before: line.receiptName, after: name },
      });
      return this.detail(tx, caller, updated);
    });
  }

  async removeReceipt(
    caller: Caller,
    idText: string,
    lineText: string,
    ip: string,
  ): Promise<ExpenseReportDetail> {
    return this.db.transaction(async (tx) => {
      const report = await this.ownEditable(tx, caller, idText);
      const line = await this.lineOf(tx, report, lineText);
      if (line.receiptSha256 === null)
        throw new AppError('notFound', 'expenseLine.receipt.none', { message: 'The line has no receipt' });
      await tx
        .update(expenseLines)
        .set({ receiptSha256: null, receiptName: null })
        .where(eq(expenseLines.id, line.id));
      const updated = await this.recount(tx, report);
      await this.audit(tx, caller, 'expenseLine.receiptRemoved', report, ip, {
        receipt: { before: line.receiptName, after: null },
      });
      return this.detail(tx, caller, updated);
    });
  }

  /** A line's receipt, for whoever may see the report. */
  async receipt(
    caller: Caller,
    idText: string,
    lineText: string,
  ): Promise<{ mediaType: string; bytes: Uint8Array; name: string }> {
    const report = await this.visibleReport(this.db, caller, idText);
    const line = await this.lineOf(this.db, report, lineText);
    const file = line.receiptSha256 ? await readStoredFile(this.db, line.receiptSha256) : undefined;
    if (!file)
      throw new AppError('notFound', 'expenseLine.receipt.none', { message: 'The line has no receipt' });
    return { ...file, name: line.receiptName ?? 'receipt' };
  }

  // ---- the workflow --------------------------------------------------------------------------------

  /**
   * Submits the caller's report: once (a second submit is refused), with lines; without a company
   * policy it is held and submitted again when one is saved; with one, routed — refused while nobody can
   * approve it (it stays editable).
   */
  async submit(caller: Caller, idText: string, ip: string): Promise<ExpenseReportDetail> {
    return this.withMail(async (tx, mails) => {
      const report = await this.ownReport(tx, caller, idText);
      const problem = submitProblem(report.status as ExpenseReportStatus, report.lineCount);
      if (problem)
        throw conflict(
          problem,
          problem === 'expenseReport.noLines'
            ? 'Add a line before submitting'
            : 'The report was already submitted',
        );
      const policy = await policyOf(tx, report.companyId);
      const round = report.round + 1;
      const now = new Date();
      if (!policy) {
        await tx
          .update(expenseReports)
          .set({
            status: 'Held',
            round,
            reroutePk: null,
            rerouteStep: null,
            submittedAt: now,
            updatedAt: now,
          })
          .where(eq(expenseReports.id, report.id));
        await this.act(tx, report.id, round, 'held', caller.userPk);
        await this.audit(tx, caller, 'expenseReport.submitted', report, ip, {
          status: { before: report.status, after: 'Held' },
        });
        return this.detail(tx, caller, {
          ...report,
          status: 'Held',
          round,
          submittedAt: now,
          updatedAt: now,
        });
      }
      const next = { ...report, round, reroutePk: null, rerouteStep: null };
      const route = routeReport(await loadRouteContext(tx, next));
      if (route.state !== 'pending')
        throw conflict(
          'expenseReport.noApprover',
          'Nobody can approve this report yet: ask your program administrator',
        );
      await tx
        .update(expenseReports)
        .set({
          status: 'Submitted',
          round,
          reroutePk: null,
          rerouteStep: null,
          submittedAt: now,
          updatedAt: now,
        })
        .where(eq(expenseReports.id, report.id));
      await this.act(tx, report.id, round, 'submitted', caller.userPk);
      const submitted = { ...next, status: 'Submitted', submittedAt: now, updatedAt: now };
      await this.settle(tx, submitted, route, mails);
      await this.audit(tx, caller, 'expenseReport.submitted', report, ip, {
        status: { before: report.status, after: 'Submitted' },
      });
      return this.detail(tx, caller, submitted);
    });
  }

  /** Approves the step the caller is an approver of; the route moves on, or the report is approved. */
  async approve(caller: Caller, idText: string, ip: string): Promise<ExpenseReportDetail> {
    return this.withMail(async (tx, mails) => {
      const report = await this.actionable(tx, caller, idText);
      const context = await loadRouteContext(tx, report);
      const route = routeReport(context);
      if (!mayApprove(route, report.ownerPk, caller.userPk) || route.state !== 'pending')
        throw notApprover(caller.userPk === report.ownerPk);
      await this.act(tx, report.id, report.round, 'approved', caller.userPk, { step: route.step.step });
      const next =
        caller.userPk === report.reroutePk ? { ...report, reroutePk: null, rerouteStep: null } : report;
      const after = await this.settle(tx, next, routeReport(await loadRouteContext(tx, next)), mails);
      await this.audit(tx, caller, 'expenseReport.approved', report, ip, {
        status: { before: report.status, after: after.status },
      });
      return this.detail(tx, caller, after);
    });
  }

  /** Sends the report back to its cardholder with a reason: editable again, approvals start over. */
  async sendBack(
    caller: Caller,
    idText: string,
    body: SendBackBody,
    ip: string,
  ): Promise<ExpenseReportDetail> {
    const note = noteOf(body.note, true);
    return this.withMail(async (tx, mails) => {
      const report = await this.actionable(tx, caller, idText);
      const route = routeReport(await loadRouteContext(tx, report));
      if (!mayApprove(route, report.ownerPk, caller.userPk))
        throw notApprover(caller.userPk === report.ownerPk);
      const now = new Date();
      await tx
        .update(expenseReports)
        .set({ status: 'SentBack', reroutePk: null, rerouteStep: null, updatedAt: now })
        .where(eq(expenseReports.id, report.id));
      await tx.delete(expenseReportPending).where(eq(expenseReportPending.reportId, report.id));
      await this.act(tx, report.id, report.round, 'sentBack', caller.userPk, { note });
      mails.push({ kind: 'expense-sent-back', to: [report.ownerPk], report, extra: [caller.userId, note] });
      await this.audit(tx, caller, 'expenseReport.sentBack', report, ip, {
        status: { before: report.status, after: 'SentBack' },
      });
      return this.detail(tx, caller, {
        ...report,
        status: 'SentBack',
        reroutePk: null,
        rerouteStep: null,
        updatedAt: now,
      });
    });
  }

  /**
   * Reroutes a Submitted or Approved report to an individual approver (seed 001 §4), by the company's
   * administrators: that person takes the waiting step (an approved report goes back to Submitted for
   * their review); the rules of the route still hold after their approval.
   */
  async reroute(caller: Caller, idText: string, body: RerouteBody, ip: string): Promise<ExpenseReportDetail> {
    const note = noteOf(body.note ?? '', false);
    return this.withMail(async (tx, mails) => {
      const report = await this.visibleReport(tx, caller, idText, true);
      const [company] = await tx
        .select({ number: companies.number })
        .from(companies)
        .where(eq(companies.id, report.companyId));
      // The company's administrators in scope: another's is not found, like an unknown report.
      await companyInScope(tx, caller, company?.number ?? '');
      const status = report.status as ExpenseReportStatus;
      if (!isReroutable(status))
        throw conflict('expenseReport.reroute.status', 'Only a submitted or approved report can be rerouted');
      const userId = canonicalUserId(body.userId);
      const [target] = await tx
        .select({ id: users.id, companyId: users.companyId, status: users.status })
        .from(users)
        .where(eq(users.userId, userId))
        .limit(1);
      const refuse = (code: string) => new AppError('invalid', code, { fieldErrors: { userId: code } });
      if (!target || target.companyId !== report.companyId || target.status !== 'Active')
        throw refuse('expenseReport.reroute.approverUnknown');
      if (target.id === report.ownerPk) throw refuse('expenseReport.selfApproval');
      const context = await loadRouteContext(tx, report);
      if (context.approvals.some((a) => a.userPk === target.id))
        throw refuse('expenseReport.reroute.alreadyApproved');
      let step: string;
      if (status === 'Approved') {
        const [{ n } = { n: 0 }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(expenseReportActions)
          .where(
            and(eq(expenseReportActions.reportId, report.id), eq(expenseReportActions.action, 'rerouted')),
          );
        step = `review:${n + 1}`;
      } else {
        const route = routeReport(context);
        step =
          route.state === 'pending'
            ? route.step.step
            : route.state === 'unroutable'
              ? route.step
              : `review:0`;
      }
      const now = new Date();
      const next = {
        ...report,
        status: 'Submitted',
        reroutePk: target.id,
        rerouteStep: step,
        updatedAt: now,
      };
      await tx
        .update(expenseReports)
        .set({ status: 'Submitted', reroutePk: target.id, rerouteStep: step, updatedAt: now })
        .where(eq(expenseReports.id, report.id));
      await this.act(tx, report.id, report.round, 'rerouted', caller.userPk, {
        targetPk: target.id,
        step,
        note,
      });
      const after = await this.settle(tx, next, routeReport(await loadRouteContext(tx, next)), mails);
      await this.audit(tx, caller, 'expenseReport.rerouted', report, ip, {
        approver: { before: null, after: body.userId.trim() },
        status: { before: report.status, after: after.status },
      });
      return this.detail(tx, caller, after);
    });
  }

  /**
   * Seed 001 §4 "auto-resubmitted once a policy exists": the company's held reports, submitted again in
   * the transaction that saved its policy. One nobody can approve yet stays held (and is tried again at
   * the next change of the policy).
   */
  async resubmitHeld(tx: Executor, companyId: number): Promise<number> {
    const mails: Mailing[] = [];
    const held = await tx
      .select()
      .from(expenseReports)
      .where(and(eq(expenseReports.companyId, companyId), eq(expenseReports.status, 'Held')))
      .orderBy(asc(expenseReports.id))
      .for('update');
    for (const report of held) {
      const route = routeReport(await loadRouteContext(tx, report));
      if (route.state !== 'pending') continue;
      const now = new Date();
      await tx
        .update(expenseReports)
        .set({ status: 'Submitted', updatedAt: now })
        .where(eq(expenseReports.id, report.id));
      await this.act(tx, report.id, report.round, 'resubmitted', null);
      await this.settle(tx, { ...report, status: 'Submitted', updatedAt: now }, route, mails);
    }
    return this.enqueue(tx, mails);
  }

  // ---- inside --------------------------------------------------------------------------------------

  private pageOf(query: { after?: string | undefined; before?: string | undefined }): PageRequest {
    return { after: query.after, before: query.before, limit: PAGE };
  }

  private cardholderOf(caller: Caller): number {
    if (caller.type !== 'A' || !caller.cardholderId)
      throw new AppError('forbidden', 'expenseReport.cardholdersOnly', {
        message: 'Only cardholders may create expense reports',
      });
    return caller.cardholderId;
  }

  /** A report the caller may see, by the id in the path (404 for anything else); locked on request. */
  private async visibleReport(
    db: Executor,
    caller: Caller,
    idText: string,
    lock = false,
  ): Promise<ReportRow> {
    const id = /^\d{1,9}$/.test(idText) ? Number(idText) : undefined;
    if (id === undefined) throw notFound();
    const query = db
      .select()
      .from(expenseReports)
      .where(and(eq(expenseReports.id, id), visible(caller)));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw notFound();
    return row;
  }

  /** The caller's own report, locked. */
  private async ownReport(tx: Executor, caller: Caller, idText: string): Promise<ReportRow> {
    const report = await this.visibleReport(tx, caller, idText, true);
    if (report.ownerPk !== caller.userPk)
      throw new AppError('forbidden', 'expenseReport.notOwner', {
        message: 'Only its cardholder changes a report',
      });
    return report;
  }

  /** The caller's own report, locked, while it may change (Saved or SentBack). */
  private async ownEditable(tx: Executor, caller: Caller, idText: string): Promise<ReportRow> {
    const report = await this.ownReport(tx, caller, idText);
    if (!isReportEditable(report.status as ExpenseReportStatus))
      throw conflict('expenseReport.notEditable', 'A submitted or approved report cannot be changed');
    return report;
  }

  /** A submitted report the caller may see, locked (approving and sending back start here). */
  private async actionable(tx: Executor, caller: Caller, idText: string): Promise<ReportRow> {
    const report = await this.visibleReport(tx, caller, idText, true);
    if (report.ownerPk === caller.userPk) throw notApprover(true);
    if (report.status !== 'Submitted')
      throw conflict('expenseReport.notSubmitted', 'The report is not waiting for approval');
    return report;
  }

  private async lineOf(db: Executor, report: ReportRow, lineText: string): Promise<LineRow> {
    const id = /^\d{1,9}$/.test(lineText) ? Number(lineText) : undefined;
    const [line] =
      id === undefined
        ? []
        : await db
            .select()
            .from(expenseLines)
            .where(and(eq(expenseLines.id, id), eq(expenseLines.reportId, report.id)));
    if (!line) throw new AppError('notFound', 'expenseLine.notFound', { message: 'No such line' });
    return line;
  }

  /** A line's columns from its body, each field checked against the company's set-up; every problem named. */
  private async lineValues(
    tx: Executor,
    report: ReportRow,
    input: ReturnType<typeof expenseLineBodySchema.parse>,
    current: LineRow | undefined,
  ) {
    const problems: Record<string, string> = {};
    const policy = await policyOf(tx, report.companyId);
    const exponent = currencyExponent(report.currency) ?? 2;
    const [type] = await tx
      .select()
      .from(expenseTypes)
      .where(and(eq(expenseTypes.id, input.typeId), eq(expenseTypes.companyId, report.companyId)));
    if (!type || (!type.active && type.id !== current?.typeId)) problems.typeId = 'expenseLine.type.unknown';
    else if ((type.category === 'mileage') !== (input.kind === 'mileage'))
      problems.typeId = 'expenseLine.type.category';

    const description = input.description.trim();
    const descriptionProblem = lineDescriptionProblem(description, policy?.descriptionMaxLength ?? 255);
    if (descriptionProblem) problems.description = descriptionProblem;

    let transactionId: number | null = null;
    let date = input.date?.trim() ?? '';
    let amount = 0n;
    let transactionTax = 0n;
    let mileageRateId: number | null = null;
    let odometerStart: number | null = null;
    let odometerEnd: number | null = null;

    if (input.kind === 'card') {
      if (input.transactionId === undefined) problems.transactionId = 'expenseLine.transaction.required';
      else {
        const [found] = await tx
          .select({
            id: transactions.id,
            amount: transactions.amount,
            tax: transactions.tax,
            currency: transactions.currency,
            date: transactions.transactionDate,
            onLine: expenseLines.id,
          })
          .from(transactions)
          .innerJoin(accounts, eq(accounts.id, transactions.accountId))
          .leftJoin(expenseLines, eq(expenseLines.transactionId, transactions.id))
          .where(
            and(eq(transactions.id, input.transactionId), eq(accounts.cardholderId, report.cardholderId)),
          );
        if (!found) problems.transactionId = 'expenseLine.transaction.unknown';
        else if (found.onLine !== null && found.onLine !== current?.id)
          problems.transactionId = 'expenseLine.transaction.onReport';
        else if (found.currency !== report.currency)
          problems.transactionId = 'expenseLine.transaction.currency';
        else {
          transactionId = found.id;
          amount = found.amount;
          transactionTax = found.tax;
          date = found.date;
        }
      }
    } else {
      if (!isIsoDate(date)) problems.date = 'date.invalid';
      else if (date > new Date().toISOString().slice(0, 10)) problems.date = 'expenseLine.date.future';
    }
    if (input.kind === 'cash') {
      const parsed = positiveMinor(input.amount ?? '', exponent);
      if ('problem' in parsed)
        problems.amount = input.amount?.trim() ? parsed.problem : 'expenseLine.amount.required';
      else amount = parsed.minor;
    }
    if (input.kind === 'mileage') {
      const [rate] =
        input.mileageRateId === undefined
          ? []
          : await tx
              .select()
              .from(mileageRates)
              .where(
                and(eq(mileageRates.id, input.mileageRateId), eq(mileageRates.companyId, report.companyId)),
              );
      if (!rate || (!rate.active && rate.id !== current?.mileageRateId))
        problems.mileageRateId = 'expenseLine.mileageRate.required';
      else if (rate.currency !== report.currency) problems.mileageRateId = 'expenseLine.mileageRate.currency';
      const start = input.odometerStart ?? Number.NaN;
      const end = input.odometerEnd ?? Number.NaN;
      const odometer = odometerProblem(start, end);
      if (odometer)
        problems[odometer === 'expenseLine.odometer.order' ? 'odometerEnd' : 'odometerStart'] = odometer;
      else if (rate) {
        mileageRateId = rate.id;
        odometerStart = start;
        odometerEnd = end;
        amount = mileageAmount(BigInt(end - start), rate.rateE4, exponent);
      }
    }

    let taxRateId: number | null = null;
    let taxMinor: bigint | null = input.kind === 'card' && transactionTax !== 0n ? transactionTax : null;
    if (input.taxRateId !== undefined && input.taxRateId !== null) {
      const [rate] = await tx
        .select()
        .from(taxRates)
        .where(and(eq(taxRates.id, input.taxRateId), eq(taxRates.companyId, report.companyId)));
      if (!rate || (!rate.active && rate.id !== current?.taxRateId))
        problems.taxRateId = 'expenseLine.taxRate.invalid';
      else {
        taxRateId = rate.id;
        taxMinor = includedTax(amount, rate.rateE3);
      }
    }

    const properties: Record<string, string> = {};
    for (const property of type?.properties ?? []) {
      const value = (input.properties[property.label] ?? '').trim();
      const field = `properties.${property.label}`;
      if (value === '') {
        if (property.required) problems[field] = 'expenseLine.property.required';
        continue;
      }
      if ([...value].length > EXPENSE_REPORT_LIMITS.propertyValueMaxLength)
        problems[field] = 'expenseLine.property.tooLong';
      else if (FORBIDDEN.test(value)) problems[field] = 'expenseLine.property.invalidCharacters';
      else if (property.kind === 'number' && !/^-?\d{1,15}(\.\d{1,6})?$/.test(value))
        problems[field] = 'expenseLine.property.number';
      else if (property.kind === 'date' && !isIsoDate(value)) problems[field] = 'date.invalid';
      else properties[property.label] = value;
    }

    if (Object.keys(problems).length > 0) throw invalidLine(problems);
    return {
      kind: input.kind,
      typeId: input.typeId,
      transactionId,
      expenseDate: date,
      description,
      amountMinor: amount,
      taxRateId,
      taxMinor,
      mileageRateId,
      odometerStart,
      odometerEnd,
      properties,
    };
  }

  /** Rewrites the report's total, line count and flags from its lines (one home for "the total equals the lines"). */
  private async recount(tx: Executor, report: ReportRow): Promise<ReportRow> {
    const lines = await tx
      .select({
        typeId: expenseLines.typeId,
        amountMinor: expenseLines.amountMinor,
        receiptSha256: expenseLines.receiptSha256,
      })
      .from(expenseLines)
      .where(eq(expenseLines.reportId, report.id));
    const policy = await policyOf(tx, report.companyId);
    const totalMinor = lines.reduce((sum, l) => sum + l.amountMinor, 0n);
    const flaggedCount = lines.filter((l) => flagsOf(l, policy, report.currency).length > 0).length;
    const [row] = await tx
      .update(expenseReports)
      .set({ totalMinor, lineCount: lines.length, flaggedCount, updatedAt: new Date() })
      .where(eq(expenseReports.id, report.id))
      .returning();
    return row as ReportRow;
  }

  private async act(
    tx: Executor,
    reportId: number,
    round: number,
    action: 'submitted' | 'held' | 'resubmitted' | 'approved' | 'sentBack' | 'rerouted',
    byPk: number | null,
    more: { step?: string; targetPk?: number; note?: string } = {},
  ): Promise<void> {
    await tx.insert(expenseReportActions).values({ reportId, round, action, byPk, ...more });
  }

  /**
   * Makes the report's state follow its route: approved (after the invariant's own check), waiting for
   * the step's approvers (those newly asked get a mail), or waiting for a reroute nobody can take yet.
   */
  private async settle(
    tx: Executor,
    report: ReportRow,
    route: RouteResult,
    mails: Mailing[],
  ): Promise<ReportRow> {
    const before = await tx
      .select({ userPk: expenseReportPending.userPk })
      .from(expenseReportPending)
      .where(eq(expenseReportPending.reportId, report.id));
    const was = new Set(before.map((p) => p.userPk));
    await tx.delete(expenseReportPending).where(eq(expenseReportPending.reportId, report.id));
    const now = new Date();
    if (route.state === 'approved') {
      // The route said approved: the rules are checked once more, apart from the walk that found it.
      if (!approvalIsAuthorised(await loadRouteContext(tx, report)))
        throw new AppError('conflict', 'expenseReport.noApprover', {
          message: 'The report has no authorised approval',
        });
      await tx
        .update(expenseReports)
        .set({ status: 'Approved', reroutePk: null, rerouteStep: null, updatedAt: now })
        .where(eq(expenseReports.id, report.id));
      mails.push({ kind: 'expense-approved', to: [report.ownerPk], report, extra: [] });
      return { ...report, status: 'Approved', reroutePk: null, rerouteStep: null, updatedAt: now };
    }
    if (route.state === 'pending') {
      await tx
        .insert(expenseReportPending)
        .values(route.step.approvers.map((userPk) => ({ userPk, reportId: report.id, since: now })));
      const asked = route.step.approvers.filter((pk) => !was.has(pk));
      if (asked.length > 0) mails.push({ kind: 'expense-submitted', to: asked, report, extra: [] });
    }
    await tx.update(expenseReports).set({ updatedAt: now }).where(eq(expenseReports.id, report.id));
    return { ...report, updatedAt: now };
  }

  /**
   * Runs an action in one transaction and puts the mails it decided into the outbox in that same
   * transaction (kernel/outbox.ts: a mail goes if and only if the action committed); the mail worker is
   * woken after the commit.
   */
  private async withMail<T>(work: (tx: Executor, mails: Mailing[]) => Promise<T>): Promise<T> {
    let sent = 0;
    const result = await this.db.transaction(async (tx) => {
      const mails: Mailing[] = [];
      const out = await work(tx, mails);
      sent = await this.enqueue(tx, mails);
      return out;
    });
    if (sent > 0) this.mail?.kick();
    return result;
  }

  /** Composes each mail in its recipient's language and co-brand into the outbox; answers how many. */
  async enqueue(tx: Executor, mails: Mailing[]): Promise<number> {
    const mail = this.mail;
    if (!mail || mails.length === 0) return 0;
    let count = 0;
    for (const m of mails) {
      const [owner] = await tx
        .select({
          firstName: users.firstName,
          lastName: users.lastName,
          displayUserId: users.displayUserId,
        })
        .from(users)
        .where(eq(users.id, m.report.ownerPk));
      const recipients = await tx
        .select({
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          displayUserId: users.displayUserId,
          cobrand: users.cobrand,
          locale: users.locale,
        })
        .from(users)
        .where(and(inArray(users.id, m.to), eq(users.status, 'Active'), sql`${users.email} <> ''`));
      for (const to of recipients) {
        const total = formatMoney(m.report.totalMinor, m.report.currency, to.locale.replace('_', '-'));
        const composed = await composeMail(
          mail.texts,
          m.kind,
          to,
          { cobrand: to.cobrand, locale: to.locale },
          [m.report.name, owner ? nameOf(owner) : '', total, ...m.extra],
          tx,
        );
        await enqueueMail(tx, composed);
        count += 1;
      }
    }
    return count;
  }

  /** Wakes the mail worker (after a transaction that enqueued mails committed). */
  kickMail(): void {
    this.mail?.kick();
  }

  private audit(
    tx: Executor,
    caller: Caller,
    event: AdminAuditEvent,
    report: ReportRow,
    ip: string,
    changes?: Record<string, { before: unknown; after: unknown }>,
  ) {
    return auditAdmin(tx, event, {
      actor: caller,
      entity: 'expenseReport',
      entityId: String(report.id),
      subjectPk: report.ownerPk,
      changes: changes as never,
      ip,
      detail: {
        name: report.name,
        total: decimalOfMinor(report.totalMinor, currencyExponent(report.currency) ?? 2),
        currency: report.currency,
      },
    });
  }

  /** The report as its screen shows it, with what the caller may do now. */
  private async detail(db: Executor, caller: Caller, report: ReportRow): Promise<ExpenseReportDetail> {
    const [head] = await selectSummaries(db).where(eq(expenseReports.id, report.id));
    if (!head) throw notFound();
    const policy = await policyOf(db, report.companyId);
    const lineRows = await db
      .select({
        line: expenseLines,
        typeName: expenseTypes.name,
        reference: transactions.reference,
        merchantName: transactions.merchantName,
        bin: accounts.bin,
        last4: accounts.last4,
        numberLength: accounts.numberLength,
        rateName: mileageRates.name,
        unit: mileageRates.unit,
        mediaType: storedFiles.mediaType,
        size: storedFiles.size,
      })
      .from(expenseLines)
      .innerJoin(expenseTypes, eq(expenseTypes.id, expenseLines.typeId))
      .leftJoin(transactions, eq(transactions.id, expenseLines.transactionId))
      .leftJoin(accounts, eq(accounts.id, transactions.accountId))
      .leftJoin(mileageRates, eq(mileageRates.id, expenseLines.mileageRateId))
      .leftJoin(storedFiles, eq(storedFiles.sha256, expenseLines.receiptSha256))
      .where(eq(expenseLines.reportId, report.id))
      .orderBy(asc(expenseLines.expenseDate), asc(expenseLines.id));
    const lines: ExpenseLine[] = lineRows.map((r) => ({
      id: r.line.id,
      kind: r.line.kind as ExpenseLine['kind'],
      type: { id: r.line.typeId, name: r.typeName },
      date: r.line.expenseDate,
      description: r.line.description,
      amount: money(r.line.amountMinor, report.currency),
      tax: r.line.taxMinor === null ? null : money(r.line.taxMinor, report.currency),
      taxRateId: r.line.taxRateId,
      transaction:
        r.line.transactionId === null
          ? null
          : {
              id: r.line.transactionId,
              reference: r.reference ?? '',
              merchantName: r.merchantName ?? '',
              maskedNumber: masked(r),
            },
      mileage:
        r.line.mileageRateId === null
          ? null
          : {
              rateId: r.line.mileageRateId,
              rateName: r.rateName ?? '',
              unit: (r.unit ?? 'km') as 'km' | 'mi',
              odometerStart: r.line.odometerStart ?? 0,
              odometerEnd: r.line.odometerEnd ?? 0,
              distance: (r.line.odometerEnd ?? 0) - (r.line.odometerStart ?? 0),
            },
      properties: r.line.properties,
      receipt:
        r.line.receiptSha256 === null
          ? null
          : { name: r.line.receiptName ?? 'receipt', mediaType: r.mediaType ?? '', size: r.size ?? 0 },
      flags: flagsOf(r.line, policy, report.currency),
    }));

    const people = new Map<number, { userId: string; name: string }>();
    const person = async (pk: number | null) => {
      if (pk === null) return null;
      if (!people.has(pk)) {
        const [u] = await db
          .select({
            displayUserId: users.displayUserId,
            firstName: users.firstName,
            lastName: users.lastName,
          })
          .from(users)
          .where(eq(users.id, pk));
        people.set(pk, u ? { userId: u.displayUserId, name: nameOf(u) } : { userId: '', name: '' });
      }
      return people.get(pk) ?? null;
    };

    const actions = await db
      .select()
      .from(expenseReportActions)
      .where(eq(expenseReportActions.reportId, report.id))
      .orderBy(asc(expenseReportActions.id));
    const history = [];
    for (const a of actions)
      history.push({
        action: a.action as ExpenseReportDetail['history'][number]['action'],
        by: await person(a.byPk),
        target: await person(a.targetPk),
        note: a.note,
        at: a.createdAt.toISOString(),
      });

    let pending: ExpenseReportDetail['pending'] = null;
    let unroutable = false;
    let mayAct = false;
    if (report.status === 'Submitted') {
      const route = routeReport(await loadRouteContext(db, report));
      if (route.state === 'pending') {
        const approvers = [];
        for (const pk of route.step.approvers)
          approvers.push((await person(pk)) as { userId: string; name: string });
        pending = { step: route.step.step, approvers, needed: route.step.needed };
        mayAct = mayApprove(route, report.ownerPk, caller.userPk) && caller.accessedBy === null;
      } else unroutable = route.state === 'unroutable';
    }
    const owner = report.ownerPk === caller.userPk;
    const status = report.status as ExpenseReportStatus;
    return {
      ...toSummary(head),
      lines,
      pending,
      unroutable,
      history,
      may: {
        edit: owner && isReportEditable(status),
        submit: owner && caller.accessedBy === null && submitProblem(status, report.lineCount) === undefined,
        approve: mayAct,
        sendBack: mayAct,
        reroute:
          isReroutable(status) && ['H', 'I', 'G', 'C'].includes(caller.type) && caller.accessedBy === null,
      },
      choices: owner && isReportEditable(status) ? await choicesOf(db, report) : null,
      policy: policy
        ? {
            currency: policy.currency,
            descriptionMaxLength: policy.descriptionMaxLength,
            workflowInstructions: policy.workflowInstructions,
          }
        : null,
    };
  }
}

/** A mail to send once the transaction commits. */
export interface Mailing {
  kind: MailKind;
  to: number[];
  report: ReportRow;
  extra: string[];
}

function notApprover(own: boolean): AppError {
  return own
    ? new AppError('forbidden', 'expenseReport.selfApproval', { message: 'Nobody approves their own report' })
    : new AppError('forbidden', 'expenseReport.notApprover', {
        message: 'The report is not waiting for your approval',
      });
}

function masked(r: { bin: string | null; last4: string | null; numberLength: number | null }): string {
  return maskCardParts({ bin: r.bin ?? '000000', last4: r.last4 ?? '0000', length: r.numberLength ?? 16 });
}

/** A receipt's name as shown: the base name, without path or control characters, at most 120 characters. */
function receiptName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...base.replace(/[<>"\p{Cc}]/gu, '').trim()]
    .slice(0, EXPENSE_REPORT_LIMITS.receiptNameMaxLength)
    .join('');
  return clean === '' ? 'receipt' : clean;
}

/** An audit row's changes of a line (amounts as decimals of the minor units). */
function lineChanges(before: LineRow | undefined, after: LineRow | undefined) {
  const view = (l: LineRow | undefined): Record<string, string> =>
    l === undefined
      ? {}
      : {
          kind: l.kind,
          expenseType: String(l.typeId),
          date: l.expenseDate,
          description: l.description,
          amount: l.amountMinor.toString(),
        };
  const a: Record<string, string> = view(before);
  const b: Record<string, string> = view(after);
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)]))
    if (a[field] !== b[field]) out[field] = { before: a[field] ?? null, after: b[field] ?? null };
  return out;
}

/** The company's active types, and its active mileage rates in the report's currency and tax rates: what a line may name. */
async function choicesOf(
  db: Executor,
  report: ReportRow,
): Promise<NonNullable<ExpenseReportDetail['choices']>> {
  const [types, rates, taxes] = await Promise.all([
    db
      .select()
      .from(expenseTypes)
      .where(and(eq(expenseTypes.companyId, report.companyId), eq(expenseTypes.active, true)))
      .orderBy(asc(expenseTypes.nameKey)),
    db
      .select()
      .from(mileageRates)
      .where(
        and(
          eq(mileageRates.companyId, report.companyId),
          eq(mileageRates.active, true),
          eq(mileageRates.currency, report.currency),
        ),
      )
      .orderBy(asc(mileageRates.nameKey)),
    db
      .select()
      .from(taxRates)
      .where(and(eq(taxRates.companyId, report.companyId), eq(taxRates.active, true)))
      .orderBy(asc(taxRates.nameKey)),
  ]);
  return {
    types: types.map((t) => ({
      id: t.id,
      name: t.name,
      category: t.category as 'general' | 'mileage',
      properties: t.properties,
    })),
    mileageRates: rates.map((r) => ({
      id: r.id,
      name: r.name,
      unit: r.unit as 'km' | 'mi',
      rate: decimalOfScaled(r.rateE4, EXPENSE_LIMITS.mileageRateDecimals),
    })),
    taxRates: taxes.map((r) => ({
      id: r.id,
      name: r.name,
      rate: decimalOfScaled(r.rateE3, EXPENSE_LIMITS.taxRateDecimals),
    })),
  };
}
