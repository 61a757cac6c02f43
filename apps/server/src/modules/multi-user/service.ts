import {
  canonicalUserId,
  checkLinkCandidate,
  checkLinkSet,
  type LinkCandidate,
  MULTI_USER_SELF,
  may,
  sameLinkMembers,
  type UserLink,
  type UserStatus,
  type UserType,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import { refuse } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { findVisibleUser, mayModifyVisible, type VisibleUser } from '../access/index.ts';
import {
  addMembers,
  confirmedMember,
  confirmMembership,
  createLink,
  linkIdsOf,
  linkMembers,
  lockedMembershipOf,
  lockLink,
  lockUsers,
  membershipOf,
  multiUserOfCompany,
  removeMember,
  resetConfirmations,
  rolesHeldBy,
} from './links.ts';

/**
 * Multi-user links (docs/multi-user.md): administrators link the user IDs of one person; each member
 * confirms its own membership signed in as itself; confirmed members choose which ID to work as.
 */
export class MultiUserService {
  constructor(private readonly db: Db) {}

  private async visible(db: Executor, caller: Caller, userId: string): Promise<VisibleUser> {
    const row = await findVisibleUser(db, caller, userId);
    if (!row) return refuse('notFound', 'user.notFound');
    return row;
  }

  /** The user's link as an administrator sees it. */
  async linkOf(caller: Caller, userId: string, db: Executor = this.db): Promise<UserLink> {
    const row = await this.visible(db, caller, userId);
    const membership = await membershipOf(db, row.user.id);
    const members = membership ? await linkMembers(db, membership.linkId) : [];
    const modify =
      may(caller, 'linkUsers') && row.user.id !== caller.userPk && (await mayModifyVisible(db, caller, row));
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
      if (member.pk === caller.userPk) return { problem: MULTI_USER_SELF };
      const row = await findVisibleUser(db, caller, member.userId);
      if (!row || row.user.id !== member.pk || !(await mayModifyVisible(db, caller, row)))
        return { problem: 'multiUser.forbidden' };
      rows.push(row);
    }
    return { rows };
  }

  private async candidate(db: Executor, row: VisibleUser, linkId?: number): Promise<LinkCandidate> {
    const companyMultiUser = row.user.companyId ? await multiUserOfCompany(db, row.user.companyId) : null;
    const membership = await membershipOf(db, row.user.id);
    const roles = (await rolesHeldBy(db, [row.user.id])).get(row.user.id) ?? 0;
    return {
      type: row.user.userType as UserType,
      status: row.user.status as UserStatus,
      sso: row.user.sso,
      loginType: row.user.loginType,
      issuerId: row.placement.issuerId,
      companyMultiUser,
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
    return this.db.transaction(async (tx) => {
      const rows: VisibleUser[] = [];
      const indexOf = new Map<number, number>();
      for (const [index, userId] of userIds.entries()) {
        const row = await findVisibleUser(tx, caller, userId);
        if (!row) return refuse('notFound', 'user.notFound', { [`userIds.${index}`]: 'user.notFound' });
        if (rows.some((r) => r.user.id === row.user.id)) continue;
        if (row.user.id === caller.userPk)
          refuse('forbidden', MULTI_USER_SELF, { [`userIds.${index}`]: MULTI_USER_SELF });
        if (!(await mayModifyVisible(tx, caller, row)))
          refuse('forbidden', 'multiUser.forbidden', { [`userIds.${index}`]: 'multiUser.forbidden' });
        rows.push(row);
        indexOf.set(row.user.id, index);
      }
      const pks = rows.map((r) => r.user.id);
      // Serialise concurrent links of the same users ...
      await lockUsers(tx, pks);
      const linkIds = await linkIdsOf(tx, pks);
      if (linkIds.length > 1) refuse('conflict', 'multiUser.alreadyLinked');
      const linkId = linkIds[0];
      if (linkId !== undefined) {
        // ... and every change of the link they belong to (confirm, decline, unlink, another growth).
        await lockLink(tx, linkId, 'update');
        const again = await linkIdsOf(tx, pks);
        if (again.length !== 1 || again[0] !== linkId) refuse('conflict', 'multiUser.linkChanged');
      }
      const existing = linkId === undefined ? [] : await linkMembers(tx, linkId);
      const joining = rows.filter((r) => !existing.some((m) => m.pk === r.user.id));
      if (joining.length === 0) refuse('conflict', 'multiUser.nothingToLink');
      const others = await this.othersInLink(tx, caller, existing, pks);
      if (others.problem !== undefined) return refuse('forbidden', others.problem);
      const candidates: LinkCandidate[] = [];
      for (const row of [...rows, ...others.rows]) {
        const candidate = await this.candidate(tx, row, linkId);
        const problem = checkLinkCandidate(candidate);
        const index = indexOf.get(row.user.id);
        if (problem)
          refuse('conflict', problem, index === undefined ? undefined : { [`userIds.${index}`]: problem });
        candidates.push(candidate);
      }
      const setProblem = checkLinkSet(candidates);
      if (setProblem) refuse('conflict', setProblem);
      let id = linkId;
      if (id === undefined) {
        id = await createLink(tx, {
          issuerId: candidates[0]?.issuerId as number,
          createdByPk: caller.accessedBy?.pk ?? caller.userPk,
        });
      } else {
        // The members confirmed the link as it was; it is another one now.
        await resetConfirmations(tx, id);
      }
      await addMembers(
        tx,
        id,
        joining.map((r) => r.user.id),
        caller.userPk,
      );
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
    return this.db.transaction(async (tx) => {
      const row = await this.visible(tx, caller, userId);
      if (row.user.id === caller.userPk) refuse('forbidden', MULTI_USER_SELF);
      if (!(await mayModifyVisible(tx, caller, row))) refuse('forbidden', 'multiUser.forbidden');
      const membership = await lockedMembershipOf(tx, row.user.id, 'update');
      if (!membership) return refuse('conflict', 'multiUser.notLinked');
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
    await this.db.transaction(async (tx) => {
      const membership = await lockedMembershipOf(tx, caller.userPk, 'update');
      if (!membership || membership.confirmedAt) return refuse('conflict', 'multiUser.nothingToConfirm');
      const all = await linkMembers(tx, membership.linkId);
      const members = all.map((m) => m.userId).sort();
      const others = all.filter((m) => m.pk !== caller.userPk).map((m) => m.userId);
      if (accept && !sameLinkMembers(shown ?? [], others)) refuse('conflict', 'multiUser.linkChanged');
      if (accept) await confirmMembership(tx, caller.userPk);
      else await removeMember(tx, caller.userPk, membership.linkId);
      await auditAdmin(tx, accept ? 'multiUser.confirmed' : 'multiUser.declined', {
        actor: caller,
        entity: 'user',
        entityId: caller.userId,
        subjectPk: caller.userPk,
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
    const wanted = canonicalUserId(userId);
    if (wanted.includes('\u0000')) return refuse('notFound', 'multiUser.choice.invalid');
    return this.db.transaction(async (tx) => {
      // Shared: no growth, confirmation or unlink of this link in between.
      const membership = await lockedMembershipOf(tx, caller.userPk, 'share');
      if (!membership?.confirmedAt) return refuse('notFound', 'multiUser.choice.invalid');
      if (wanted === caller.profile.canonicalUserId) return undefined;
      const u = await confirmedMember(tx, membership.linkId, wanted);
      if (!u || u.status !== 'Active') return refuse('notFound', 'multiUser.choice.invalid');
      const expired = u.passwordExpiresAt !== null && u.passwordExpiresAt.getTime() <= Date.now();
      if (u.passwordTemporary || u.firstLogin || expired) refuse('conflict', 'multiUser.choice.signInFirst');
      return { pk: u.id, userId: u.displayUserId };
    });
  }
}
