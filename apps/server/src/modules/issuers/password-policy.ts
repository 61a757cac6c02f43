import { DEFAULT_PASSWORD_POLICY, type IssuerPasswordPolicy } from '@cardportal/domain';
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { companies, companyGroups, issuers } from '../../db/schema.ts';

/** Where a user sits, as far as its issuer goes (users' placement columns). */
export interface IssuerPlacement {
  issuerId?: number | null;
  companyId?: number | null;
  companyGroupId?: number | null;
}

/**
 * The password settings of a user's issuer (issuers.password_min_length, password_duration_days):
 * its own issuer (I), its company's (C, O, S, A) or its company group's (G). A user without one (Z, an
 * issuer group's H, a user not yet placed) has DEFAULT_PASSWORD_POLICY (12 characters, 90 days).
 */
export async function passwordPolicyOf(
  db: Executor,
  placement: IssuerPlacement,
): Promise<IssuerPasswordPolicy> {
  const { issuerId = null, companyId = null, companyGroupId = null } = placement;
  if (issuerId === null && companyId === null && companyGroupId === null) return DEFAULT_PASSWORD_POLICY;
  const [row] = await queryRows<{ min_length: number; duration_days: number }>(
    db,
    sql`
    select ${issuers.passwordMinLength} as min_length, ${issuers.passwordDurationDays} as duration_days
    from ${issuers}
    where ${issuers.id} = coalesce(
      ${issuerId}::integer,
      (select ${companies.issuerId} from ${companies} where ${companies.id} = ${companyId}::integer),
      (select ${companyGroups.issuerId} from ${companyGroups} where ${companyGroups.id} = ${companyGroupId}::integer)
    )`,
  );
  if (!row) return DEFAULT_PASSWORD_POLICY;
  return { passwordMinLength: Number(row.min_length), passwordDurationDays: Number(row.duration_days) };
}

/** When a password set now expires under the policy: `now() + duration`, computed by the database. */
export function expiryFromNow(policy: IssuerPasswordPolicy) {
  return sql`now() + make_interval(days => ${policy.passwordDurationDays}::integer)`;
}
