import { type CallerScope, ISSUER_LIST_ORDER, type IssuerSort, type SortDirection } from '@cardportal/domain';
import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { deleteById, insertRow, lockById, updateById } from '../../db/rows.ts';
import {
  cobrands,
  companies,
  companyGroups,
  issuerGroups,
  issuers,
  programOptions,
  users,
} from '../../db/schema.ts';
import { countUpTo, numberedPage } from '../../kernel/paging.ts';
import { companyGroupScope, companyScope, issuerGroupScope, issuerScope } from '../access/index.ts';

/**
 * Issuer, issuer group, company group and program option data access, always inside the caller's scope
 * (docs/authorization.md, "Issuers and program options"). Every scope fails closed: a caller without
 * its own scope column matches nothing.
 */

export type IssuerRow = typeof issuers.$inferSelect;

const issuerColumns = {
  id: issuers.id,
  number: issuers.number,
  name1: issuers.name1,
  name2: issuers.name2,
  ica: issuers.ica,
  bankNumber: issuers.bankNumber,
  issuerGroupId: issuers.issuerGroupId,
  issuerGroupName: issuerGroups.name,
  cobrand: issuers.cobrand,
  active: issuers.active,
  passwordMinLength: issuers.passwordMinLength,
  passwordDurationDays: issuers.passwordDurationDays,
  cardBins: issuers.cardBins,
  accountDigits: issuers.accountDigits,
};

export type IssuerRecord = {
  id: number;
  number: string;
  name1: string;
  name2: string;
  ica: string;
  bankNumber: string;
  issuerGroupId: number | null;
  issuerGroupName: string | null;
  cobrand: string | null;
  active: boolean;
  passwordMinLength: number;
  passwordDurationDays: number;
  cardBins: string;
  accountDigits: number;
};

function issuerFilter(caller: CallerScope, q: string | undefined): SQL | undefined {
  const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    issuerScope(caller),
    like
      ? or(
          ilike(issuers.number, like),
          ilike(issuers.name1, like),
          ilike(issuers.name2, like),
          ilike(issuers.ica, like),
        )
      : undefined,
  );
}

/** How many issuers in scope match `q`, counted up to `cap + 1` ("Result set is too large" past `cap`). */
export function countIssuers(
  db: Executor,
  caller: CallerScope,
  q: string | undefined,
  cap: number,
): Promise<number> {
  return countUpTo(db, cap, (limit) =>
    db.select({ one: sql`1` }).from(issuers).where(issuerFilter(caller, q)).limit(limit).as('counted'),
  );
}

/**
 * Page `page` (1-based, checked) of the issuers in scope matching `q`, by number: numbered pages with a
 * jump, since a programme's issuers are few by nature (docs/paging.md).
 */
export async function pageOfIssuers(
  db: Executor,
  caller: CallerScope,
  q: string | undefined,
  page: number,
  pageSize: number,
  order: { sort: IssuerSort; dir: SortDirection } = ISSUER_LIST_ORDER.default,
): Promise<IssuerRecord[]> {
  const by = order.dir === 'desc' ? desc : asc;
  // By number (unique), or by name 1 then number: a total order, so the pages neither skip nor repeat.
  const keys = order.sort === 'name1' ? [by(issuers.name1), by(issuers.number)] : [by(issuers.number)];
  const query = db
    .select(issuerColumns)
    .from(issuers)
    .leftJoin(issuerGroups, eq(issuerGroups.id, issuers.issuerGroupId))
    .where(issuerFilter(caller, q))
    .orderBy(...keys)
    .$dynamic();
  return numberedPage(query, page, pageSize);
}

/** One issuer by number, only when it lies inside the caller's scope. */
export async function findIssuerInScope(
  db: Executor,
  caller: CallerScope,
  number: string,
): Promise<IssuerRecord | undefined> {
  const [row] = await db
    .select(issuerColumns)
    .from(issuers)
    .leftJoin(issuerGroups, eq(issuerGroups.id, issuers.issuerGroupId))
    .where(and(eq(issuers.number, number), issuerScope(caller)))
    .limit(1);
  return row;
}

