import {
  type CallerScope,
  COMPANY_LIST_ORDER,
  type CompanySort,
  type CompanySummary,
  type SortDirection,
} from '@cardportal/domain';
import { and, asc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { deleteById, insertRow, lockById, updateById } from '../../db/rows.ts';
import {
  accountGroups,
  accountingCodes,
  accounts,
  cardholders,
  companies,
  companyGroups,
  customFields,
  issuers,
  orgPoints,
  programOptions,
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
import { companyScope } from '../access/index.ts';

/** Company and org point data access, always inside the caller's scope (docs/authorization.md). */

export type CompanyRow = typeof companies.$inferSelect;
export type OrgPointRow = typeof orgPoints.$inferSelect;

const summaryColumns = {
  id: companies.id,
  issuerId: companies.issuerId,
  number: companies.number,
  name1: companies.name1,
  name2: companies.name2,
  issuerNumber: issuers.number,
  issuerName: issuers.name1,
  groupName: companyGroups.name,
  multiUser: companies.multiUser,
  active: companies.active,
};

export type CompanyRecord = CompanySummary & { id: number; issuerId: number };

function selectCompanies(db: Executor) {
  return db
    .select(summaryColumns)
    .from(companies)
    .innerJoin(issuers, eq(issuers.id, companies.issuerId))
    .leftJoin(companyGroups, eq(companyGroups.id, companies.companyGroupId))
    .$dynamic();
}

function companyFilter(caller: CallerScope, q: string | undefined): SQL | undefined {
  const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    companyScope(caller),
    like
      ? or(ilike(companies.number, like), ilike(companies.name1, like), ilike(companies.name2, like))
      : undefined,
  );
}

/** How many companies in scope match `q` (number or names), counted up to `cap + 1`. */
export function countCompanies(
  db: Executor,
  caller: CallerScope,
  q: string | undefined,
  cap: number,
): Promise<number> {
  return countUpTo(db, cap, (limit) =>
    db
      .select({ one: sql`1` })
      .from(companies)
      .innerJoin(issuers, eq(issuers.id, companies.issuerId))
      .where(companyFilter(caller, q))
      .limit(limit)
      .as('counted'),
  );
}

/**
 * The company search's orders (docs/paging.md "Sorting"): by number (companies_number_key), or by
 * name 1 then number (a search is refused past LIMITS.searchMaxResults matches: at most that many sorted).
 */
const companySorts: Record<CompanySort, SortKey<CompanyRecord>> = {
  number: { keys: [{ expr: companies.number, type: 'text' }], keyOf: (row) => [row.number] },
  name1: {
    keys: [
      { expr: companies.name1, type: 'text' },
      { expr: companies.number, type: 'text' },
    ],
    keyOf: (row) => [row.name1, row.number],
  },
};

/** One page of the companies in scope matching `q`, in the chosen order, by key (docs/paging.md). */
export function pageOfCompanies(
  db: Executor,
  caller: CallerScope,
  q: string | undefined,
  page: PageRequest,
  order: { sort: CompanySort; dir: SortDirection } = COMPANY_LIST_ORDER.default,
): Promise<KeysetPage<CompanyRecord>> {
  const where = companyFilter(caller, q);
  const keyset = sortedKeyset('companies', companySorts, order, COMPANY_LIST_ORDER.default);
  return keysetPage(keyset, page, (beyond) => selectCompanies(db).where(and(where, beyond)));
}

/** One company by number, only when it is inside the caller's scope. */
export async function findCompanyInScope(
  db: Executor,
  caller: CallerScope,
  number: string,
): Promise<CompanyRecord | undefined> {
  const [row] = await selectCompanies(db)
    .where(and(eq(companies.number, number), companyScope(caller)))
    .limit(1);
  return row;
}

export async function findIssuerByNumber(db: Executor, number: string) {
  const [row] = await db.select().from(issuers).where(eq(issuers.number, number)).limit(1);
  return row;
}

export async function companyNumberTaken(db: Executor, number: string): Promise<boolean> {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.number, number))
    .limit(1);
  return row !== undefined;
}

/** The company group of that name in the issuer, made when it does not exist yet. */
export async function companyGroupFor(db: Executor, issuerId: number, name: string): Promise<number | null> {
  if (!name) return null;
  const [found] = await db
    .select({ id: companyGroups.id })
    .from(companyGroups)
    .where(and(eq(companyGroups.issuerId, issuerId), eq(companyGroups.name, name)))
    .limit(1);
  if (found) return found.id;
  const [made] = await db
    .insert(companyGroups)
    .values({ issuerId, name })
    .returning({ id: companyGroups.id });
  return made?.id ?? null;
}

/** Whether anything refers to the company (then it is made inactive, never deleted). */
export async function companyInUse(db: Executor, companyId: number): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(
    db,
    sql`select
      exists (select 1 from ${users} where company_id = ${companyId})
      or exists (select 1 from ${cardholders} where company_id = ${companyId})
      or exists (select 1 from ${accounts} where company_id = ${companyId})
      or exists (select 1 from ${orgPoints} where company_id = ${companyId})
      or exists (select 1 from ${accountGroups} where company_id = ${companyId})
      or exists (select 1 from ${programOptions} where company_id = ${companyId})
      or exists (select 1 from ${accountingCodes} where company_id = ${companyId})
      or exists (select 1 from ${customFields} where company_id = ${companyId}) as used`,
  );
  return Boolean(row?.used);
}

/** Every org point of a company, by number. */
export async function orgPointsOf(db: Executor, companyId: number): Promise<OrgPointRow[]> {
  return db.select().from(orgPoints).where(eq(orgPoints.companyId, companyId)).orderBy(asc(orgPoints.number));
}

/** Whether anything refers to the org point: org points below it, users, cardholders. */
export async function orgPointInUse(db: Executor, orgPointId: number): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(
    db,
    sql`select
      exists (select 1 from ${orgPoints} where reports_to_id = ${orgPointId})
      or exists (select 1 from ${users} where org_point_id = ${orgPointId})
      or exists (select 1 from ${cardholders} where org_point_id = ${orgPointId}) as used`,
  );
  return Boolean(row?.used);
}

export const updateCompany = (db: Executor, id: number, values: Partial<typeof companies.$inferInsert>) =>
  updateById(db, companies, id, values);

export const updateOrgPoint = (db: Executor, id: number, values: Partial<typeof orgPoints.$inferInsert>) =>
  updateById(db, orgPoints, id, values);

export const deleteCompany = (db: Executor, id: number) => deleteById(db, companies, id);

export const deleteOrgPoint = (db: Executor, id: number) => deleteById(db, orgPoints, id);

export const insertCompany = (db: Executor, values: typeof companies.$inferInsert) =>
  insertRow(db, companies, values);

export const lockCompany = (db: Executor, id: number) => lockById(db, companies, id);

export const insertOrgPoint = (db: Executor, values: typeof orgPoints.$inferInsert) =>
  insertRow(db, orgPoints, values);
