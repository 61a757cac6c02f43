import {
  ACCOUNT_LIST_ORDER,
  type AccountSort,
  CARDHOLDER_LIST_ORDER,
  type CallerScope,
  type CardholderSort,
  OPEN_EXPENSE_REPORT_STATUSES,
  type SortDirection,
} from '@cardportal/domain';
import { and, asc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containsPattern, insertRow, lockById, updateById } from '../../db/rows.ts';
import {
  accountGroups,
  accounts,
  cardholderReasons,
  cardholders,
  companies,
  expenseReports,
  issuerCodes,
  issuers,
  orgPoints,
  users,
} from '../../db/schema.ts';
import {
  countUpTo,
  type KeysetPage,
  keysetPage,
  type PageRequest,
  type SortKey,
  sortedKeyset,
} from '../../kernel/paging.ts';
import { accountGroupScope, accountScope, cardholderScope, companyScope } from '../access/index.ts';

/**
 * Cardholders, card accounts and account groups of one company, always inside the caller's scope
 * (docs/authorization.md, "Accounts and cardholders"): the company must lie in the caller's scope, and
 * inside it O sees its org subtree, S its account group, A its own cardholder. Every condition is SQL,
 * so another tenant's rows are never loaded. Conditions fail closed (a missing scope column: nothing).
 */

export type CompanyRef = { id: number; number: string; issuerId: number };

export async function findCompanyInScope(
  db: Executor,
  caller: CallerScope,
  number: string,
): Promise<CompanyRef | undefined> {
  const [row] = await db
    .select({ id: companies.id, number: companies.number, issuerId: companies.issuerId })
    .from(companies)
    .innerJoin(issuers, eq(issuers.id, companies.issuerId))
    .where(and(eq(companies.number, number), companyScope(caller)))
    .limit(1);
  return row;
}

/** Cardholder name condition (name 1, name 2, or both as one). */
const nameMatches = (q: string): SQL =>
  or(
    ilike(cardholders.name1, containsPattern(q)),
    ilike(cardholders.name2, containsPattern(q)),
    sql`(${cardholders.name1} || ' ' || ${cardholders.name2}) ilike ${containsPattern(q)}`,
  ) as SQL;

// ---- Cardholders ----

export interface CardholderFilter {
  /** Name text, or the last four digits of one of its (visible) accounts. */
  q?: string | undefined;
  lastFour?: boolean;
  active?: boolean | undefined;
}

function cardholderWhere(caller: CallerScope, companyId: number, filter: CardholderFilter): SQL {
  const q = filter.q;
  return and(
    cardholderScope(caller, companyId),
    q
      ? filter.lastFour
        ? sql`exists (select 1 from accounts where accounts.cardholder_id = "cardholders"."id"
            and accounts.last4 = ${q} and ${accountScope(caller, companyId)})`
        : nameMatches(q)
      : undefined,
    filter.active === undefined ? undefined : eq(cardholders.active, filter.active),
  ) as SQL;
}

/** How many cardholders match, counted up to `cap + 1` ("Result set is too large" past `cap`). */
export function countCardholders(
  db: Executor,
  caller: CallerScope,
  companyId: number,
  filter: CardholderFilter,
  cap: number,
): Promise<number> {
  return countUpTo(db, cap, (limit) =>
    db
      .select({ one: sql`1` })
      .from(cardholders)
      .where(cardholderWhere(caller, companyId, filter))
      .limit(limit)
      .as('counted'),
  );
}

const cardholderColumns = (caller: CallerScope, companyId: number) => ({
  id: cardholders.id,
  name1: cardholders.name1,
  name2: cardholders.name2,
  active: cardholders.active,
  orgPointNumber: orgPoints.number,
  orgPointName: orgPoints.name1,
  // Qualified by hand: inside a subquery drizzle may print a bare column name.
  accountCount: sql<number>`(select count(*)::int from accounts
    where accounts.cardholder_id = "cardholders"."id" and ${accountScope(caller, companyId)})`,
});

export type CardholderRow = {
  id: number;
  name1: string;
  name2: string;
  active: boolean;
  orgPointNumber: string | null;
  orgPointName: string | null;
  accountCount: number;
};

const cardholderName = [
  { expr: cardholders.name2, type: 'text' },
  { expr: cardholders.name1, type: 'text' },
  { expr: cardholders.id, type: 'int' },
] as const;
const cardholderNameOf = (row: CardholderRow) => [row.name2, row.name1, row.id];

/**
 * The cardholder search's orders (docs/paging.md "Sorting"): by name 2, name 1 and id inside the
 * company (the index cardholders_company_idx, migration 0007), or by status (active first) then name
 * (a search is refused past LIMITS.searchMaxResults matches: at most that many sorted).
 */
