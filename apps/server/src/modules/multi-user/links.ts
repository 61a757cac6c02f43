import type { LinkMember, MultiUserState, UserStatus, UserType } from '@cardportal/domain';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { companies, multiUserMembers, users } from '../../db/schema.ts';

/**
 * Multi-user links as the signed-in user and the application's frame see them (docs/multi-user.md).
 * The link maintenance itself is modules/multi-user; this is what `GET /app/api/me` and the session
 * switch share with it.
 */

/** The link a user belongs to, and whether its own membership is confirmed; undefined when unlinked. */
export async function membershipOf(db: Executor, userPk: number) {
  const [row] = await db.select().from(multiUserMembers).where(eq(multiUserMembers.userPk, userPk)).limit(1);
  return row;
}

/** Members of a link (with their company), in user ID order; `confirmedOnly` leaves the unconfirmed out. */
export async function linkMembers(
  db: Executor,
  linkId: number,
  confirmedOnly = false,
): Promise<(LinkMember & { pk: number })[]> {
  const rows = await db
    .select({
      pk: users.id,
      userId: users.displayUserId,
      canonical: users.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      userType: users.userType,
      status: users.status,
      companyNumber: companies.number,
      companyName: companies.name1,
      confirmedAt: multiUserMembers.confirmedAt,
    })
    .from(multiUserMembers)
    .innerJoin(users, eq(users.id, multiUserMembers.userPk))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(
      confirmedOnly
        ? and(eq(multiUserMembers.linkId, linkId), isNotNull(multiUserMembers.confirmedAt))
        : eq(multiUserMembers.linkId, linkId),
    )
    .orderBy(asc(users.userId));
  return rows.map((r) => ({
    pk: r.pk,
    userId: r.userId,
    firstName: r.firstName,
    lastName: r.lastName,
    userType: r.userType as UserType,
    status: r.status as UserStatus,
    companyNumber: r.companyNumber,
    companyName: r.companyName,
    confirmed: r.confirmedAt !== null,
  }));
}

/**
 * The signed-in user's multi-user state: its unconfirmed membership to confirm (with the IDs it would be
 * linked with), or — when confirmed, not yet chosen in this session and not accessed by someone else —
 * the confirmed, active IDs of its link to choose from, itself first.
 */
export async function multiUserStateOf(
  db: Executor,
  userPk: number,
  options: { chosen: boolean; accessed: boolean },
): Promise<MultiUserState & { linkId: number | null }> {
  const none = { confirm: null, choices: [], linkId: null };
  if (options.accessed) return none;
  const membership = await membershipOf(db, userPk);
  if (!membership) return none;
  if (!membership.confirmedAt) {
    const others = (await linkMembers(db, membership.linkId)).filter((m) => m.pk !== userPk);
    return { confirm: others.map(({ pk: _pk, ...m }) => m), choices: [], linkId: membership.linkId };
  }
  if (options.chosen) return { ...none, linkId: membership.linkId };
  const confirmed = (await linkMembers(db, membership.linkId, true)).filter((m) => m.status === 'Active');
  if (confirmed.length < 2) return { ...none, linkId: membership.linkId };
  const self = confirmed.filter((m) => m.pk === userPk);
  const others = confirmed.filter((m) => m.pk !== userPk);
  return {
    confirm: null,
    choices: [...self, ...others].map(({ pk: _pk, ...m }) => m),
    linkId: membership.linkId,
  };
}

/** How many roles the given users hold together. */
export async function rolesHeldBy(db: Executor, userPks: readonly number[]): Promise<Map<number, number>> {
  if (userPks.length === 0) return new Map();
  const result = await db.execute<{ user_pk: number; n: number }>(
    sql`select user_pk, count(*)::int as n from user_roles where user_pk in (${sql.join(
      userPks.map((pk) => sql`${pk}`),
      sql`, `,
    )}) group by user_pk`,
  );
  const rows =
    (result as unknown as { rows?: { user_pk: number; n: number }[] }).rows ??
    (result as unknown as { user_pk: number; n: number }[]);
  return new Map(rows.map((r) => [Number(r.user_pk), Number(r.n)]));
}
