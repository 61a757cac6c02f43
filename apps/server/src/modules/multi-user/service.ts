import {
  canonicalUserId,
  checkLinkCandidate,
  checkLinkSet,
  type LinkCandidate,
  type UserLink,
  type UserStatus,
  type UserType,
} from '@cardportal/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { companies, multiUserLinks, multiUserMembers, users } from '../../db/schema.ts';
import { refuseWith } from '../../http/app-handler.ts';
import { auditAdmin } from '../../shared/audit.ts';
import { linkMembers, membershipOf, rolesHeldBy } from '../../shared/multi-user.ts';
import { type Caller, findVisibleUser, mayModifyVisible, type VisibleUser } from '../../shared/user-scope.ts';

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
    const modify = this.mayLink(caller) && (await mayModifyVisible(db, caller, row));
    return {
      userId: row.user.displayUserId,
      members: members.map(({ pk: _pk, ...m }) => m),
      mayLink: modify && checkLinkCandidate(await this.candidate(db, row, membership?.linkId)) === undefined,
      mayUnlink: modify && membership !== undefined,
    };
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
   * Links the given user IDs: a new link, or the one link some of them already belong to grows. Every
   * member must be one the caller may modify (peer authority included) and pass the linking rules.
   */
  async link(caller: Caller, userIds: string[], ip: string): Promise<UserLink> {
    if (!this.mayLink(caller)) refuseWith(403, 'multiUser.forbidden');
    return this.db.transaction(async (tx) => {
      const rows: VisibleUser[] = [];
      for (const [index, userId] of userIds.entries()) {
        const row = await findVisibleUser(tx, caller, userId);
        if (!row) return refuseWith(404, 'user.notFound', { [`userIds.${index}`]: 'user.notFound' });
        if (rows.some((r) => r.user.id === row.user.id)) continue;
        if (!(await mayModifyVisible(tx, caller, row)))
          refuseWith(403, 'multiUser.forbidden', { [`userIds.${index}`]: 'multiUser.forbidden' });
        rows.push(row);
      }
      const pks = rows.map((r) => r.user.id);
      // Serialise concurrent links of the same users.
      await tx.execute(
        sql`select id from users where id in (${sql.join(
          pks.map((pk) => sql`${pk}`),
          sql`, `,
        )}) order by id for update`,
      );
      const memberships = await tx
        .select()
        .from(multiUserMembers)
        .where(inArray(multiUserMembers.userPk, pks));
      const linkIds = [...new Set(memberships.map((m) => m.linkId))];
      if (linkIds.length > 1) refuseWith(409, 'multiUser.alreadyLinked');
      const linkId = linkIds[0];
      const existing = linkId === undefined ? [] : await linkMembers(tx, linkId);
      const joining = rows.filter((r) => !memberships.some((m) => m.userPk === r.user.id));
      if (joining.length === 0) refuseWith(409, 'multiUser.nothingToLink');
      const candidates: LinkCandidate[] = [];
      for (const [index, row] of rows.entries()) {
        const candidate = await this.candidate(tx, row, linkId);
        if (joining.includes(row)) {
          const problem = checkLinkCandidate(candidate);
          if (problem) refuseWith(409, problem, { [`userIds.${index}`]: problem });
        }
        candidates.push(candidate);
      }
      // Members already in the link but not named here count too.
      const unnamed = existing.filter((m) => !pks.includes(m.pk));
      const unnamedRoles = await rolesHeldBy(
        tx,
        unnamed.map((m) => m.pk),
      );
      const unnamedIssuers = unnamed.length
        ? await tx
            .select({
              pk: users.id,
              issuerId: sql<
                number | null
              >`(select issuer_id from companies c where c.id = ${users.companyId})`,
            })
            .from(users)
            .where(
              inArray(
                users.id,
                unnamed.map((m) => m.pk),
              ),
            )
        : [];
      const whole = [
        ...candidates,
        ...unnamed.map((m) => ({
          type: m.userType,
          issuerId: unnamedIssuers.find((u) => u.pk === m.pk)?.issuerId ?? candidates[0]?.issuerId ?? null,
          roles: unnamedRoles.get(m.pk) ?? 0,
        })),
      ];
      const setProblem = checkLinkSet(whole);
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
      }
      await tx
        .insert(multiUserMembers)
        .values(joining.map((r) => ({ userPk: r.user.id, linkId: id as number, addedByPk: caller.pk })));
      const names = [...existing.map((m) => m.userId), ...joining.map((r) => r.user.displayUserId)].sort();
      for (const row of joining)
        await auditAdmin(tx, 'multiUser.linked', {
          actor: caller,
          entity: 'user',
          entityId: row.user.displayUserId,
          subjectPk: row.user.id,
          changes: { link: { before: null, after: names } },
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
      if (!(await mayModifyVisible(tx, caller, row))) refuseWith(403, 'multiUser.forbidden');
      const membership = await membershipOf(tx, row.user.id);
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

  /** The signed-in user accepts or declines its own unconfirmed membership. */
  async confirm(caller: Caller, accept: boolean, ip: string): Promise<void> {
    if (caller.accessedBy) refuseWith(403, 'multiUser.forbidden');
    await this.db.transaction(async (tx) => {
      const membership = await membershipOf(tx, caller.pk);
      if (!membership || membership.confirmedAt) return refuseWith(409, 'multiUser.nothingToConfirm');
      const members = (await linkMembers(tx, membership.linkId)).map((m) => m.userId).sort();
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
   * The member to switch to: confirmed, active, in the caller's (confirmed) link, with a password that
   * needs no change. Undefined: the caller chose itself.
   */
  async choice(caller: Caller, userId: string): Promise<{ pk: number; userId: string } | undefined> {
    if (caller.accessedBy) refuseWith(403, 'multiUser.forbidden');
    const membership = await membershipOf(this.db, caller.pk);
    if (!membership?.confirmedAt) return refuseWith(404, 'multiUser.choice.invalid');
    const wanted = canonicalUserId(userId);
    if (wanted.includes('\u0000')) return refuseWith(404, 'multiUser.choice.invalid');
    if (wanted === caller.row.userId) return undefined;
    const [target] = await this.db
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
  }
}

async function removeMember(tx: Executor, userPk: number, linkId: number): Promise<void> {
  await tx.delete(multiUserMembers).where(eq(multiUserMembers.userPk, userPk));
  const left = await tx
    .select({ pk: multiUserMembers.userPk })
    .from(multiUserMembers)
    .where(eq(multiUserMembers.linkId, linkId));
  if (left.length < 2) await tx.delete(multiUserLinks).where(eq(multiUserLinks.id, linkId));
}
