import {
  type CallerScope,
  canAdminister,
  canonicalUserId,
  isPermission,
  isSystemReadOnly,
  mayAdministerUser,
  type Placement,
  USER_TYPE_CODES,
  type UserType,
} from '@cardportal/domain';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { cardholders, companies, companyGroups, issuers, users } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { countUpTo } from '../../kernel/paging.ts';
import { FALSE, subtree } from './scopes.ts';
import { organisationActiveSql, USER_ISSUER_ID } from './standing.ts';

/**
 * The SQL that keeps a caller's queries inside its scope (docs/authorization.md), and the loading of a
 * caller (the Caller type is the HTTP kernel's, http/caller.ts). Shared by the users, audit, roles,
 * multi-user and access-as features: they filter rows in SQL by the scope columns, so another tenant's
 * rows are never loaded.
 */

/** The permissions a user's active roles carry, as one SQL expression (a text array). */
export const permissionsOf = (userPk: SQL | number) =>
  sql<string[] | null>`(select array_agg(distinct p.value) from user_roles ur
    join roles r on r.id = ur.role_id and r.active
    cross join lateral jsonb_array_elements_text(r.permissions) p(value)
    where ur.user_pk = ${userPk})`;

/**
 * The session's user as a caller (its type and scope columns), or undefined when not active — the
 * user's status, and its company and issuer (organisationActiveSql: an inactive corp ends its users'
 * sessions on their next request, issue 13 item 6).
 */
export async function loadCaller(db: Executor, userPk: number): Promise<Caller | undefined> {
  const [found] = await db
    .select({
      row: users,
      permissions: permissionsOf(sql`${users.id}`),
      organisationActive: organisationActiveSql(sql`${users.id}`),
    })
    .from(users)
    .where(eq(users.id, userPk))
    .limit(1);
  const row = found?.row;
  if (!row || row.status !== 'Active' || found.organisationActive !== true) return undefined;
  return {
    userPk: row.id,
    userId: row.displayUserId,
    type: row.userType as UserType,
    locale: row.locale,
    cobrand: row.cobrand,
    issuerGroupId: row.issuerGroupId,
    issuerId: row.issuerId,
    companyGroupId: row.companyGroupId,
    companyId: row.companyId,
    orgPointId: row.orgPointId,
    accountGroupId: row.accountGroupId,
    cardholderId: row.cardholderId,
    profile: {
      canonicalUserId: row.userId,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      locale: row.locale,
      loginType: row.loginType,
      sso: row.sso,
      lastLoginAt: row.lastLoginAt,
    },
    permissions: new Set((found.permissions ?? []).filter(isPermission)),
    accessedBy: null,
  };
}

/** Peer authority for the type rule (canAdminister): the caller's roles carry peer-user modify. */
export const peerOf = (caller: Caller) => ({ peerAuthority: caller.permissions.has('peerUserModify') });

/** The types a caller may see by the type rule (canAdminister 'view'). */
export function viewableTypes(caller: UserType): UserType[] {
  return USER_TYPE_CODES.filter((t) => canAdminister(caller, t, 'view'));
}

/**
 * The scope condition on a query over `users` left-joined with SCOPE_JOINS (companies, company_groups,
 * issuers, cardholders): the target's placement resolved through its company, group and issuer. Fails
 * closed: a caller without its own scope column matches nothing.
 */
export function scopeCondition(caller: CallerScope): SQL {
  switch (caller.type) {
    case 'Z':
      return sql`true`;
    case 'H':
      return caller.issuerGroupId
        ? sql`coalesce(${users.issuerGroupId}, ${issuers.issuerGroupId}) = ${caller.issuerGroupId}`
        : FALSE;
    case 'I':
      return caller.issuerId ? eq(issuers.id, caller.issuerId) : FALSE;
    case 'G':
      return caller.companyGroupId ? eq(companyGroups.id, caller.companyGroupId) : FALSE;
    case 'C':
      return caller.companyId ? eq(users.companyId, caller.companyId) : FALSE;
    case 'O':
      return caller.companyId && caller.orgPointId
        ? (and(
            eq(users.companyId, caller.companyId),
            sql`coalesce(${users.orgPointId}, ${cardholders.orgPointId}) in ${subtree(caller.orgPointId)}`,
          ) as SQL)
        : FALSE;
    case 'S':
      return caller.companyId && caller.accountGroupId
        ? (and(
            eq(users.companyId, caller.companyId),
            or(
              eq(users.accountGroupId, caller.accountGroupId),
              sql`exists (select 1 from accounts a where a.cardholder_id = ${users.cardholderId}
                and a.account_group_id = ${caller.accountGroupId})`,
            ),
          ) as SQL)
        : FALSE;
    case 'A':
      return or(
        eq(users.id, caller.userPk ?? -1),
        caller.cardholderId ? eq(users.cardholderId, caller.cardholderId) : FALSE,
      ) as SQL;
  }
}

/** Scope plus the type rule: rows of users the caller may view. */
export function visibleUsers(caller: CallerScope): SQL {
  const types = viewableTypes(caller.type);
  return types.length === 0 ? FALSE : (and(scopeCondition(caller), inArray(users.userType, types)) as SQL);
}

