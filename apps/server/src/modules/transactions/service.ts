import {
  type CallerScope,
  checkDispute,
  checkPageJump,
  checkPurchaseDetailsEdit,
  checkSearchCriteria,
  checkSplit,
  checkTransactionStep,
  currencyExponent,
  type DisputeBody,
  formatMoney,
  ISSUER_CODE_LIMITS,
  type IssuerCodeList,
  isIsoDate,
  isLastFourSearch,
  LIMITS,
  type Money,
  maskCardParts,
  may,
  mccCategory,
  pageCount,
  parseMinorUnits,
  SPEND_CATEGORIES,
  SPEND_MONTHS,
  type SpendCategory,
  type SpendSummary,
  type SplitBody,
  type SplitLine,
  TRANSACTION_STATUSES,
  TRANSACTION_STEP_NAMES,
  TRANSACTION_STEPS,
  type TransactionDetail,
  type TransactionFilter,
  type TransactionImportResult,
  type TransactionList,
  type TransactionQuery,
  type TransactionStatus,
  type TransactionStep,
  type TransactionSummary,
} from '@cardportal/domain';
import type { Database, Db, Executor } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import type { CardVault } from '../../kernel/card-vault.ts';
import { enqueueMail } from '../../kernel/outbox.ts';
import { carriesVirusSignature, virusFound } from '../../kernel/uploads.ts';
import { findIssuerCode, isFeatureOn, issuerCodesOf } from '../issuers/index.ts';
import { composeMail, type MailTexts } from '../mail/index.ts';
import {
  companyAdministrators,
  disputeOf,
  insertDispute,
  replaceSplit,
  splitLinesOf,
} from './changes-repository.ts';
import { formatOf } from './file-records.ts';
import { importTransactions } from './import.ts';
import { type FoundTransaction, refuseIfClosed, transactionInScope } from './lookup.ts';
import {
  countTransactions,
  currenciesSince,
  issuerNumberInScope,
  pageOfTransactions,
  setTransactionStatus,
  spendSince,
  type TransactionRow,
} from './repository.ts';

/**
 * The Transaction Summary (issue 15 item 3, docs/transactions.md): every user type within its scope —
 * the scope is SQL (transactionScope), so a filter never reaches another tenant's rows; an account id
 * out of scope simply matches nothing. Every filter is checked and a wrong one named (400, field error
 * keys); money is compared in minor units of the currency named.
 */

const money = (minor: bigint, currency: string): Money => ({
  minor: minor.toString(),
  currency,
  exponent: currencyExponent(currency) ?? 2,
});

/** The one place a transaction row becomes an answer: the card only masked. */
export function toTransaction(row: TransactionRow): TransactionSummary {
  const masked =
    row.bin !== null && row.numberLength !== null
      ? maskCardParts(
          { bin: row.bin, last4: row.last4, length: row.numberLength },
          { lastDigits: row.accountDigits },
        )
      : '*'.repeat(12);
  return {
    id: row.id,
    reference: row.reference,
    transactionDate: row.transactionDate,
    postingDate: row.postingDate,
    merchantName: row.merchantName,
    merchantCity: row.merchantCity,
    merchantCountry: row.merchantCountry,
    mcc: row.mcc,
    category: mccCategory(row.mcc),
    amount: money(row.amount, row.currency),
    tax: money(row.tax, row.currency),
    status: row.status as TransactionStatus,
    exported: row.exportedAt !== null,
    split: row.splitLines > 0,
    disputed: row.disputedAt !== null,
    account: {
      id: row.accountId,
      maskedNumber: masked,
      cardholderName: [row.cardholderName1, row.cardholderName2].filter(Boolean).join(' '),
      alias: row.realCardAlias,
    },
  };
}

