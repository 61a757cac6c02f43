import {
  canonicalUserId,
  checkLinkCandidate,
  checkLinkSet,
  type LinkCandidate,
  MULTI_USER_SELF,
  sameLinkMembers,
  type UserLink,
  type UserStatus,
  type UserType,
} from '@cardportal/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { companies, multiUserLinks, multiUserMembers, users } from '../../db/schema.ts';
import { refuseWith } from '../../http/app-handler.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { findVisibleUser, mayModifyVisible, type VisibleUser } from '../access/index.ts';
import { linkMembers, membershipOf, rolesHeldBy } from './links.ts';

/**
 * Multi-user links (docs/multi-user.md): administrators link the user IDs of one person; each member
 * confirms its own membership signed in as itself; confirmed members choose which ID to work as.
 */
export class MultiUserService {
  constructor(private readonly db: Db) {}

  /** Whether the caller may link and unlink users at all: the permission, and not while accessing as. */
  private mayLink(caller: Caller): boolean {
    return caller.permissions.has('linkUsers') && caller.accessedBy === null;
  }

  private async visible(db: Executor, caller: Caller, userId: string): Promise<VisibleUser> {
    const row = await findVisibleUser(db, caller, userId);
    if (!row) return refuseWith(404, 'user.notFound');
    return row;
  }

  /** The user's link as an administrator sees it. */
  async linkOf(caller: Caller, userId: string, db: Executor = this.db): Promise<UserLink> {
    const row = await this.visible(db, caller, userId);
    const membership = await membershipOf(db, row.user.id);
    const members = membership ? await linkMembers(db, membership.linkId) : [];
    const modify =
      this.mayLink(caller) && row.user.id !== caller.pk && (await mayModifyVisible(db, caller, row));
    const others = modify ? await this.othersInLink(db, caller, members, [row.user.id]) : undefined;
    return {
      userId: row.user.displayUserId,
      members: members.map(({ pk: _pk, ...m }) => m),
      mayLink:
        others?.problem === undefined &&
        modify &&
        checkLinkCandidate(await this.candidate(db, row, membership?.linkId)) === undefined,
      mayUnlink: modify && membership !== undefined,
    };
  }

  /**
   * The members of a link beyond `named`, each as the caller sees it, or the refusal the caller earns
   * for them: one of them is the caller itself (`multiUser.self`), or one it may not modify — a link
   * is changed only by someone with authority over every member of it.
   */
  private async othersInLink(
    db: Executor,
    caller: Caller,
    members: readonly { pk: number; userId: string }[],
    named: readonly number[],
  ): Promise<{ rows: VisibleUser[]; problem?: undefined } | { rows?: undefined; problem: string }> {
    const rows: VisibleUser[] = [];
    for (const member of members) {
      if (named.includes(member.pk)) continue;
      if (member.pk === caller.pk) return { problem: MULTI_USER_SELF };
      const row = await findVisibleUser(db, caller, member.userId);
      if (!row || row.user.id !== member.pk || !(await mayModifyVisible(db, caller, row)))
        return { problem: 'multiUser.forbidden' };
      rows.push(row);
    }
    return { rows };
  }

  private async candidate(db: Executor, row: VisibleUser, linkId?: number): Promise<LinkCandidate> {
    const [company] = row.user.companyId
      ? await db
          .select({ multiUser: companies.multiUser })
          .from(companies)
          .where(eq(companies.id, row.user.companyId))
      : [];
    const membership = await membershipOf(db, row.user.id);
    const roles = (await rolesHeldBy(db, [row.user.id])).get(row.user.id) ?? 0;
    return {
      type: row.user.userType as UserType,
      status: row.user.status as UserStatus,
      sso: row.user.sso,
      loginType: row.user.loginType,
      issuerId: row.placement.issuerId,
      companyMultiUser: company ? company.multiUser : null,
      roles,
      linkedElsewhere: membership !== undefined && membership.linkId !== linkId,
    };
  }

