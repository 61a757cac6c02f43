import {
  isFeatureEnabled,
  isProgramOptionKey,
  type OptionSettings,
  type ProgramOptionKey,
} from '@cardportal/domain';
import { and, eq, or } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { companies, programOptions } from '../db/schema.ts';

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