const cardholderSorts: Record<CardholderSort, SortKey<CardholderRow>> = {
  name: { keys: [...cardholderName], keyOf: cardholderNameOf },
  status: {
    keys: [{ expr: sql`(not ${cardholders.active})::int`, type: 'int' }, ...cardholderName],
    keyOf: (row) => [row.active ? 0 : 1, ...cardholderNameOf(row)],
  },
};

/** One page of the company's cardholders matching the filter, in the chosen order, by key (docs/paging.md). */
export function pageOfCardholders(
  db: Executor,
  caller: CallerScope,
  companyId: number,
  filter: CardholderFilter,
  page: PageRequest,
  order: { sort: CardholderSort; dir: SortDirection } = CARDHOLDER_LIST_ORDER.default,
): Promise<KeysetPage<CardholderRow>> {
  const where = cardholderWhere(caller, companyId, filter);
  const keyset = sortedKeyset('cardholders', cardholderSorts, order, CARDHOLDER_LIST_ORDER.default);
  return keysetPage(keyset, page, (beyond) =>
    db
      .select(cardholderColumns(caller, companyId))
      .from(cardholders)
      .leftJoin(orgPoints, eq(orgPoints.id, cardholders.orgPointId))
      .where(and(where, beyond)),
  );
}

export async function findCardholder(
  db: Executor,
  caller: CallerScope,
  companyId: number,
  id: number,
  lock = false,
): Promise<(CardholderRow & { orgPointId: number | null }) | undefined> {
  const query = db
    .select({ ...cardholderColumns(caller, companyId), orgPointId: cardholders.orgPointId })
    .from(cardholders)
    .leftJoin(orgPoints, eq(orgPoints.id, cardholders.orgPointId))
    .where(and(eq(cardholders.id, id), cardholderScope(caller, companyId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: cardholders }) : await query;
  return row;
}

/** An active org point of the company by number (case-insensitive). */
export async function findOrgPoint(db: Executor, companyId: number, number: string) {
  const [row] = await db
    .select({ id: orgPoints.id, number: orgPoints.number, name1: orgPoints.name1 })
    .from(orgPoints)
    .where(
      and(
        eq(orgPoints.companyId, companyId),
        sql`lower(${orgPoints.number}) = lower(${number})`,
        eq(orgPoints.active, true),
      ),
    )
    .limit(1);
  return row;
}

/** Accounts of a cardholder that are not Closed (whatever the caller sees: a rule of the data). */
export async function openAccountsOf(db: Executor, cardholderId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(accounts)
    .where(and(eq(accounts.cardholderId, cardholderId), sql`${accounts.status} <> 'Closed'`));
  return Number(row?.n ?? 0);
}

/**
 * The cardholder's open expense reports (Saved, Held, Submitted, SentBack: packages/domain
 * OPEN_EXPENSE_REPORT_STATUSES). Seed 001 §6: "A cardholder with open expense reports cannot be deleted"
 * — here, deactivated (a cardholder is never deleted). Read here, on the expenses module's table, because
 * that module builds on this one (docs/expenses.md).
 */
export async function openExpenseReportsOf(db: Executor, cardholderId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(expenseReports)
    .where(
      and(
        eq(expenseReports.cardholderId, cardholderId),
        inArray(expenseReports.status, [...OPEN_EXPENSE_REPORT_STATUSES]),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The type-A user signed in as this cardholder, if any (the audit row's subject). */
export async function userOfCardholder(db: Executor, cardholderId: number | null): Promise<number | null> {
  if (!cardholderId) return null;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.cardholderId, cardholderId))
    .limit(1);
  return row?.id ?? null;
}

// ---- Accounts ----

export interface AccountFilter {
  q?: string | undefined;
  lastFour?: boolean;
  groupId?: number | undefined;
  status?: string | undefined;
  cardholderId?: number | undefined;
}

const accountColumns = {
  id: accounts.id,
  /** What is kept of the card number in the clear (the full number stays sealed: kernel/card-vault.ts). */
  bin: accounts.bin,
  numberLength: accounts.numberLength,
  last4: accounts.last4,
  /** The issuer's "account digits to display" (issue 15 item 1), for the masked number. */
  accountDigits: sql<number>`(select i.account_digits from issuers i
    where i.id = (select c.issuer_id from companies c where c.id = "accounts"."company_id"))`.mapWith(Number),
  status: accounts.status,
  statusCode: accounts.statusCode,
  /** The status code's description in the issuer's list (null when none, or since deleted). */
  statusCodeDescription: sql<string | null>`(select ic.description from issuer_codes ic
    where ic.kind = 'accountStatus' and ic.code = "accounts"."status_code"
      and ic.issuer_id = (select c.issuer_id from companies c where c.id = "accounts"."company_id"))`,
  groupId: accounts.accountGroupId,
  groupName: accountGroups.name,
  cardholderId: accounts.cardholderId,
  cardholderName1: cardholders.name1,
  cardholderName2: cardholders.name2,
  cardholderActive: cardholders.active,
  /** A real card's alias (real_cards_account_key: one probe per row shown). */
  realCardAlias: sql<
    string | null
  >`(select rc.alias from real_cards rc where rc.account_id = "accounts"."id")`,
};

export type AccountRow = {
  id: number;
  /** Null only for a number not yet sealed (before start-up's sealPlainCardNumbers). */
  bin: string | null;
  numberLength: number | null;
  last4: string;
  accountDigits: number;
  status: string;
  statusCode: string | null;
  statusCodeDescription: string | null;
  groupId: number | null;
  groupName: string | null;
  cardholderId: number | null;
  cardholderName1: string | null;
  cardholderName2: string | null;
  cardholderActive: boolean | null;
  realCardAlias: string | null;
};

function accountWhere(caller: CallerScope, companyId: number, filter: AccountFilter): SQL {
  const q = filter.q;
  return and(
    accountScope(caller, companyId),
    q ? (filter.lastFour ? eq(accounts.last4, q) : nameMatches(q)) : undefined,
    filter.groupId !== undefined ? eq(accounts.accountGroupId, filter.groupId) : undefined,
    filter.status ? eq(accounts.status, filter.status) : undefined,
    filter.cardholderId !== undefined ? eq(accounts.cardholderId, filter.cardholderId) : undefined,
  ) as SQL;
}

const selectAccounts = (db: Executor) =>
  db
    .select(accountColumns)
    .from(accounts)
    .leftJoin(accountGroups, eq(accountGroups.id, accounts.accountGroupId))
    .leftJoin(cardholders, eq(cardholders.id, accounts.cardholderId))
    .$dynamic();

/** How many accounts match, counted up to `cap + 1` ("Result set is too large" past `cap`). */
export function countAccounts(
  db: Executor,
  caller: CallerScope,
  companyId: number,
  filter: AccountFilter,
  cap: number,
): Promise<number> {
  return countUpTo(db, cap, (limit) =>
    db
      .select({ one: sql`1` })
      .from(accounts)
      .leftJoin(cardholders, eq(cardholders.id, accounts.cardholderId))
      .where(accountWhere(caller, companyId, filter))
      .limit(limit)
      .as('counted'),
  );
}

const byHolder = [
  { expr: sql`coalesce(${cardholders.name2}, '')`, type: 'text' },
  { expr: sql`coalesce(${cardholders.name1}, '')`, type: 'text' },
  { expr: accounts.last4, type: 'text' },
  { expr: accounts.id, type: 'int' },
] as const;
const holderOf = (row: AccountRow) => [
  row.cardholderName2 ?? '',
  row.cardholderName1 ?? '',
  row.last4,
  row.id,
];

/**
 * The account search's orders (docs/paging.md "Sorting"): by the cardholder's name 2 and name 1 (an
 * account without one: '' — first), last four and id; by last four and id; or by status then
 * cardholder. The names come from a join, so no index orders these keys: a search is refused past
 * LIMITS.searchMaxResults matches, so a page sorts at most that many rows.
 */
const accountSorts: Record<AccountSort, SortKey<AccountRow>> = {
  cardholder: { keys: [...byHolder], keyOf: holderOf },
  maskedNumber: {
    keys: [
      { expr: accounts.last4, type: 'text' },
      { expr: accounts.id, type: 'int' },
    ],
    keyOf: (row) => [row.last4, row.id],
  },
  status: {
    keys: [{ expr: accounts.status, type: 'text' }, ...byHolder],
    keyOf: (row) => [row.status, ...holderOf(row)],
  },
};

/** One page of the company's accounts matching the filter, in the chosen order, by key (docs/paging.md). */
export function pageOfAccounts(
  db: Executor,
  caller: CallerScope,
  companyId: number,
  filter: AccountFilter,
  page: PageRequest,
  order: { sort: AccountSort; dir: SortDirection } = ACCOUNT_LIST_ORDER.default,
): Promise<KeysetPage<AccountRow>> {
  const where = accountWhere(caller, companyId, filter);
  const keyset = sortedKeyset('accounts', accountSorts, order, ACCOUNT_LIST_ORDER.default);
  return keysetPage(keyset, page, (beyond) => selectAccounts(db).where(and(where, beyond)));
}

/** The accounts of one cardholder the caller may see (a handful), by last four, at most `limit`. */
export function visibleAccountsOfCardholder(
  db: Executor,
  caller: CallerScope,
  companyId: number,
  cardholderId: number,
  limit: number,
): Promise<AccountRow[]> {
  return selectAccounts(db)
    .where(accountWhere(caller, companyId, { cardholderId }))
    .orderBy(asc(accounts.last4), asc(accounts.id))
    .limit(limit);
}

export async function findAccount(
  db: Executor,
  caller: CallerScope,
  companyId: number,
  id: number,
  lock = false,
): Promise<AccountRow | undefined> {
  const query = selectAccounts(db)
    .where(and(eq(accounts.id, id), accountScope(caller, companyId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: accounts }) : await query;
  return row;
}

/** A cardholder's own accounts (My cards), every status. */
export async function accountsOfCardholder(db: Executor, cardholderId: number): Promise<AccountRow[]> {
  return selectAccounts(db).where(eq(accounts.cardholderId, cardholderId)).orderBy(asc(accounts.id));
}

export async function cardholderWithCompany(db: Executor, cardholderId: number) {
  const [row] = await db
    .select({
      id: cardholders.id,
      name1: cardholders.name1,
      name2: cardholders.name2,
      companyNumber: companies.number,
    })
    .from(cardholders)
    .innerJoin(companies, eq(companies.id, cardholders.companyId))
    .where(eq(cardholders.id, cardholderId))
    .limit(1);
  return row;
}

// ---- Account groups ----

export type GroupRow = { id: number; name: string; active: boolean; activeAccounts: number };

const groupColumns = {
  id: accountGroups.id,
  name: accountGroups.name,
  active: accountGroups.active,
  activeAccounts: sql<number>`(select count(*)::int from accounts a
    where a.account_group_id = "account_groups"."id" and a.status <> 'Closed')`,
};

export async function listGroups(db: Executor, caller: CallerScope, companyId: number): Promise<GroupRow[]> {
  return db
    .select(groupColumns)
    .from(accountGroups)
    .where(accountGroupScope(caller, companyId))
    .orderBy(asc(accountGroups.name), asc(accountGroups.id));
}

export async function findGroup(
  db: Executor,
  caller: CallerScope,
  companyId: number,
  id: number,
): Promise<GroupRow | undefined> {
  const [row] = await db
    .select(groupColumns)
    .from(accountGroups)
    .where(and(eq(accountGroups.id, id), accountGroupScope(caller, companyId)))
    .limit(1);
  return row;
}

/** Whether the company has another group of this name (case-insensitive), other than `exceptId`. */
export async function groupNameTaken(
  db: Executor,
  companyId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: accountGroups.id })
    .from(accountGroups)
    .where(
      and(
        eq(accountGroups.companyId, companyId),
        sql`lower(${accountGroups.name}) = lower(${name})`,
        exceptId !== undefined ? sql`${accountGroups.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Serialises group-name changes of one company (the unique index is case-sensitive). */
export const lockCompany = (db: Executor, companyId: number) => lockById(db, companies, companyId);

export const updateCardholder = (
  db: Executor,
  id: number,
  values: Partial<typeof cardholders.$inferInsert>,
) => updateById(db, cardholders, id, values);

export const updateAccount = (db: Executor, id: number, values: Partial<typeof accounts.$inferInsert>) =>
  updateById(db, accounts, id, values);

export const updateAccountGroup = (
  db: Executor,
  id: number,
  values: Partial<typeof accountGroups.$inferInsert>,
) => updateById(db, accountGroups, id, values);

export const insertAccountGroup = (db: Executor, values: typeof accountGroups.$inferInsert) =>
  insertRow(db, accountGroups, values);

/** A cardholder's maintenance reason codes, with their descriptions in the issuer's list. */
export function reasonsOfCardholder(db: Executor, cardholderId: number, issuerId: number) {
  return db
    .select({
      code: cardholderReasons.code,
      description: sql<string>`coalesce(${issuerCodes.description}, '')`,
    })
    .from(cardholderReasons)
    .leftJoin(
      issuerCodes,
      and(
        eq(issuerCodes.kind, 'maintenance'),
        eq(issuerCodes.code, cardholderReasons.code),
        eq(issuerCodes.issuerId, issuerId),
      ),
    )
    .where(eq(cardholderReasons.cardholderId, cardholderId))
    .orderBy(asc(cardholderReasons.code));
}

/** Replaces a cardholder's maintenance reason codes. */
export async function replaceCardholderReasons(db: Executor, cardholderId: number, codes: readonly string[]) {
  await db.delete(cardholderReasons).where(eq(cardholderReasons.cardholderId, cardholderId));
  if (codes.length > 0)
    await db.insert(cardholderReasons).values(codes.map((code) => ({ cardholderId, code })));
}

/** A card's expiry and whether its self-registration is locked (the account's detail). */
export async function cardFacts(
  db: Executor,
  id: number,
): Promise<{ expiry: string | null; lockedAt: Date | null } | undefined> {
  const [row] = await db
    .select({ expiry: accounts.expiry, lockedAt: accounts.registrationLockedAt })
    .from(accounts)
    .where(eq(accounts.id, id));
  return row;
}