export async function issuerNumberTaken(db: Executor, number: string): Promise<boolean> {
  const [row] = await db.select({ id: issuers.id }).from(issuers).where(eq(issuers.number, number)).limit(1);
  return row !== undefined;
}

export async function countCompaniesOf(db: Executor, issuerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(companies).where(eq(companies.issuerId, issuerId));
  return Number(row?.n ?? 0);
}

/** Whether anything refers to the issuer (then it is made inactive, never deleted). */
export async function issuerInUse(db: Executor, issuerId: number): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(
    db,
    sql`select
      exists (select 1 from ${companies} where issuer_id = ${issuerId})
      or exists (select 1 from ${users} where issuer_id = ${issuerId})
      or exists (select 1 from ${companyGroups} where issuer_id = ${issuerId})
      or exists (select 1 from ${programOptions} where issuer_id = ${issuerId}) as used`,
  );
  return Boolean(row?.used);
}

export async function cobrandExists(db: Executor, name: string): Promise<boolean> {
  const [row] = await db
    .select({ name: cobrands.name })
    .from(cobrands)
    .where(eq(cobrands.name, name))
    .limit(1);
  return row !== undefined;
}

// ---- Issuer groups ----

export type IssuerGroupRecord = {
  id: number;
  name: string;
  active: boolean;
  issuerCount: number;
  activeIssuerCount: number;
};

function selectIssuerGroups(db: Executor) {
  return db
    .select({
      id: issuerGroups.id,
      name: issuerGroups.name,
      active: issuerGroups.active,
      issuerCount: sql<number>`(select count(*) from issuers i where i.issuer_group_id = issuer_groups.id)::int`,
      activeIssuerCount: sql<number>`(select count(*) from issuers i where i.issuer_group_id = issuer_groups.id and i.active)::int`,
    })
    .from(issuerGroups)
    .$dynamic();
}

export async function issuerGroupsInScope(db: Executor, caller: CallerScope): Promise<IssuerGroupRecord[]> {
  return selectIssuerGroups(db).where(issuerGroupScope(caller)).orderBy(asc(issuerGroups.name));
}

export async function findIssuerGroupInScope(
  db: Executor,
  caller: CallerScope,
  id: number,
): Promise<IssuerGroupRecord | undefined> {
  const [row] = await selectIssuerGroups(db)
    .where(and(eq(issuerGroups.id, id), issuerGroupScope(caller)))
    .limit(1);
  return row;
}

