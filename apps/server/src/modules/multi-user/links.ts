import type { LinkMember, MultiUserState, UserStatus, UserType } from '@cardportal/domain';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { companies, multiUserLinks, multiUserMembers, users } from '../../db/schema.ts';

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
  const rows = await queryRows<{ user_pk: number; n: number }>(
    db,
    sql`select user_pk, count(*)::int as n from user_roles where user_pk in (${sql.join(
      userPks.map((pk) => sql`${pk}`),
      sql`, `,
    )}) group by user_pk`,
  );
  return new Map(rows.map((r) => [Number(r.user_pk), Number(r.n)]));
}

/** Whether the company allows multi-user links (null: no such company). */
export async function multiUserOfCompany(db: Executor, companyId: number): Promise<boolean | null> {
  const [company] = await db
    .select({ multiUser: companies.multiUser })
    .from(companies)
    .where(eq(companies.id, companyId));
  return company ? company.multiUser : null;
}

/** Locks the users' rows, in id order: serialises concurrent links of the same users. */
export async function lockUsers(tx: Executor, pks: readonly number[]): Promise<void> {
  if (pks.length === 0) return;
  await tx.execute(
    sql`select id from users where id in (${sql.join(
      pks.map((pk) => sql`${pk}`),
      sql`, `,
    )}) order by id for update`,
  );
}

/** The links the users belong to, in id order. */
export async function linkIdsOf(tx: Executor, pks: readonly number[]): Promise<number[]> {
  const rows = await tx
    .select({ linkId: multiUserMembers.linkId })
    .from(multiUserMembers)
    .where(inArray(multiUserMembers.userPk, [...pks]));
  return [...new Set(rows.map((m) => m.linkId))].sort((a, b) => a - b);
}

export async function createLink(
  tx: Executor,
  values: { issuerId: number; createdByPk: number },
): Promise<number> {
  const [created] = await tx.insert(multiUserLinks).values(values).returning({ id: multiUserLinks.id });
  if (!created) throw new Error('link insert returned no row');
  return created.id;
}

/** Every member of the link must confirm again (it grew). */
export async function resetConfirmations(tx: Executor, linkId: number): Promise<void> {
  await tx.update(multiUserMembers).set({ confirmedAt: null }).where(eq(multiUserMembers.linkId, linkId));
}

export async function addMembers(
  tx: Executor,
  linkId: number,
  userPks: readonly number[],
  addedByPk: number,
): Promise<void> {
  await tx.insert(multiUserMembers).values(userPks.map((userPk) => ({ userPk, linkId, addedByPk })));
}

export async function confirmMembership(tx: Executor, userPk: number): Promise<void> {
  await tx
    .update(multiUserMembers)
    .set({ confirmedAt: new Date() })
    .where(eq(multiUserMembers.userPk, userPk));
}

/** A confirmed member of the link, by its canonical user ID. */
export async function confirmedMember(tx: Executor, linkId: number, canonicalId: string) {
  const [target] = await tx
    .select({ user: users })
    .from(multiUserMembers)
    .innerJoin(users, eq(users.id, multiUserMembers.userPk))
    .where(
      and(
        eq(multiUserMembers.linkId, linkId),
        eq(users.userId, canonicalId),
        sql`${multiUserMembers.confirmedAt} is not null`,
      ),
    )
    .limit(1);
  return target?.user;
}

/** Locks a link's row: every change of a link (and a choice within it) holds it. */
export async function lockLink(tx: Executor, linkId: number, mode: 'update' | 'share'): Promise<void> {
  await tx.execute(
    mode === 'update'
      ? sql`select id from multi_user_links where id = ${linkId} for update`
      : sql`select id from multi_user_links where id = ${linkId} for share`,
  );
}

/** A user's membership read again once its link is locked (undefined when it changed meanwhile). */
export async function lockedMembershipOf(tx: Executor, userPk: number, mode: 'update' | 'share') {
  const first = await membershipOf(tx, userPk);
  if (!first) return undefined;
  await lockLink(tx, first.linkId, mode);
  const locked = await membershipOf(tx, userPk);
  return locked?.linkId === first.linkId ? locked : undefined;
}

export async function removeMember(tx: Executor, userPk: number, linkId: number): Promise<void> {
  await tx.delete(multiUserMembers).where(eq(multiUserMembers.userPk, userPk));
  const left = await tx
    .select({ pk: multiUserMembers.userPk })
    .from(multiUserMembers)
    .where(eq(multiUserMembers.linkId, linkId));
  if (left.length < 2) await tx.delete(multiUserLinks).where(eq(multiUserLinks.id, linkId));
}
