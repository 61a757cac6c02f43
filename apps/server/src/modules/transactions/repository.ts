import type { CallerScope, TransactionFilter } from '@cardportal/domain';
import { and, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { containsPattern } from '../../db/rows.ts';
import { accounts, cardholders, companies, issuers, spendMonths, transactions } from '../../db/schema.ts';
import {
  countUpTo,
  cursorForPage,
  type Keyset,
  type KeysetPage,
  keysetPage,
  type PageRequest,
} from '../../kernel/paging.ts';
import { accountScope, issuerScope, transactionScope } from '../access/index.ts';

/**
 * The Transaction Summary's queries (docs/transactions.md): always inside the caller's scope
 * (transactionScope, SQL), filtered, and paged by (transaction date, id) — the order of the scope's
 * index — newest or oldest first.
 */

function where(caller: CallerScope, filter: TransactionFilter, scoped = true): SQL {
  const q = filter.q;
  return and(
    scoped ? transactionScope(caller) : undefined,
    filter.from ? gte(transactions.transactionDate, filter.from) : undefined,
    filter.to ? lte(transactions.transactionDate, filter.to) : undefined,
    filter.accountId !== undefined ? eq(transactions.accountId, filter.accountId) : undefined,
    filter.status ? eq(transactions.status, filter.status) : undefined,
    filter.currency ? eq(transactions.currency, filter.currency) : undefined,
    filter.min !== undefined ? gte(transactions.amount, filter.min) : undefined,
    filter.max !== undefined ? lte(transactions.amount, filter.max) : undefined,
    filter.mcc ? eq(transactions.mcc, filter.mcc) : undefined,
    q
      ? filter.lastFour
        ? sql`${transactions.accountId} in (select id from ${accounts} where last4 = ${q})`
        : or(ilike(transactions.merchantName, containsPattern(q)), eq(transactions.reference, q))
      : undefined,
  ) as SQL;
}

/** The columns a transaction row is read with (the Summary, the detail, the export file). */
export const transactionColumns = {
  id: transactions.id,
  reference: transactions.reference,
  transactionDate: transactions.transactionDate,
  postingDate: transactions.postingDate,
  merchantName: transactions.merchantName,
  merchantCity: transactions.merchantCity,
  merchantCountry: transactions.merchantCountry,
  mcc: transactions.mcc,
  amount: transactions.amount,
  currency: transactions.currency,
  tax: transactions.tax,
  status: transactions.status,
  exportedAt: transactions.exportedAt,
  splitLines: transactions.splitLines,
  disputedAt: transactions.disputedAt,
  accountId: transactions.accountId,
  bin: accounts.bin,
  numberLength: accounts.numberLength,
  last4: accounts.last4,
  /** The issuer's "account digits to display" (issue 15 item 1), for the masked number. */
  accountDigits:
    sql<number>`(select i.account_digits from issuers i where i.id = "transactions"."issuer_id")`.mapWith(
      Number,
    ),
  cardholderName1: cardholders.name1,
  cardholderName2: cardholders.name2,
  /** A real card's alias (real_cards_account_key: one probe per row shown). */
  realCardAlias: sql<
    string | null
  >`(select rc.alias from real_cards rc where rc.account_id = "transactions"."account_id")`,
};

export type TransactionRow = {
  id: number;
  reference: string;
  transactionDate: string;
  postingDate: string;
  merchantName: string;
  merchantCity: string;
  merchantCountry: string;
  mcc: string;
  amount: bigint;
  currency: string;
  tax: bigint;
  status: string;
  exportedAt: Date | null;
  splitLines: number;
  disputedAt: Date | null;
  accountId: number;
  bin: string | null;
  numberLength: number | null;
  last4: string;
  accountDigits: number;
  cardholderName1: string | null;
  cardholderName2: string | null;
  realCardAlias: string | null;
};

const select = (db: Executor) =>
  db
    .select(transactionColumns)
    .from(transactions)
    .innerJoin(accounts, eq(accounts.id, transactions.accountId))
    .leftJoin(cardholders, eq(cardholders.id, accounts.cardholderId))
    .$dynamic();

const keysetOf = (order: TransactionFilter['order']): Keyset<TransactionRow> => ({
  list: `transactions-${order}`,
  keys: [
    { expr: transactions.transactionDate, type: 'date' },
    { expr: transactions.id, type: 'int' },
  ],
  direction: order === 'oldest' ? 'asc' : 'desc',
  keyOf: (row) => [row.transactionDate, row.id],
});

/** Types whose scope is a set of accounts inside their company (accountScope): A, O, S. */
const ACCOUNT_SCOPED = new Set(['A', 'O', 'S']);

/**
 * How many transactions match, counted up to `cap + 1`. A cardholder's or a manager's scope is a set
 * of accounts: counted card by card on `transactions_account_date_idx`, stopping at `cap + 1` in all,
 * rather than by walking the whole company's index for the few cards in scope (bench/summary.ts:
 * a level manager's list at 1,000,000 went from 58 to 13 ms p95).
 */
export async function countTransactions(
  db: Executor,
  caller: CallerScope,
  filter: TransactionFilter,
  cap: number,
): Promise<number> {
  if (ACCOUNT_SCOPED.has(caller.type) && caller.companyId) {
    // The outer limit stops the whole walk at cap + 1 rows, card after card.
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (
        select 1 from ${accounts}
        cross join lateral (
          select 1 from ${transactions}
           where ${transactions.accountId} = ${accounts.id} and ${where(caller, filter, false) ?? sql`true`}
           limit ${cap + 1}) one_card
        where ${accountScope(caller, caller.companyId)}
        limit ${cap + 1}) counted`,
    );
    return Math.min(Number(row?.n ?? 0), cap + 1);
  }
  return countUpTo(db, cap, (limit) =>
    db.select({ one: sql`1` }).from(transactions).where(where(caller, filter)).limit(limit).as('counted'),
  );
}

/** One page of the matching transactions, by key; `page` (a jump) places it by position instead. */
export async function pageOfTransactions(
  db: Executor,
  caller: CallerScope,
  filter: TransactionFilter,
  request: PageRequest & { page?: number | undefined },
): Promise<KeysetPage<TransactionRow>> {
  const keyset = keysetOf(filter.order);
  const condition = where(caller, filter);
  let after = request.after;
  if (request.page !== undefined && request.page > 1)
    after = await cursorForPage(keyset, request.page, request.limit, () => select(db).where(condition));
  const position = request.page !== undefined ? { after, limit: request.limit } : request;
  if (ACCOUNT_SCOPED.has(caller.type) && caller.companyId) {
    // A set of cards: the page's candidates are each card's first rows past the position, read from
    // transactions_account_date_idx in key order (at most cards × page rows), then ordered and cut —
    // never every transaction of the cards sorted (bench/summary.ts).
    const companyId = caller.companyId;
    const ascending = (filter.order === 'oldest') !== (position.before !== undefined);
    const direction = sql.raw(ascending ? 'asc' : 'desc');
    return keysetPage(keyset, position, (beyond) =>
      select(db).where(
        sql`${transactions.id} = any(array(
          select per.id from ${accounts}
          cross join lateral (
            select ${transactions.id} as id from ${transactions}
             where ${transactions.accountId} = ${accounts.id}
               and ${where(caller, filter, false) ?? sql`true`} and ${beyond ?? sql`true`}
             order by ${transactions.transactionDate} ${direction}, ${transactions.id} ${direction}
             limit ${position.limit + 1}) per
          where ${accountScope(caller, companyId)}))`,
      ),
    );
  }
  return keysetPage(keyset, position, (beyond) => select(db).where(and(condition, beyond)));
}

/** One transaction in the caller's scope, with its company and when it came in (locked for update on request). */
export async function findTransaction(db: Executor, caller: CallerScope, id: number, lock = false) {
  const query = db
    .select({
      ...transactionColumns,
      companyId: transactions.companyId,
      issuerId: transactions.issuerId,
      companyNumber: companies.number,
      companyName: companies.name1,
      importedAt: transactions.createdAt,
    })
    .from(transactions)
    .innerJoin(accounts, eq(accounts.id, transactions.accountId))
    .leftJoin(cardholders, eq(cardholders.id, accounts.cardholderId))
    .innerJoin(companies, eq(companies.id, transactions.companyId))
    .where(and(eq(transactions.id, id), transactionScope(caller)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: transactions }) : await query;
  return row;
}

/** Moves a transaction to its next status. */
export const setTransactionStatus = (db: Executor, id: number, status: string) =>
  db.update(transactions).set({ status, updatedAt: sql`now()` }).where(eq(transactions.id, id));

/** The spend roll-up's copies of the scope columns (access/scopes.ts transactionScope). */
const spendScope = (caller: CallerScope) =>
  transactionScope(caller, {
    issuerId: spendMonths.issuerId,
    companyId: spendMonths.companyId,
    accountId: spendMonths.accountId,
  });

/**
 * Transactions per currency in scope since `from` (the first day of a month), most first: from the
 * roll-up `spend_months` (migration 0012), whose rows a scope reads by its company or issuer index.
 */
export function currenciesSince(db: Executor, caller: CallerScope, from: string) {
  return db
    .select({ currency: spendMonths.currency, count: sql<number>`sum(${spendMonths.count})::int` })
    .from(spendMonths)
    .where(and(spendScope(caller), gte(spendMonths.month, from)))
    .groupBy(spendMonths.currency)
    .orderBy(sql`2 desc`, spendMonths.currency);
}

/**
 * Net spend of one currency in scope since `from` (the first day of a month), by month and merchant
 * category code (sums as text): from the roll-up, tens of rows per card a month instead of every
 * transaction (bench/summary.ts: the spend picture at 10,000,000 transactions).
 */
export function spendSince(db: Executor, caller: CallerScope, from: string, currency: string) {
  return db
    .select({
      month: sql<string>`to_char(${spendMonths.month}, 'YYYY-MM')`,
      mcc: spendMonths.mcc,
      minor: sql<string>`sum(${spendMonths.minor})::text`,
      count: sql<number>`sum(${spendMonths.count})::int`,
    })
    .from(spendMonths)
    .where(and(spendScope(caller), gte(spendMonths.month, from), eq(spendMonths.currency, currency)))
    .groupBy(sql`1`, spendMonths.mcc);
}

/**
 * The number of the issuer an upload is for, inside the caller's scope: the one asked for, or with
 * none asked the caller's only issuer (an issuer administrator's own). Undefined: not in scope.
 */
export async function issuerNumberInScope(
  db: Executor,
  caller: CallerScope,
  asked: string | undefined,
): Promise<string | undefined> {
  const rows = await db
    .select({ number: issuers.number })
    .from(issuers)
    .where(and(issuerScope(caller), asked !== undefined ? eq(issuers.number, asked) : undefined))
    .limit(2);
  return rows.length === 1 ? rows[0]?.number : undefined;
}
