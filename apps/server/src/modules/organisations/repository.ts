import type { CallerScope, CompanySummary } from '@cardportal/domain';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  accountGroups,
  accounts,
  cardholders,
  companies,
  companyGroups,
  issuers,
  orgPoints,
  programOptions,
  users,
} from '../../db/schema.ts';

/** Company and org point data access, always inside the caller's scope (docs/authorization.md). */

export type CompanyRow = typeof companies.$inferSelect;
export type OrgPointRow = typeof orgPoints.$inferSelect;

const FALSE = sql`false`;

/**
 * The companies a caller's scope holds, as a condition on `companies` joined with `issuers`. Fails
 * closed: a caller without its own scope column matches nothing.
 */
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

/** How many companies in scope match `q` (number or names). */
export async function countCompanies(
  db: Executor,
  caller: CallerScope,
  q: string | undefined,
): Promise<number> {
  const [total] = await db
    .select({ n: count() })
    .from(companies)
    .innerJoin(issuers, eq(issuers.id, companies.issuerId))
    .where(companyFilter(caller, q));
  return Number(total?.n ?? 0);
}

/** One page of the companies in scope matching `q`, by number. */
export async function pageOfCompanies(
  db: Executor,
  caller: CallerScope,
  q: string | undefined,
  page: { limit: number; offset: number },
): Promise<CompanyRecord[]> {
  return selectCompanies(db)
    .where(companyFilter(caller, q))
    .orderBy(asc(companies.number))
    .limit(page.limit)
    .offset(page.offset);
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
  const result = await db.execute<{ used: boolean }>(sql`select
      exists (select 1 from ${users} where company_id = ${companyId})
      or exists (select 1 from ${cardholders} where company_id = ${companyId})
      or exists (select 1 from ${accounts} where company_id = ${companyId})
      or exists (select 1 from ${orgPoints} where company_id = ${companyId})
      or exists (select 1 from ${accountGroups} where company_id = ${companyId})
      or exists (select 1 from ${programOptions} where company_id = ${companyId}) as used`);
  return Boolean(rowsOf<{ used: boolean }>(result)[0]?.used);
}

/** Every org point of a company, by number. */
export async function orgPointsOf(db: Executor, companyId: number): Promise<OrgPointRow[]> {
  return db.select().from(orgPoints).where(eq(orgPoints.companyId, companyId)).orderBy(asc(orgPoints.number));
}

/** Whether anything refers to the org point: org points below it, users, cardholders. */
export async function orgPointInUse(db: Executor, orgPointId: number): Promise<boolean> {
  const result = await db.execute<{ used: boolean }>(sql`select
      exists (select 1 from ${orgPoints} where reports_to_id = ${orgPointId})
      or exists (select 1 from ${users} where org_point_id = ${orgPointId})
      or exists (select 1 from ${cardholders} where org_point_id = ${orgPointId}) as used`);
  return Boolean(rowsOf<{ used: boolean }>(result)[0]?.used);
}

/** Both drivers answer `{ rows }` for raw statements. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? (result as T[]);
}