/** The query's filters, checked: every wrong one named at once (400). */
export function toFilter(query: TransactionQuery): TransactionFilter {
  const errors: Record<string, string> = {};
  const filter: TransactionFilter = { order: 'newest' };
  const text = (value: string | undefined) => value?.trim() || undefined;
  const from = text(query.from);
  const to = text(query.to);
  if (from !== undefined) {
    if (isIsoDate(from)) filter.from = from;
    else errors.from = 'date.invalid';
  }
  if (to !== undefined) {
    if (isIsoDate(to)) filter.to = to;
    else errors.to = 'date.invalid';
  }
  if (filter.from && filter.to && filter.from > filter.to) errors.to = 'dateRange.fromAfterTo';
  const account = text(query.account);
  if (account !== undefined) {
    if (/^\d{1,9}$/.test(account)) filter.accountId = Number(account);
    else errors.account = 'transactions.filter.account';
  }
  const status = text(query.status);
  if (status !== undefined) {
    const known = TRANSACTION_STATUSES.find((s) => s.toLowerCase() === status.toLowerCase());
    if (known) filter.status = known;
    else errors.status = 'status.invalid';
  }
  const currency = text(query.currency)?.toUpperCase();
  if (currency !== undefined) {
    if (currencyExponent(currency) !== undefined) filter.currency = currency;
    else errors.currency = 'money.currency.unknown';
  }
  for (const bound of ['min', 'max'] as const) {
    const value = text(query[bound]);
    if (value === undefined) continue;
    if (currency === undefined) {
      errors.currency = 'transactions.filter.currencyRequired';
      continue;
    }
    if (!filter.currency) continue;
    const parsed = parseMinorUnits(value, filter.currency);
    if ('problem' in parsed) errors[bound] = parsed.problem;
    else filter[bound] = parsed.minor;
  }
  if (filter.min !== undefined && filter.max !== undefined && filter.min > filter.max)
    errors.max = 'money.range.minAboveMax';
  const mcc = text(query.mcc);
  if (mcc !== undefined) {
    if (/^\d{4}$/.test(mcc)) filter.mcc = mcc;
    else errors.mcc = 'transaction.mcc.format';
  }
  const q = text(query.q);
  if (q !== undefined) {
    if (isLastFourSearch(q)) {
      filter.q = q;
      filter.lastFour = true;
    } else {
      const problem = checkSearchCriteria(q);
      if (problem) errors.q = problem;
      else filter.q = q;
    }
  }
  const order = text(query.order);
  if (order !== undefined) {
    if (order === 'newest' || order === 'oldest') filter.order = order;
    else errors.order = 'transactions.filter.order';
  }
  const [first] = Object.entries(errors);
  if (first) throw new AppError('invalid', first[1], { fieldErrors: errors });
  return filter;
}

const STEP_EVENTS = {
  review: 'transaction.reviewed',
  approve: 'transaction.approved',
  lock: 'transaction.locked',
} as const;

/** What filing a dispute needs besides the database: composing its mail, and waking the mail worker. */
export interface DisputeMail {
  texts: MailTexts;
  kick: () => void;
}

export class TransactionService {
  constructor(
    private readonly db: Db,
    private readonly bulk?: { database: Database; vault: () => CardVault },
    private readonly mail?: DisputeMail,
  ) {}

  /**
   * A transaction file uploaded in the application (issue 15 item 2; ≤ 4 MB — the CLI takes larger):
   * refused as infected (EICAR), as not text, or by the import itself (DESIGN §7: all or nothing, a
   * report by line and field); the file's issuer is the caller's own for an issuer administrator, one
   * of its group's for an issuer group administrator. The content decides CSV or XML, not the name.
   */
  async importFile(
    caller: Caller,
    file: Uint8Array,
    query: { name?: string | undefined; issuer?: string | undefined },
    ip: string,
  ): Promise<TransactionImportResult> {
    if (!this.bulk) throw new Error('the import needs the database and the card vault');
    if (carriesVirusSignature(file)) throw virusFound();
    let head: string;
    try {
      head = new TextDecoder('utf-8', { fatal: true }).decode(
        file.subarray(0, Math.min(file.byteLength, 64 * 1024)),
      );
    } catch {
      head = '\u0000';
    }
    if (head.includes('\u0000'))
      throw new AppError('unsupported', 'upload.unsupportedFormat', {
        message: 'Invalid or Unsupported File Format',
      });
    const issuerNumber = await this.issuerOf(caller, query.issuer?.trim() || undefined);
    const fileName = query.name?.trim() || 'upload';
    const report = await importTransactions(this.bulk.database, this.bulk.vault(), [Buffer.from(file)], {
      format: formatOf('', head),
      fileName,
      issuerNumber,
      byUserPk: caller.accessedBy?.pk ?? caller.userPk,
    });
    const counts = {
      rows: report.rows,
      imported: report.imported,
      duplicates: report.duplicates,
      rejected: report.rejected,
    };
    await auditAdmin(
      this.db,
      report.outcome === 'imported' ? 'transactions.imported' : 'transactions.refused',
      {
        actor: caller,
        entity: 'transactionImport',
        entityId: report.importId !== undefined ? String(report.importId) : fileName,
        ip,
        detail: {
          file: fileName,
          sha256: report.fileSha256,
          format: report.format,
          ...counts,
          ...(report.fileProblem ? { problem: report.fileProblem.problem } : {}),
        },
      },
    );
    if (report.outcome === 'refused') {
      const code = report.fileProblem?.problem ?? 'upload.rows';
      throw new AppError('unprocessable', code, {
        message: 'The file has errors, so nothing was changed',
        rows: (report.fileProblem
          ? [{ line: report.fileProblem.line ?? 0, field: '', problem: report.fileProblem.problem }]
          : report.problems
        ).map((p) => ({ row: p.line, field: p.field ?? '', problem: p.problem })),
        extra: {
          read: report.rows,
          imported: report.imported,
          duplicates: report.duplicates,
          rejected: report.rejected,
        },
      });
    }
    return { ...counts, format: report.format, ignored: report.ignored };
  }

