import { checkUserScope, type ScopeField, type UserType } from '@cardportal/domain';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  accountGroups,
  companies,
  companyGroups,
  issuerGroups,
  issuers,
  orgPoints,
} from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';

/** Organisation data access shared by the CLI, the demo loader and (later) the application's modules. */

export type CompanyRow = typeof companies.$inferSelect;
export type IssuerRow = typeof issuers.$inferSelect;

export async function findCompanyByNumber(db: Executor, number: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.number, number.trim())).limit(1);
  return row;
}

/** The first company made (the first demo company in demo mode): the CLI's default. */
export async function firstCompany(db: Executor): Promise<CompanyRow | undefined> {
  const [row] = await db
    .select()
    .from(companies)
    .where(eq(companies.active, true))
    .orderBy(asc(companies.id))
    .limit(1);
  return row;
}

export interface IssuerListing extends IssuerRow {
  groupName: string | null;
  companies: (CompanyRow & { groupName: string | null })[];
}

/** Every issuer with its group name and its companies (with their group names), by number. */
export async function listIssuersWithCompanies(db: Executor): Promise<IssuerListing[]> {
  const issuerRows = await db
    .select({ issuer: issuers, groupName: issuerGroups.name })
    .from(issuers)
    .leftJoin(issuerGroups, eq(issuers.issuerGroupId, issuerGroups.id))
    .orderBy(asc(issuers.number));
  const companyRows = await db
    .select({ company: companies, groupName: companyGroups.name })
    .from(companies)
    .leftJoin(companyGroups, eq(companies.companyGroupId, companyGroups.id))
    .orderBy(asc(companies.number));
  return issuerRows.map(({ issuer, groupName }) => ({
    ...issuer,
    groupName,
    companies: companyRows
      .filter((c) => c.company.issuerId === issuer.id)
      .map((c) => ({ ...c.company, groupName: c.groupName })),
  }));
}

/**
 * Switches a company's multi-user feature. Once on it never goes off (seed 001 §4): refused here with
 * `company.multiUserCannotBeTurnedOff`, and by the database trigger for any other writer.
 */
export async function setCompanyMultiUser(db: Executor, companyId: number, on: boolean): Promise<CompanyRow> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(companies).where(eq(companies.id, companyId)).for('update');
    if (!current)
      throw new AppError('notFound', 'company.notFound', { message: `no such company: ${companyId}` });
    if (current.multiUser && !on) {
      throw new AppError('conflict', 'company.multiUserCannotBeTurnedOff', {
        message: `multi-user cannot be turned off once enabled (company ${current.number})`,
      });
    }
    if (current.multiUser === on) return current;
    const [row] = await tx
      .update(companies)
      .set({ multiUser: on, updatedAt: new Date() })
      .where(eq(companies.id, companyId))
      .returning();
    return row ?? current;
  });
}

/** The top org point of a company (reporting level 1, the first made). */
export async function topOrgPoint(db: Executor, companyId: number) {
  const [row] = await db
    .select()
    .from(orgPoints)
    .where(and(eq(orgPoints.companyId, companyId), isNull(orgPoints.reportsToId), eq(orgPoints.active, true)))
    .orderBy(asc(orgPoints.id))
    .limit(1);
  return row;
}

export type UserScope = Partial<Record<ScopeField, number | null>>;

/** A cardholder to make together with its type-A user (createUser inserts both in one transaction). */
export interface NewCardholder {
  companyId: number;
  orgPointId: number | null;
  name1: string;
  name2: string;
}

/**
 * Places a new user of `type` by one company (the CLI's `--company`): C, O, S and A in the company
 * (O at its top org point, S in its first account group, A as a new cardholder at the top org point);
 * G in the company's group, I in its issuer, H in the issuer's group; Z nowhere. Refuses, with the
 * missing column's key, when the company lacks what the type needs.
 */
export async function scopeFromCompany(
  db: Executor,
  type: UserType,
  company: CompanyRow,
  person: { name1: string; name2: string },
): Promise<{ scope: UserScope; newCardholder?: NewCardholder }> {
  let scope: UserScope = {};
  let newCardholder: NewCardholder | undefined;
  switch (type) {
    case 'Z':
      break;
    case 'H': {
      const [issuer] = await db.select().from(issuers).where(eq(issuers.id, company.issuerId));
      scope = { issuerGroupId: issuer?.issuerGroupId ?? null };
      break;
    }
    case 'I':
      scope = { issuerId: company.issuerId };
      break;
    case 'G':
      scope = { companyGroupId: company.companyGroupId };
      break;
    case 'C':
      scope = { companyId: company.id };
      break;
    case 'O':
      scope = { companyId: company.id, orgPointId: (await topOrgPoint(db, company.id))?.id ?? null };
      break;
    case 'S': {
      const [group] = await db
        .select()
        .from(accountGroups)
        .where(and(eq(accountGroups.companyId, company.id), eq(accountGroups.active, true)))
        .orderBy(asc(accountGroups.id))
        .limit(1);
      scope = { companyId: company.id, accountGroupId: group?.id ?? null };
      break;
    }
    case 'A':
      scope = { companyId: company.id };
      newCardholder = {
        companyId: company.id,
        orgPointId: (await topOrgPoint(db, company.id))?.id ?? null,
        ...person,
      };
      break;
  }
  const missing = checkUserScope(type, scope).filter(
    (key) => !(newCardholder && key === 'userScope.cardholderIdRequired'),
  );
  if (missing.length > 0) {
    throw new AppError('invalid', missing[0] as string, {
      message: `company ${company.number} cannot hold a user of type ${type}: ${missing.join(', ')}`,
    });
  }
  return newCardholder ? { scope, newCardholder } : { scope };
}
