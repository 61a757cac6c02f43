import {
  type CallerScope,
  canonicalUserId,
  type SortDirection,
  USER_LIST_ORDER,
  type UserSort,
} from '@cardportal/domain';
import { and, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  accountGroups,
  cardholders,
  companies,
  companyGroups,
  identityProviders,
  issuers,
  orgPoints,
  passwordHistory,
  sessions,
  users,
} from '../../db/schema.ts';
import {
  type KeysetPage,
  keysetPage,
  type PageRequest,
  type SortKey,
  sortedKeyset,
} from '../../kernel/paging.ts';
import { newLdapId } from '../../security/crypto.ts';
import { countVisibleUsers, selectVisibleUsers } from '../access/index.ts';
import type { UserRow } from './users.ts';

/** Data access of user maintenance. Every read of users goes through the caller's scope. */

export type { VisibleUser as ScopedUser } from '../access/index.ts';

/** Escapes LIKE wildcards so criteria match literally. */
const likeLiteral = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface SearchFilter {
  q?: string;
  type?: string;
  status?: string;
}

function filterCondition(filter: SearchFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.q) {
    const pattern = likeLiteral(filter.q);
    parts.push(
      or(
        ilike(users.userId, pattern),
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(users.email, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      ),
    );
  }
  if (filter.type) parts.push(eq(users.userType, filter.type));
  if (filter.status) parts.push(eq(users.status, filter.status));
  return and(...parts);
}

/** How many users in scope match, counted up to `cap + 1` ("Result set is too large" past `cap`). */
export function countUsers(
  db: Executor,
  caller: CallerScope,
  filter: SearchFilter,
  cap: number,
): Promise<number> {
  return countVisibleUsers(db, caller, filterCondition(filter), cap);
}

type SearchRow = Awaited<ReturnType<typeof selectVisibleUsers>>[number];

/** Last name, first name and the unique user ID: every order but the user ID's ends with it. */
const byName = [
  { expr: users.lastName, type: 'text' },
  { expr: users.firstName, type: 'text' },
  { expr: users.userId, type: 'text' },
] as const;
const nameOf = (row: SearchRow) => [row.user.lastName, row.user.firstName, row.user.userId];

/**
 * The people search's orders (docs/paging.md "Sorting"): by name (users_name_order_idx), user ID
 * (users_user_id_unique), or type or status then name. A search is refused past
 * LIMITS.searchMaxResults matches, so any order sorts at most that many rows.
 */
const userSorts: Record<UserSort, SortKey<SearchRow>> = {
  name: { keys: [...byName], keyOf: nameOf },
  userId: { keys: [{ expr: users.userId, type: 'text' }], keyOf: (row) => [row.user.userId] },
  userType: {
    keys: [{ expr: users.userType, type: 'text' }, ...byName],
    keyOf: (row) => [row.user.userType, ...nameOf(row)],
  },
  status: {
    keys: [{ expr: users.status, type: 'text' }, ...byName],
    keyOf: (row) => [row.user.status, ...nameOf(row)],
  },
};

/** One page of the users in scope matching the filter, in the chosen order, by key (docs/paging.md). */
export function searchUsers(
  db: Executor,
  caller: CallerScope,
  filter: SearchFilter,
  page: PageRequest,
  order: { sort: UserSort; dir: SortDirection } = USER_LIST_ORDER.default,
): Promise<KeysetPage<SearchRow>> {
  const where = filterCondition(filter);
  const keyset = sortedKeyset('users', userSorts, order, USER_LIST_ORDER.default);
  return keysetPage(keyset, page, (beyond) => selectVisibleUsers(db, caller, and(where, beyond)));
}

/** A user the caller may view, by user ID; undefined when it does not exist or lies outside the scope. */
export { findVisibleUser } from '../access/index.ts';

export async function userIdTaken(db: Executor, rawUserId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.userId, canonicalUserId(rawUserId)))
    .limit(1);
  return row !== undefined;
}

export const findCompany = async (db: Executor, id: number) =>
  (await db.select().from(companies).where(eq(companies.id, id)).limit(1))[0];
export const findCompanyGroup = async (db: Executor, id: number) =>
  (await db.select().from(companyGroups).where(eq(companyGroups.id, id)).limit(1))[0];
export const findIssuer = async (db: Executor, id: number) =>
  (await db.select().from(issuers).where(eq(issuers.id, id)).limit(1))[0];
export const findOrgPoint = async (db: Executor, id: number) =>
  (await db.select().from(orgPoints).where(eq(orgPoints.id, id)).limit(1))[0];
export const findAccountGroup = async (db: Executor, id: number) =>
  (await db.select().from(accountGroups).where(eq(accountGroups.id, id)).limit(1))[0];
export const findCardholder = async (db: Executor, id: number) =>
  (await db.select().from(cardholders).where(eq(cardholders.id, id)).limit(1))[0];
export const cardholderLinked = async (db: Executor, cardholderId: number, exceptPk?: number) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.cardholderId, cardholderId), exceptPk ? ne(users.id, exceptPk) : undefined))
      .limit(1)
  ).length > 0;

export async function insertCardholder(
  db: Executor,
  values: { companyId: number; orgPointId: number | null; name1: string; name2: string },
): Promise<number> {
  const [row] = await db.insert(cardholders).values(values).returning({ id: cardholders.id });
  if (!row) throw new Error('cardholder insert returned no row');
  return row.id;
}

export type NewUserValues = Pick<
  UserRow,
  | 'email'
  | 'firstName'
  | 'lastName'
  | 'userType'
  | 'cobrand'
  | 'locale'
  | 'issuerGroupId'
  | 'issuerId'
  | 'companyGroupId'
  | 'companyId'
  | 'orgPointId'
  | 'accountGroupId'
  | 'cardholderId'
> & { displayUserId: string; passwordHash: string };

/** Inserts a user in first-login state with a temporary first password, and its password history. */
export async function insertUser(db: Executor, values: NewUserValues): Promise<UserRow> {
  const canonical = canonicalUserId(values.displayUserId);
  const [row] = await db
    .insert(users)
    .values({
      ...values,
      userId: canonical,
      ldapId: newLdapId(),
      b2bAlias: `b2b-${canonical}`,
      status: 'Active',
      loginType: 'pwd',
      firstLogin: true,
      passwordTemporary: true,
      failedAttempts: 0,
    })
    .returning();
  if (!row) throw new Error('user insert returned no row');
  await db.insert(passwordHistory).values({ userPk: row.id, passwordHash: values.passwordHash });
  return row;
}

/** Records a new password of a user in its history (the no-reuse-of-last-4 rule). */
export async function updateUser(
  db: Executor,
  pk: number,
  values: Partial<typeof users.$inferInsert>,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, pk))
    .returning();
  if (!row) throw new Error('user update returned no row');
  return row;
}

/** Ends every session of a user (deactivated: signed out at once). */
export async function endSessions(db: Executor, pk: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userPk, pk));
}

/** The display name of an identity provider (docs/sso.md), for an SSO user's detail. */
export async function providerName(db: Executor, id: number): Promise<string | null> {
  const [row] = await db
    .select({ name: identityProviders.displayName })
    .from(identityProviders)
    .where(eq(identityProviders.id, id));
  return row?.name ?? null;
}
