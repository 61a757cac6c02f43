import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { companies, companyGroups, issuers, sessions, users } from '../../db/schema.ts';

/**
 * A user's issuer: its own (I), else its company's (C, O, S, A), else its company group's (G) — over
 * `users` joined to `companies` and `company_groups` by the user's placement (the aliased queries below
 * spell the same expression over their own aliases).
 */
export const USER_ISSUER_ID = sql<
  number | null
>`coalesce(${users.issuerId}, ${companies.issuerId}, ${companyGroups.issuerId})`;

/**
 * A user's organisation standing (seed 001 §8 "locked or inactive user or corp", issue 13 item 6): a
 * user whose company or issuer is inactive may not sign in, and their sessions end. The company is the
 * user's own (`company_id`); the issuer is the user's own, else its company's, else its company
 * group's. A user placed in neither (a system administrator) has nothing to be inactive.
 */
export const organisationActiveSql = (userPk: SQL | number): SQL<boolean> => sql<boolean>`not exists (
  select 1 from ${users} su
  left join ${companies} sc on sc.id = su.company_id
  left join ${companyGroups} sg on sg.id = su.company_group_id
  left join ${issuers} si on si.id = coalesce(su.issuer_id, sc.issuer_id, sg.issuer_id)
  where su.id = ${userPk} and (sc.active = false or si.active = false))`;

/** True when the user's company and issuer (those it has) are active. */
export async function organisationActive(db: Executor, userPk: number): Promise<boolean> {
  const [row] = await queryRows<{ active: boolean }>(
    db,
    sql`select ${organisationActiveSql(userPk)} as "active"`,
  );
  return row?.active === true;
}

/**
 * Ends at once every session of the users a deactivated company or issuer holds (the per-request check
 * in loadCaller refuses them too; this also ends partial sessions mid sign-in). Returns how many ended.
 */
export async function endSessionsOfOrganisation(
  db: Executor,
  of: { companyId: number } | { issuerId: number },
): Promise<number> {
  const members =
    'companyId' in of
      ? sql`select id from ${users} where company_id = ${of.companyId}`
      : sql`select u.id from ${users} u
          left join ${companies} c on c.id = u.company_id
          left join ${companyGroups} g on g.id = u.company_group_id
          where coalesce(u.issuer_id, c.issuer_id, g.issuer_id) = ${of.issuerId}`;
  const ended = await db
    .delete(sessions)
    .where(sql`${sessions.userPk} in (${members})`)
    .returning({ id: sessions.idHash });
  return ended.length;
}
