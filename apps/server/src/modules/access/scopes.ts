import type { CallerScope } from '@cardportal/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  accountGroups,
  accounts,
  cardholders,
  companies,
  companyGroups,
  issuerGroups,
  issuers,
  transactions,
} from '../../db/schema.ts';

/**
 * Where a caller sits, as SQL conditions (docs/authorization.md, "Scope"): one builder per kind of
 * record, used by every repository that lists or finds such records, so a caller's queries never load
 * another tenant's rows. A scope says which records the caller's placement holds; whether its type may
 * read or change them is the permission check's question (authorize), asked before. Every builder fails
 * closed: a caller without the scope column its type needs matches nothing, never everything.
 */

export const FALSE = sql`false`;

/** Ids of an org point and every org point below it. */
export const subtree = (orgPointId: number) =>
  sql`(with recursive sub(id) as (select id from org_points where id = ${orgPointId}
    union all select o.id from org_points o join sub on o.reports_to_id = sub.id) select id from sub)`;

/** The issuers the caller's placement holds or lies in (on `issuers`). */
export function issuerScope(caller: CallerScope): SQL {
  switch (caller.type) {
    case 'Z':
      return sql`true`;
    case 'H':
      return caller.issuerGroupId ? eq(issuers.issuerGroupId, caller.issuerGroupId) : FALSE;
    case 'I':
      return caller.issuerId ? eq(issuers.id, caller.issuerId) : FALSE;
    case 'G':
      return caller.companyGroupId
        ? sql`${issuers.id} = (select issuer_id from ${companyGroups} where id = ${caller.companyGroupId})`
        : FALSE;
    default:
      return caller.companyId
        ? sql`${issuers.id} = (select issuer_id from ${companies} where id = ${caller.companyId})`
        : FALSE;
  }
}

/** The issuer groups the caller sees (Z: all, H: its own). */
export function issuerGroupScope(caller: CallerScope): SQL {
  if (caller.type === 'Z') return sql`true`;
  if (caller.type === 'H' && caller.issuerGroupId) return eq(issuerGroups.id, caller.issuerGroupId);
  return FALSE;
}

/** Within an issuer already in scope: G sees only its own company group. */
export function companyGroupScope(caller: CallerScope): SQL {
  if (caller.type === 'G') return caller.companyGroupId ? eq(companyGroups.id, caller.companyGroupId) : FALSE;
  return sql`true`;
}

/** The companies the caller's placement holds (on `companies` joined with `issuers`). */
export function companyScope(caller: CallerScope): SQL {
  switch (caller.type) {
    case 'Z':
      return sql`true`;
    case 'H':
      return caller.issuerGroupId ? eq(issuers.issuerGroupId, caller.issuerGroupId) : FALSE;
    case 'I':
      return caller.issuerId ? eq(companies.issuerId, caller.issuerId) : FALSE;
    case 'G':
      return caller.companyGroupId ? eq(companies.companyGroupId, caller.companyGroupId) : FALSE;
    default:
      return caller.companyId ? eq(companies.id, caller.companyId) : FALSE;
  }
}

/** The cardholders of a company (already in scope) the caller sees (on `cardholders`). */
export function cardholderScope(caller: CallerScope, companyId: number): SQL {
  const inCompany = eq(cardholders.companyId, companyId);
  switch (caller.type) {
    case 'O':
      return caller.orgPointId
        ? (and(inCompany, sql`${cardholders.orgPointId} in ${subtree(caller.orgPointId)}`) as SQL)
        : FALSE;
    case 'S':
      return caller.accountGroupId
        ? (and(
            inCompany,
            sql`exists (select 1 from accounts a where a.cardholder_id = "cardholders"."id"
              and a.account_group_id = ${caller.accountGroupId})`,
          ) as SQL)
        : FALSE;
    case 'A':
      return caller.cardholderId ? (and(inCompany, eq(cardholders.id, caller.cardholderId)) as SQL) : FALSE;
    default:
      return inCompany;
  }
}

/** The accounts of a company (already in scope) the caller sees (on `accounts`). */
export function accountScope(caller: CallerScope, companyId: number): SQL {
  const inCompany = eq(accounts.companyId, companyId);
  switch (caller.type) {
    case 'O':
      return caller.orgPointId
        ? (and(
            inCompany,
            sql`exists (select 1 from cardholders c where c.id = "accounts"."cardholder_id"
              and c.org_point_id in ${subtree(caller.orgPointId)})`,
          ) as SQL)
        : FALSE;
    case 'S':
      return caller.accountGroupId
        ? (and(inCompany, eq(accounts.accountGroupId, caller.accountGroupId)) as SQL)
        : FALSE;
    case 'A':
      return caller.cardholderId
        ? (and(inCompany, eq(accounts.cardholderId, caller.cardholderId)) as SQL)
        : FALSE;
    default:
      return inCompany;
  }
}

/** The account groups of a company (already in scope) the caller sees (S: its own; A: none). */
export function accountGroupScope(caller: CallerScope, companyId: number): SQL {
  const inCompany = eq(accountGroups.companyId, companyId);
  if (caller.type === 'S')
    return caller.accountGroupId
      ? (and(inCompany, eq(accountGroups.id, caller.accountGroupId)) as SQL)
      : FALSE;
  if (caller.type === 'A') return FALSE;
  return inCompany;
}

/** The columns a transaction scope is written on: `transactions`' own, or a table that copies them. */
export interface ScopeColumns {
  issuerId: PgColumn;
  companyId: PgColumn;
  accountId: PgColumn;
}
const TRANSACTION_COLUMNS: ScopeColumns = {
  issuerId: transactions.issuerId,
  companyId: transactions.companyId,
  accountId: transactions.accountId,
};

/**
 * The transactions the caller sees (on `transactions`, or on `on`'s copies of its columns: the spend
 * roll-up): by the issuer, company group or company copied
 * onto each transaction (each with an index of its own), and inside a company by the accounts the
 * caller sees there (accountScope: O its org subtree's cardholders, S its account group, A its own).
 */
export function transactionScope(caller: CallerScope, on: ScopeColumns = TRANSACTION_COLUMNS): SQL {
  switch (caller.type) {
    case 'Z':
      return sql`true`;
    case 'H':
      return caller.issuerGroupId
        ? sql`${on.issuerId} in (select id from ${issuers} where issuer_group_id = ${caller.issuerGroupId})`
        : FALSE;
    case 'I':
      return caller.issuerId ? eq(on.issuerId, caller.issuerId) : FALSE;
    case 'G':
      return caller.companyGroupId
        ? sql`${on.companyId} in (select id from ${companies} where company_group_id = ${caller.companyGroupId})`
        : FALSE;
    case 'C':
      return caller.companyId ? eq(on.companyId, caller.companyId) : FALSE;
    default:
      return caller.companyId
        ? (and(
            eq(on.companyId, caller.companyId),
            // An array computed once (an InitPlan), not a semi-join: the list then walks its date-ordered
            // index and filters, instead of joining and sorting every transaction of the cards (bench/summary.ts).
            sql`${on.accountId} = any(array(select "accounts"."id" from ${accounts} where ${accountScope(caller, caller.companyId)}))`,
          ) as SQL)
        : FALSE;
  }
}