  /** The issuer a caller's upload is for (its number), or undefined: any (the system administrator). */
  private async issuerOf(caller: Caller, asked: string | undefined): Promise<string | undefined> {
    if (caller.type === 'Z') return asked;
    if (caller.type === 'H' && !asked)
      throw new AppError('invalid', 'transactions.issuer.required', {
        message: 'Choose the issuer the file comes from',
        fieldErrors: { issuer: 'transactions.issuer.required' },
      });
    const number = await issuerNumberInScope(this.db, caller, asked);
    if (!number)
      throw new AppError('notFound', 'transactions.issuer.unknown', {
        message: 'There is no issuer with this number',
        fieldErrors: { issuer: 'transactions.issuer.unknown' },
      });
    return number;
  }

  async list(caller: CallerScope, query: TransactionQuery): Promise<TransactionList> {
    const filter = toFilter(query);
    const pageSize = LIMITS.searchPageSize;
    const cap = LIMITS.transactionResultMax;
    const counted = await countTransactions(this.db, caller, filter, cap);
    const tooLarge = counted > cap;
    const total = Math.min(counted, cap);
    const pages = pageCount(total, pageSize);
    let page: number | undefined;
    if (query.page !== undefined && query.page.trim() !== '') {
      const jump = checkPageJump(query.page, pages);
      if (jump.problem) throw new AppError('invalid', jump.problem, { fieldErrors: { page: jump.problem } });
      page = jump.page;
    }
    const found = await pageOfTransactions(this.db, caller, filter, {
      after: query.after,
      before: query.before,
      limit: pageSize,
      page,
    });
    return {
      rows: found.rows.map(toTransaction),
      nextCursor: found.nextCursor,
      prevCursor: found.prevCursor,
      total,
      tooLarge,
      page: page ?? (query.after === undefined && query.before === undefined ? 1 : 0),
      pageCount: pages,
      pageSize,
    };
  }