/** The selection resolving a user's placement (use with withScopeJoins). */
export const placementColumns = (caller: CallerScope) => ({
  issuerGroupId: sql<number | null>`coalesce(${users.issuerGroupId}, ${issuers.issuerGroupId})`,
  issuerId: sql<number | null>`${issuers.id}`,
  companyGroupId: sql<number | null>`${companyGroups.id}`,
  companyId: users.companyId,
  orgPointId: sql<number | null>`coalesce(${users.orgPointId}, ${cardholders.orgPointId})`,
  accountGroupId: sql<
    number | null
  >`coalesce(${users.accountGroupId}, (select a.account_group_id from accounts a
    where a.cardholder_id = ${users.cardholderId} and a.account_group_id = ${caller.accountGroupId ?? null}::int limit 1))`,
  cardholderId: users.cardholderId,
});

/** The columns of a scoped user query: the user, its company and its resolved placement. */
export const scopedUserColumns = (caller: CallerScope) => ({
  user: users,
  companyNumber: companies.number,
  companyName: companies.name1,
  placement: placementColumns(caller),
});

/**
 * `select` a user, its company and its resolved placement, from users joined with its company, company
 * group, issuer and cardholder; `where` is ANDed with the caller's visibility (scope and type rule).
 */
export function selectVisibleUsers(db: Executor, caller: CallerScope, where?: SQL) {
  return db
    .select(scopedUserColumns(caller))
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(
      companyGroups,
      eq(companyGroups.id, sql`coalesce(${users.companyGroupId}, ${companies.companyGroupId})`),
    )
    .leftJoin(issuers, eq(issuers.id, USER_ISSUER_ID))
    .leftJoin(cardholders, eq(cardholders.id, users.cardholderId))
    .where(and(visibleUsers(caller), where));
}

/**
 * How many users a caller may view match `where`, counting no further than `cap + 1` (enough for
 * "Result set is too large"; an unbounded count(*) would read every match: docs/paging.md).
 */
export function countVisibleUsers(
  db: Executor,
  caller: CallerScope,
  where: SQL | undefined,
  cap: number,
): Promise<number> {
  return countUpTo(db, cap, (limit) =>
    db
      .select({ one: sql`1` })
      .from(users)
      .leftJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(
        companyGroups,
        eq(companyGroups.id, sql`coalesce(${users.companyGroupId}, ${companies.companyGroupId})`),
      )
      .leftJoin(issuers, eq(issuers.id, USER_ISSUER_ID))
      .leftJoin(cardholders, eq(cardholders.id, users.cardholderId))
      .where(and(visibleUsers(caller), where))
      .limit(limit)
      .as('counted'),
  );
}

/** The ids of the users a caller may view, as a subquery (`user_pk in ...`). */
export function visibleUserIds(db: Executor, caller: CallerScope) {
  return db
    .select({ id: users.id })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(
      companyGroups,
      eq(companyGroups.id, sql`coalesce(${users.companyGroupId}, ${companies.companyGroupId})`),
    )
    .leftJoin(issuers, eq(issuers.id, USER_ISSUER_ID))
    .leftJoin(cardholders, eq(cardholders.id, users.cardholderId))
    .where(visibleUsers(caller));
}

/** The org point ids from `orgPointId` up to the top of its structure. */
export async function orgPathOf(db: Executor, orgPointId: number | null | undefined): Promise<number[]> {
  if (!orgPointId) return [];
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with recursive up(id, parent, depth) as (
      select id, reports_to_id, 0 from org_points where id = ${orgPointId}
      union all select o.id, o.reports_to_id, up.depth + 1 from org_points o join up on o.id = up.parent
      where up.depth < 50)
    select id from up order by depth`,
  );
  return rows.map((r) => Number(r.id));
}

/** A user the caller may view, by user ID (any case), with its company and placement; else undefined. */
export async function findVisibleUser(db: Executor, caller: CallerScope, rawUserId: string) {
  const userId = canonicalUserId(rawUserId);
  if (userId.length === 0 || userId.length > 64 || userId.includes('\u0000')) return undefined;
  const [row] = await selectVisibleUsers(db, caller, eq(users.userId, userId)).limit(1);
  return row;
}
export type VisibleUser = NonNullable<Awaited<ReturnType<typeof findVisibleUser>>>;

/** A visible user's full placement as the domain rules take it (its org path only for a level manager). */
export async function placementOfVisible(
  db: Executor,
  caller: CallerScope,
  row: VisibleUser,
): Promise<Placement & { type: UserType }> {
  const p = row.placement;
  return {
    type: row.user.userType as UserType,
    userPk: row.user.id,
    issuerGroupId: p.issuerGroupId,
    issuerId: p.issuerId,
    companyGroupId: p.companyGroupId,
    companyId: p.companyId,
    orgPath: caller.type === 'O' ? await orgPathOf(db, p.orgPointId) : [],
    accountGroupId: p.accountGroupId,
    cardholderId: p.cardholderId,
  };
}

/** Whether the caller may modify a visible user: type rule with its peer authority, scope, not read-only. */
export async function mayModifyVisible(db: Executor, caller: Caller, row: VisibleUser): Promise<boolean> {
  const target = await placementOfVisible(db, caller, row);
  return (
    mayAdministerUser(caller, target, 'modify', peerOf(caller)) && !isSystemReadOnly(caller.type, target.type)
  );
}

export type { Placement };
