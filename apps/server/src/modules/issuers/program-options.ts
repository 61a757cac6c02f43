import {
  isFeatureEnabled,
  isProgramOptionKey,
  type OptionSettings,
  type ProgramOptionConflict,
  type ProgramOptionKey,
  singleSignOnConflict,
} from '@cardportal/domain';
import { and, eq, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { companies, programOptions } from '../../db/schema.ts';

/**
 * Program options (seed 001 §1: features gated by issuer and company program options; decisions in
 * docs/organisations.md). Shared by every module that gates a feature.
 */

/** Each level's own settings of one company: its issuer's rows and its own rows. */
export interface OptionLevels {
  issuer: OptionSettings;
  company: OptionSettings;
}

/** The issuer's and the company's own settings, in one query (an unknown company: both empty). */
export async function companyOptionLevels(db: Executor, companyId: number): Promise<OptionLevels> {
  const rows = await db
    .select({ key: programOptions.key, level: programOptions.level, enabled: programOptions.enabled })
    .from(companies)
    .innerJoin(
      programOptions,
      or(eq(programOptions.companyId, companies.id), eq(programOptions.issuerId, companies.issuerId)),
    )
    .where(eq(companies.id, companyId));
  const out: OptionLevels = { issuer: {}, company: {} };
  for (const row of rows) {
    if (!isProgramOptionKey(row.key)) continue;
    if (row.level === 'issuer') out.issuer[row.key] = row.enabled;
    else if (row.level === 'company') out.company[row.key] = row.enabled;
  }
  return out;
}

/** Whether a feature is on for a company (isFeatureEnabled on its issuer's and its own rows). */
export async function isFeatureOn(db: Executor, companyId: number, key: ProgramOptionKey): Promise<boolean> {
  const rows = await db
    .select({ level: programOptions.level, enabled: programOptions.enabled })
    .from(companies)
    .innerJoin(
      programOptions,
      and(
        eq(programOptions.key, key),
        or(eq(programOptions.companyId, companies.id), eq(programOptions.issuerId, companies.issuerId)),
      ),
    )
    .where(eq(companies.id, companyId));
  const issuer: OptionSettings = {};
  const company: OptionSettings = {};
  for (const row of rows) {
    if (row.level === 'issuer') issuer[key] = row.enabled;
    else if (row.level === 'company') company[key] = row.enabled;
  }
  return isFeatureEnabled(key, issuer, company);
}

const effectiveConflict = (issuer: OptionSettings, company: OptionSettings, multiUser: boolean) =>
  singleSignOnConflict({
    singleSignOn: isFeatureEnabled('singleSignOn', issuer, company),
    selfRegistration: isFeatureEnabled('selfRegistration', issuer, company),
    multiUser,
  });

/**
 * The single sign-on rule (seed 001 §6, packages/domain singleSignOnConflict) for an issuer whose own
 * settings would be `issuer`: the issuer's own combination, then each of its multi-user companies with
 * its own settings. Answers the first problem and the companies that have it (none: the issuer's own).
 */
export async function issuerSingleSignOnConflict(
  db: Executor,
  issuerId: number,
  issuer: OptionSettings,
): Promise<{ problem: ProgramOptionConflict; companies: string[] } | undefined> {
  const own = effectiveConflict(issuer, {}, false);
  if (own === 'programOption.ssoWithSelfRegistration') return { problem: own, companies: [] };
  const rows = await db
    .select({ number: companies.number, key: programOptions.key, enabled: programOptions.enabled })
    .from(companies)
    .leftJoin(programOptions, eq(programOptions.companyId, companies.id))
    .where(and(eq(companies.issuerId, issuerId), eq(companies.multiUser, true)));
  const byCompany = new Map<string, OptionSettings>();
  for (const row of rows) {
    const settings = byCompany.get(row.number) ?? {};
    if (row.key !== null && isProgramOptionKey(row.key)) settings[row.key] = row.enabled ?? undefined;
    byCompany.set(row.number, settings);
  }
  const found = [...byCompany].filter(([, settings]) => effectiveConflict(issuer, settings, true));
  if (found.length === 0) return undefined;
  const [first] = found;
  const problem = first ? effectiveConflict(issuer, first[1], true) : undefined;
  return problem ? { problem, companies: found.map(([number]) => number).sort() } : undefined;
}

/**
 * The single sign-on rule for one company if its own settings and its multi-user flag were changed as
 * given (the rest as stored; its issuer's settings as stored).
 */
export async function companySingleSignOnConflict(
  db: Executor,
  companyId: number,
  change: { company?: Partial<Record<ProgramOptionKey, boolean | null>>; multiUser?: boolean },
): Promise<ProgramOptionConflict | undefined> {
  const levels = await companyOptionLevels(db, companyId);
  const [row] = await db
    .select({ multiUser: companies.multiUser })
    .from(companies)
    .where(eq(companies.id, companyId));
  const company: OptionSettings = { ...levels.company };
  for (const [key, value] of Object.entries(change.company ?? {}) as [ProgramOptionKey, boolean | null][]) {
    if (value === null) delete company[key];
    else company[key] = value;
  }
  return effectiveConflict(levels.issuer, company, change.multiUser ?? row?.multiUser ?? false);
}

/** Whether an issuer has a feature on for its companies (its own row; absent = off), offered ones only. */
export async function isIssuerFeatureOn(
  db: Executor,
  issuerId: number,
  key: ProgramOptionKey,
): Promise<boolean> {
  const [row] = await db
    .select({ enabled: programOptions.enabled })
    .from(programOptions)
    .where(and(eq(programOptions.issuerId, issuerId), eq(programOptions.key, key)));
  return isFeatureEnabled(key, { [key]: row?.enabled ?? false });
}