  /**
   * Links the given user IDs: a new link, or the one link some of them already belong to grows. The
   * caller may modify every member of the resulting link (the ones already in it too) and is none of
   * them; every member passes the linking rules; growing resets every existing member's confirmation,
   * so the link works again only once each member has confirmed the new membership signed in as itself.
   */
  async link(caller: Caller, userIds: string[], ip: string): Promise<UserLink> {
    if (!this.mayLink(caller)) refuseWith(403, 'multiUser.forbidden');
    return this.db.transaction(async (tx) => {
      const rows: VisibleUser[] = [];
      const indexOf = new Map<number, number>();
      for (const [index, userId] of userIds.entries()) {
        const row = await findVisibleUser(tx, caller, userId);
        if (!row) return refuseWith(404, 'user.notFound', { [`userIds.${index}`]: 'user.notFound' });
        if (rows.some((r) => r.user.id === row.user.id)) continue;
        if (row.user.id === caller.pk)
          refuseWith(403, MULTI_USER_SELF, { [`userIds.${index}`]: MULTI_USER_SELF });
        if (!(await mayModifyVisible(tx, caller, row)))
          refuseWith(403, 'multiUser.forbidden', { [`userIds.${index}`]: 'multiUser.forbidden' });
        rows.push(row);
        indexOf.set(row.user.id, index);
      }
      const pks = rows.map((r) => r.user.id);
      // Serialise concurrent links of the same users ...
      await tx.execute(
        sql`select id from users where id in (${sql.join(
          pks.map((pk) => sql`${pk}`),
          sql`, `,
        )}) order by id for update`,
      );
      const linkIdsOf = async () =>
        [
          ...new Set(
            (
              await tx
                .select({ linkId: multiUserMembers.linkId })
                .from(multiUserMembers)
                .where(inArray(multiUserMembers.userPk, pks))
            ).map((m) => m.linkId),
          ),
        ].sort((a, b) => a - b);
      const linkIds = await linkIdsOf();
      if (linkIds.length > 1) refuseWith(409, 'multiUser.alreadyLinked');
      const linkId = linkIds[0];
      if (linkId !== undefined) {
        // ... and every change of the link they belong to (confirm, decline, unlink, another growth).
        await lockLink(tx, linkId, 'update');
        const again = await linkIdsOf();
        if (again.length !== 1 || again[0] !== linkId) refuseWith(409, 'multiUser.linkChanged');
      }
      const existing = linkId === undefined ? [] : await linkMembers(tx, linkId);
      const joining = rows.filter((r) => !existing.some((m) => m.pk === r.user.id));
      if (joining.length === 0) refuseWith(409, 'multiUser.nothingToLink');
      const others = await this.othersInLink(tx, caller, existing, pks);
      if (others.problem !== undefined) return refuseWith(403, others.problem);
      const candidates: LinkCandidate[] = [];
      for (const row of [...rows, ...others.rows]) {
        const candidate = await this.candidate(tx, row, linkId);
        const problem = checkLinkCandidate(candidate);
        const index = indexOf.get(row.user.id);
        if (problem)
          refuseWith(409, problem, index === undefined ? undefined : { [`userIds.${index}`]: problem });
        candidates.push(candidate);
      }
      const setProblem = checkLinkSet(candidates);
      if (setProblem) refuseWith(409, setProblem);
      let id = linkId;
      if (id === undefined) {
        const [created] = await tx
          .insert(multiUserLinks)
          .values({
            issuerId: candidates[0]?.issuerId as number,
            createdByPk: caller.accessedBy?.pk ?? caller.pk,
          })
          .returning({ id: multiUserLinks.id });
        id = created?.id as number;
      } else {
        // The members confirmed the link as it was; it is another one now.
        await tx.update(multiUserMembers).set({ confirmedAt: null }).where(eq(multiUserMembers.linkId, id));
      }
      await tx
        .insert(multiUserMembers)
        .values(joining.map((r) => ({ userPk: r.user.id, linkId: id as number, addedByPk: caller.pk })));
      const before = existing.map((m) => m.userId).sort();
      const names = [...before, ...joining.map((r) => r.user.displayUserId)].sort();
      for (const member of [
        ...joining.map((r) => ({ pk: r.user.id, userId: r.user.displayUserId, before: null })),
        ...existing.map((m) => ({ pk: m.pk, userId: m.userId, before })),
      ])
        await auditAdmin(tx, 'multiUser.linked', {
          actor: caller,
          entity: 'user',
          entityId: member.userId,
          subjectPk: member.pk,
          changes: { link: { before: member.before, after: names } },
          ip,
        });
      return this.linkOf(caller, (rows[0] as VisibleUser).user.displayUserId, tx);
    });
  }

  /** Takes a user out of its link (from user information); a link left with one member ends. */
  async unlink(caller: Caller, userId: string, ip: string): Promise<UserLink> {
    if (!this.mayLink(caller)) refuseWith(403, 'multiUser.forbidden');
    return this.db.transaction(async (tx) => {
      const row = await this.visible(tx, caller, userId);
      if (row.user.id === caller.pk) refuseWith(403, MULTI_USER_SELF);
      if (!(await mayModifyVisible(tx, caller, row))) refuseWith(403, 'multiUser.forbidden');
      const membership = await lockedMembershipOf(tx, row.user.id, 'update');
      if (!membership) return refuseWith(409, 'multiUser.notLinked');
      const before = (await linkMembers(tx, membership.linkId)).map((m) => m.userId).sort();
      await removeMember(tx, row.user.id, membership.linkId);
      await auditAdmin(tx, 'multiUser.unlinked', {
        actor: caller,
        entity: 'user',
        entityId: row.user.displayUserId,
        subjectPk: row.user.id,
        changes: { link: { before, after: null } },
        ip,
      });
      return this.linkOf(caller, userId, tx);
    });
  }