  /**
   * The spend picture (issue 15 item 8): net spend of one currency over this month and the five before,
   * by month and by merchant category, summed in minor units (bigint) — every month present, zero when
   * nothing was spent. Amounts of different currencies are never added together.
   */
  async spend(
    caller: CallerScope,
    currencyText: string | undefined,
    today = new Date(),
  ): Promise<SpendSummary> {
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (SPEND_MONTHS - 1), 1));
    const from = first.toISOString().slice(0, 10);
    const to = today.toISOString().slice(0, 10);
    const currencies = await currenciesSince(this.db, caller, from);
    let currency = currencies[0]?.currency ?? null;
    const asked = currencyText?.trim().toUpperCase();
    if (asked) {
      if (currencyExponent(asked) === undefined)
        throw new AppError('invalid', 'money.currency.unknown', {
          fieldErrors: { currency: 'money.currency.unknown' },
        });
      currency = asked;
    }
    const months = Array.from({ length: SPEND_MONTHS }, (_, i) =>
      new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1)).toISOString().slice(0, 7),
    );
    const byMonth = new Map(months.map((m) => [m, { minor: 0n, count: 0 }]));
    const byCategory = new Map<SpendCategory, { minor: bigint; count: number }>();
    if (currency) {
      for (const row of await spendSince(this.db, caller, from, currency)) {
        const minor = BigInt(row.minor);
        const month = byMonth.get(row.month);
        if (month) {
          month.minor += minor;
          month.count += row.count;
        }
        const category = mccCategory(row.mcc);
        const sum = byCategory.get(category) ?? { minor: 0n, count: 0 };
        sum.minor += minor;
        sum.count += row.count;
        byCategory.set(category, sum);
      }
    }
    return {
      currencies: currencies.map((c) => ({ currency: c.currency, count: c.count })),
      currency,
      exponent: currency ? (currencyExponent(currency) ?? 2) : 2,
      from,
      to,
      byMonth: months.map((month) => {
        const sum = byMonth.get(month) ?? { minor: 0n, count: 0 };
        return { month, minor: sum.minor.toString(), count: sum.count };
      }),
      byCategory: SPEND_CATEGORIES.flatMap((category) => {
        const sum = byCategory.get(category);
        return sum ? [{ category, minor: sum.minor.toString(), count: sum.count }] : [];
      }).sort((a, b) => (BigInt(b.minor) > BigInt(a.minor) ? 1 : BigInt(b.minor) < BigInt(a.minor) ? -1 : 0)),
    };
  }

  async get(caller: Caller, idText: string): Promise<TransactionDetail> {
    const row = await this.find(this.db, caller, idText);
    return this.detail(this.db, caller, row);
  }

  /**
   * One step of a transaction's life (seed 001 §4): the route has checked the caller's type and role
   * permission (the step's action); here, inside one database transaction with the row locked, the
   * company's program option and the status's order (reviewed before approved, approved before
   * locked), then the change and its audit row.
   */
  async step(caller: Caller, idText: string, step: TransactionStep, ip: string): Promise<TransactionDetail> {
    return this.db.transaction(async (tx) => {
      const row = await this.find(tx, caller, idText, true);
      if (!(await isFeatureOn(tx, row.companyId, 'transactionApproval')))
        throw new AppError('forbidden', 'programOption.disabled', {
          message: 'Transaction review and approval is switched off for this company (program option)',
        });
      const problem = checkTransactionStep(row.status as TransactionStatus, step);
      if (problem)
        throw new AppError('conflict', problem, { message: `Cannot ${step} a ${row.status} transaction` });
      const next = TRANSACTION_STEPS[step].to;
      await setTransactionStatus(tx, row.id, next);
      await auditAdmin(tx, STEP_EVENTS[step], {
        actor: caller,
        entity: 'transaction',
        entityId: row.reference,
        changes: { status: { before: row.status, after: next } },
        ip,
        detail: { transactionId: row.id },
      });
      return this.detail(tx, caller, { ...row, status: next }, true);
    });
  }

  private find(db: Executor, caller: CallerScope, idText: string, lock = false) {
    return transactionInScope(db, caller, idText, lock);
  }

  private async detail(
    db: Executor,
    caller: Caller,
    row: FoundTransaction,
    /** The company's transactionApproval option, when the caller has just read it. */
    optionOn?: boolean,
  ): Promise<TransactionDetail> {
    const stepsByType = TRANSACTION_STEP_NAMES.filter(
      (step) =>
        may(caller, TRANSACTION_STEPS[step].action) &&
        !checkTransactionStep(row.status as TransactionStatus, step),
    );
    const steps =
      stepsByType.length > 0 && (optionOn ?? (await isFeatureOn(db, row.companyId, 'transactionApproval')))
        ? stepsByType
        : [];
    const summary = toTransaction(row);
    const editBlocked = checkPurchaseDetailsEdit(summary.status, summary.exported) ?? null;
    const splits = row.splitLines > 0 ? await splitLinesOf(db, row.id) : [];
    const dispute = row.disputedAt !== null ? await disputeOf(db, row.id) : undefined;
    const canDispute =
      !dispute && may(caller, 'disputeTransactions') && (await isFeatureOn(db, row.companyId, 'disputes'));
    return {
      ...summary,
      companyNumber: row.companyNumber,
      companyName: row.companyName,
      importedAt: row.importedAt.toISOString(),
      steps,
      splits: splits.map((line) => ({
        line: line.line,
        amount: money(line.amount, row.currency),
        tax: money(line.tax, row.currency),
        description: line.description,
      })),
      canSplit: editBlocked === null && may(caller, 'splitTransactions'),
      editBlocked,
      dispute: dispute
        ? {
            status: dispute.status as 'Submitted',
            reasonCode: dispute.reasonCode,
            reasonDescription: dispute.reasonDescription,
            amount: money(dispute.amount, row.currency),
            explanation: dispute.explanation,
            submittedAt: dispute.submittedAt.toISOString(),
            submittedBy: dispute.submittedBy,
          }
        : null,
      canDispute,
    };
  }

  /**
   * Splits a transaction into 2–100 lines (issue 15 item 5), or changes its split: the lines in major
   * units of its currency, parsed to minor units and checked by packages/domain checkSplit — every
   * line's problem named (`lines.{i}.{field}`), the totals exact ("Split amount does not total up").
   * Not while locked or exported (seed 001 §4). In one database transaction with the row locked.
   */
  async split(caller: Caller, idText: string, body: SplitBody, ip: string): Promise<TransactionDetail> {
    return this.db.transaction(async (tx) => {
      const row = await this.find(tx, caller, idText, true);
      this.checkEditable(row);
      const errors: Record<string, string> = {};
      const lines: SplitLine[] = body.lines.map((line, index) => {
        const parse = (field: 'amount' | 'tax', text: string | undefined) => {
          if (field === 'tax' && (text ?? '').trim() === '') return 0n;
          const parsed = parseMinorUnits(text ?? '', row.currency);
          if ('minor' in parsed) return parsed.minor;
          errors[`lines.${index}.${field}`] = parsed.problem;
          return 0n;
        };
        return {
          amount: parse('amount', line.amount),
          tax: parse('tax', line.tax),
          description: (line.description ?? '').trim(),
        };
      });
      const checked = checkSplit({ amount: row.amount, tax: row.tax }, lines);
      for (const p of checked.lines) errors[`lines.${p.index}.${p.field}`] ??= p.problem;
      if (checked.problem && Object.keys(errors).length === 0) errors.lines = checked.problem;
      const [first] = Object.entries(errors);
      if (first) {
        const message =
          first[1] === 'transactions.split.total' ? 'Split amount does not total up' : undefined;
        throw new AppError('invalid', first[1], { fieldErrors: errors, ...(message ? { message } : {}) });
      }
      const before = row.splitLines;
      await replaceSplit(tx, row.id, lines);
      await auditAdmin(tx, 'transaction.split', {
        actor: caller,
        entity: 'transaction',
        entityId: row.reference,
        changes: { lines: { before, after: lines.length } },
        ip,
        detail: {
          transactionId: row.id,
          currency: row.currency,
          lines: lines.map((l) => ({ amount: l.amount.toString(), tax: l.tax.toString() })),
        },
      });
      return this.detail(tx, caller, { ...row, splitLines: lines.length });
    });
  }

  /** Unsplit (issue 15 item 5): the transaction as it came, its lines gone; not while locked or exported. */
  async unsplit(caller: Caller, idText: string, ip: string): Promise<TransactionDetail> {
    return this.db.transaction(async (tx) => {
      const row = await this.find(tx, caller, idText, true);
      this.checkEditable(row);
      if (row.splitLines === 0)
        throw new AppError('conflict', 'transactions.split.notSplit', {
          message: 'The transaction is not split',
        });
      await replaceSplit(tx, row.id, []);
      await auditAdmin(tx, 'transaction.unsplit', {
        actor: caller,
        entity: 'transaction',
        entityId: row.reference,
        changes: { lines: { before: row.splitLines, after: 0 } },
        ip,
        detail: { transactionId: row.id },
      });
      return this.detail(tx, caller, { ...row, splitLines: 0 });
    });
  }

  private checkEditable(row: FoundTransaction): void {
    refuseIfClosed(row);
  }

  /** The issuer's dispute reasons, for the form on one transaction the caller may dispute. */
  async disputeReasons(caller: Caller, idText: string): Promise<IssuerCodeList> {
    const row = await this.find(this.db, caller, idText);
    return {
      list: 'dispute-reasons',
      rows: await issuerCodesOf(this.db, row.issuerId, 'dispute'),
      canMaintain: false,
      max: ISSUER_CODE_LIMITS.perList,
    };
  }

  /**
   * Files a dispute on a transaction (issue 15 item 6): the company's `disputes` program option on, a
   * reason of the card's issuer, the amount disputed (default: all of it), an explanation. Written once —
   * it cannot be changed after submission (seed 001 §4; a second is 409) — with its audit row and a mail
   * to the company's program administrators in the same database transaction (the outbox).
   */
  async dispute(caller: Caller, idText: string, body: DisputeBody, ip: string): Promise<TransactionDetail> {
    const detail = await this.db.transaction(async (tx) => {
      const row = await this.find(tx, caller, idText, true);
      if (!(await isFeatureOn(tx, row.companyId, 'disputes')))
        throw new AppError('forbidden', 'programOption.disabled', {
          message: 'Disputes are switched off for this company (program option)',
        });
      if (row.disputedAt !== null)
        throw new AppError('conflict', 'dispute.alreadyFiled', {
          message: 'A dispute was filed on this transaction already; it cannot be changed',
        });
      // The amount disputed: all of it unless one is given (in major units of its currency).
      const amountText = (body.amount ?? '').trim();
      const parsed =
        amountText === ''
          ? { minor: row.amount < 0n ? -row.amount : row.amount }
          : parseMinorUnits(amountText, row.currency);
      const amount = 'minor' in parsed ? parsed.minor : undefined;
      const errors: Record<string, string> = {
        ...checkDispute({ reason: body.reason, amount, explanation: body.explanation }, row.amount),
        ...('problem' in parsed ? { amount: parsed.problem } : {}),
      };
      const reason = errors.reason
        ? undefined
        : await findIssuerCode(tx, row.issuerId, 'dispute', body.reason);
      if (!errors.reason && !reason) errors.reason = 'dispute.reason.unknown';
      const [first] = Object.entries(errors);
      if (first || !reason || amount === undefined)
        throw new AppError('invalid', first?.[1] ?? 'form.invalid', { fieldErrors: errors });
      const explanation = body.explanation.trim();
      const filed = await insertDispute(tx, {
        transactionId: row.id,
        reasonCode: reason.code,
        reasonDescription: reason.description,
        amount,
        explanation,
        byUserPk: caller.accessedBy?.pk ?? caller.userPk,
      });
      if (!filed)
        throw new AppError('conflict', 'dispute.alreadyFiled', {
          message: 'A dispute was filed on this transaction already; it cannot be changed',
        });
      await auditAdmin(tx, 'transaction.disputed', {
        actor: caller,
        entity: 'transaction',
        entityId: row.reference,
        ip,
        detail: {
          transactionId: row.id,
          reason: reason.code,
          amount: amount.toString(),
          currency: row.currency,
        },
      });
      if (this.mail) await this.mailDispute(tx, caller, row, reason, amount);
      return this.detail(tx, caller, { ...row, disputedAt: new Date() });
    });
    this.mail?.kick();
    return detail;
  }

  private async mailDispute(
    tx: Executor,
    caller: Caller,
    row: FoundTransaction,
    reason: { code: string; description: string },
    amount: bigint,
  ): Promise<void> {
    const mail = this.mail;
    if (!mail) return;
    const card = toTransaction(row).account.maskedNumber;
    for (const admin of await companyAdministrators(tx, row.companyId)) {
      const composed = await composeMail(
        mail.texts,
        'dispute-filed',
        admin,
        { cobrand: admin.cobrand, locale: admin.locale },
        [
          row.reference,
          row.merchantName,
          row.transactionDate,
          card,
          formatMoney(amount, row.currency, admin.locale.replace('_', '-')),
          `${reason.code} ${reason.description}`,
          caller.accessedBy?.userId ?? caller.userId,
        ],
        tx,
      );
      await enqueueMail(tx, composed);
    }
  }
}