/** Case-insensitive: two groups whose names differ only in case would confuse everyone. */
export async function issuerGroupNameTaken(db: Executor, name: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: issuerGroups.id })
    .from(issuerGroups)
    .where(
      and(
        sql`lower(${issuerGroups.name}) = lower(${name})`,
        exceptId ? sql`${issuerGroups.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

// ---- Company groups ----

export type CompanyGroupRecord = {
  id: number;
  name: string;
  active: boolean;
  companyCount: number;
  activeCompanyCount: number;
};

function selectCompanyGroups(db: Executor) {
  return db
    .select({
      id: companyGroups.id,
      name: companyGroups.name,
      active: companyGroups.active,
      companyCount: sql<number>`(select count(*) from companies c where c.company_group_id = company_groups.id)::int`,
      activeCompanyCount: sql<number>`(select count(*) from companies c where c.company_group_id = company_groups.id and c.active)::int`,
    })
    .from(companyGroups)
    .$dynamic();
}

export async function companyGroupsOf(
  db: Executor,
  caller: CallerScope,
  issuerId: number,
): Promise<CompanyGroupRecord[]> {
  return selectCompanyGroups(db)
    .where(and(eq(companyGroups.issuerId, issuerId), companyGroupScope(caller)))
    .orderBy(asc(companyGroups.name));
}

export async function findCompanyGroup(
  db: Executor,
  caller: CallerScope,
  issuerId: number,
  id: number,
): Promise<CompanyGroupRecord | undefined> {
  const [row] = await selectCompanyGroups(db)
    .where(and(eq(companyGroups.issuerId, issuerId), eq(companyGroups.id, id), companyGroupScope(caller)))
    .limit(1);
  return row;
}

export async function companyGroupNameTaken(
  db: Executor,
  issuerId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: companyGroups.id })
    .from(companyGroups)
    .where(
      and(
        eq(companyGroups.issuerId, issuerId),
        sql`lower(${companyGroups.name}) = lower(${name})`,
        exceptId ? sql`${companyGroups.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

// ---- Companies (for their program options) ----

export type CompanyRef = { id: number; number: string; name1: string; issuerId: number };

/** One company by number, only when it lies inside the caller's scope. */
export async function findCompanyInScope(
  db: Executor,
  caller: CallerScope,
  number: string,
): Promise<(CompanyRef & { issuerNumber: string; issuerName: string }) | undefined> {
  const [row] = await db
    .select({
      id: companies.id,
      number: companies.number,
      name1: companies.name1,
      issuerId: companies.issuerId,
      issuerNumber: issuers.number,
      issuerName: issuers.name1,
    })
    .from(companies)
    .innerJoin(issuers, eq(issuers.id, companies.issuerId))
    .where(and(eq(companies.number, number), companyScope(caller)))
    .limit(1);
  return row;
}

// ---- Program options ----

export async function issuerOptionRows(db: Executor, issuerId: number) {
  return db
    .select({ key: programOptions.key, enabled: programOptions.enabled })
    .from(programOptions)
    .where(and(eq(programOptions.level, 'issuer'), eq(programOptions.issuerId, issuerId)));
}

/** Sets (inserts or updates) one issuer-level option. */
export async function setIssuerOption(db: Executor, issuerId: number, key: string, enabled: boolean) {
  await db
    .insert(programOptions)
    .values({ key, level: 'issuer', issuerId, enabled })
    .onConflictDoUpdate({
      target: [programOptions.issuerId, programOptions.key],
      set: { enabled, updatedAt: new Date() },
    });
}

/** Sets one company-level option; null removes the company's own setting (it inherits again). */
export async function setCompanyOption(
  db: Executor,
  companyId: number,
  key: string,
  enabled: boolean | null,
) {
  if (enabled === null) {
    await db
      .delete(programOptions)
      .where(and(eq(programOptions.companyId, companyId), eq(programOptions.key, key)));
    return;
  }
  await db
    .insert(programOptions)
    .values({ key, level: 'company', companyId, enabled })
    .onConflictDoUpdate({
      target: [programOptions.companyId, programOptions.key],
      set: { enabled, updatedAt: new Date() },
    });
}

export const updateIssuer = (db: Executor, id: number, values: Partial<typeof issuers.$inferInsert>) =>
  updateById(db, issuers, id, values);

export const updateIssuerGroup = (
  db: Executor,
  id: number,
  values: Partial<typeof issuerGroups.$inferInsert>,
) => updateById(db, issuerGroups, id, values);

export const updateCompanyGroup = (
  db: Executor,
  id: number,
  values: Partial<typeof companyGroups.$inferInsert>,
) => updateById(db, companyGroups, id, values);

export const deleteIssuer = (db: Executor, id: number) => deleteById(db, issuers, id);

export const insertCompanyGroup = (db: Executor, values: typeof companyGroups.$inferInsert) =>
  insertRow(db, companyGroups, values);

export const insertIssuer = (db: Executor, values: typeof issuers.$inferInsert) =>
  insertRow(db, issuers, values);

export const insertIssuerGroup = (db: Executor, values: typeof issuerGroups.$inferInsert) =>
  insertRow(db, issuerGroups, values);

export const lockCompanyGroup = (db: Executor, id: number) => lockById(db, companyGroups, id);

export const lockIssuer = (db: Executor, id: number) => lockById(db, issuers, id);

export const lockIssuerGroup = (db: Executor, id: number) => lockById(db, issuerGroups, id);