  /**
   * The signed-in user accepts or declines its own unconfirmed membership. Accepting names the other
   * members it was shown (`shown`); a link changed since is refused, not confirmed unseen.
   */
  async confirm(caller: Caller, accept: boolean, shown: readonly string[] | undefined, ip: string) {
    if (caller.accessedBy) refuseWith(403, 'multiUser.forbidden');
    await this.db.transaction(async (tx) => {
      const membership = await lockedMembershipOf(tx, caller.pk, 'update');
      if (!membership || membership.confirmedAt) return refuseWith(409, 'multiUser.nothingToConfirm');
      const all = await linkMembers(tx, membership.linkId);
      const members = all.map((m) => m.userId).sort();
      const others = all.filter((m) => m.pk !== caller.pk).map((m) => m.userId);
      if (accept && !sameLinkMembers(shown ?? [], others)) refuseWith(409, 'multiUser.linkChanged');
      if (accept)
        await tx
          .update(multiUserMembers)
          .set({ confirmedAt: new Date() })
          .where(eq(multiUserMembers.userPk, caller.pk));
      else await removeMember(tx, caller.pk, membership.linkId);
      await auditAdmin(tx, accept ? 'multiUser.confirmed' : 'multiUser.declined', {
        actor: caller,
        entity: 'user',
        entityId: caller.userId,
        subjectPk: caller.pk,
        changes: { link: { before: members, after: accept ? members : null } },
        ip,
      });
    });
  }

  /**
   * The member to switch to: in the caller's link, both of them having confirmed its current
   * membership (growing a link resets every confirmation), active, with a password that needs no
   * change. Undefined: the caller chose itself.
   */
  async choice(caller: Caller, userId: string): Promise<{ pk: number; userId: string } | undefined> {
    if (caller.accessedBy) refuseWith(403, 'multiUser.forbidden');
    const wanted = canonicalUserId(userId);
    if (wanted.includes('\u0000')) return refuseWith(404, 'multiUser.choice.invalid');
    return this.db.transaction(async (tx) => {
      // Shared: no growth, confirmation or unlink of this link in between.
      const membership = await lockedMembershipOf(tx, caller.pk, 'share');
      if (!membership?.confirmedAt) return refuseWith(404, 'multiUser.choice.invalid');
      if (wanted === caller.row.userId) return undefined;
      const [target] = await tx
        .select({ user: users })
        .from(multiUserMembers)
        .innerJoin(users, eq(users.id, multiUserMembers.userPk))
        .where(
          and(
            eq(multiUserMembers.linkId, membership.linkId),
            eq(users.userId, wanted),
            sql`${multiUserMembers.confirmedAt} is not null`,
          ),
        )
        .limit(1);
      if (!target || target.user.status !== 'Active') return refuseWith(404, 'multiUser.choice.invalid');
      const u = target.user;
      const expired = u.passwordExpiresAt !== null && u.passwordExpiresAt.getTime() <= Date.now();
      if (u.passwordTemporary || u.firstLogin || expired) refuseWith(409, 'multiUser.choice.signInFirst');
      return { pk: u.id, userId: u.displayUserId };
    });
  }
}

/** Locks a link's row: every change of a link (and a choice within it) holds it. */
async function lockLink(tx: Executor, linkId: number, mode: 'update' | 'share'): Promise<void> {
  await tx.execute(
    mode === 'update'
      ? sql`select id from multi_user_links where id = ${linkId} for update`
      : sql`select id from multi_user_links where id = ${linkId} for share`,
  );
}

/** A user's membership read again once its link is locked (undefined when it changed meanwhile). */
async function lockedMembershipOf(tx: Executor, userPk: number, mode: 'update' | 'share') {
  const first = await membershipOf(tx, userPk);
  if (!first) return undefined;
  await lockLink(tx, first.linkId, mode);
  const locked = await membershipOf(tx, userPk);
  return locked?.linkId === first.linkId ? locked : undefined;
}

async function removeMember(tx: Executor, userPk: number, linkId: number): Promise<void> {
  await tx.delete(multiUserMembers).where(eq(multiUserMembers.userPk, userPk));
  const left = await tx
    .select({ pk: multiUserMembers.userPk })
    .from(multiUserMembers)
    .where(eq(multiUserMembers.linkId, linkId));
  if (left.length < 2) await tx.delete(multiUserLinks).where(eq(multiUserLinks.id, linkId));
}
