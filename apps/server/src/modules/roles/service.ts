import {
  isPermission,
  MULTI_USER_MAX_ROLES,
  mayDefineRoles,
  mayGrantRole,
  mayHoldRole,
  type NewRoleBody,
  type Permission,
  type RoleList,
  type RolePatch,
  type RoleSummary,
  USER_TYPE_INFO,
  type UserRoles,
  type UserStatus,
} from '@cardportal/domain';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { issuers, multiUserMembers, roles, userRoles } from '../../db/schema.ts';
import { refuseWith } from '../../http/app-handler.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin, diffChanges } from '../../kernel/audit.ts';
import { findVisibleUser, mayModifyVisible, type VisibleUser } from '../access/index.ts';
import { rolesHeldBy } from '../multi-user/index.ts';

/**
 * Roles (docs/authorization.md, "Roles"): an issuer's named sets of permissions, defined by the
 * issuer-level administrators (Z, H, I) and given to users by whoever may modify them.
 */

/** The issuers whose roles a caller sees: its own issuer (through its company or group), or its group's. */
function issuerScope(caller: Caller): SQL {
  switch (caller.type) {
    case 'Z':
      return sql`true`;
    case 'H':
      return caller.issuerGroupId ? eq(issuers.issuerGroupId, caller.issuerGroupId) : sql`false`;
    case 'I':
      return caller.issuerId ? eq(issuers.id, caller.issuerId) : sql`false`;
    case 'G':
      return caller.companyGroupId
        ? sql`${issuers.id} = (select issuer_id from company_groups where id = ${caller.companyGroupId})`
        : sql`false`;
    default:
      return caller.companyId
        ? sql`${issuers.id} = (select issuer_id from companies where id = ${caller.companyId})`
        : sql`false`;
  }
}

const permissionsOf = (list: unknown): Permission[] =>
  (Array.isArray(list) ? list : []).filter(isPermission).sort();

const roleColumns = {
  id: roles.id,
  issuerId: roles.issuerId,
  issuerNumber: issuers.number,
  issuerName: issuers.name1,
  name: roles.name,
  description: roles.description,
  permissions: roles.permissions,
  active: roles.active,
  holders: sql<number>`(select count(*)::int from user_roles ur where ur.role_id = ${roles.id})`,
};

type RoleRow = { issuerId: number; permissions: unknown; holders: number } & Omit<
  RoleSummary,
  'permissions' | 'holders'
>;

const summary = ({ issuerId: _issuer, ...r }: RoleRow): RoleSummary => ({
  ...r,
  permissions: permissionsOf(r.permissions),
  holders: Number(r.holders),
});

export class RoleService {
  constructor(private readonly db: Db) {}

  private selectRoles(db: Executor, caller: Caller, where?: SQL) {
    return db
      .select(roleColumns)
      .from(roles)
      .innerJoin(issuers, eq(issuers.id, roles.issuerId))
      .where(and(issuerScope(caller), where))
      .orderBy(asc(issuers.number), asc(sql`lower(${roles.name})`));
  }

  async list(caller: Caller, issuerNumber?: string): Promise<RoleList> {
    if (!USER_TYPE_INFO[caller.type].administersUsers) refuseWith(403, 'role.forbidden');
    const rows = await this.selectRoles(
      this.db,
      caller,
      issuerNumber ? eq(issuers.number, issuerNumber) : undefined,
    );
    return { roles: rows.map(summary), mayDefine: mayDefineRoles(caller.type) };
  }

  async create(caller: Caller, body: NewRoleBody, ip: string): Promise<RoleSummary> {
    if (!mayDefineRoles(caller.type)) refuseWith(403, 'role.forbidden');
    return this.db.transaction(async (tx) => {
      const issuerNumber = body.issuerNumber?.trim();
      const [issuer] = await tx
        .select({ id: issuers.id })
        .from(issuers)
        .where(
          and(
            issuerScope(caller),
            issuerNumber ? eq(issuers.number, issuerNumber) : eq(issuers.id, caller.issuerId ?? -1),
          ),
        )
        .limit(1);
      if (!issuer) refuseWith(400, 'form.invalid', { issuerNumber: 'role.issuer.unknown' });
      const issuerId = (issuer as { id: number }).id;
      await this.nameFree(tx, issuerId, body.name);
      const [created] = await tx
        .insert(roles)
        .values({ issuerId, name: body.name, description: body.description, permissions: body.permissions })
        .returning();
      if (!created) throw new Error('role insert returned no row');
      await auditAdmin(tx, 'role.created', {
        actor: caller,
        entity: 'role',
        entityId: String(created.id),
        changes: diffChanges(undefined, created, ['name', 'description', 'permissions', 'active']),
        ip,
      });
      return this.one(tx, caller, created.id);
    });
  }

  async update(caller: Caller, id: number, patch: RolePatch, ip: string): Promise<RoleSummary> {
    if (!mayDefineRoles(caller.type)) refuseWith(403, 'role.forbidden');
    return this.db.transaction(async (tx) => {
      const current = await this.one(tx, caller, id);
      const [before] = await tx.select().from(roles).where(eq(roles.id, id)).for('update');
      if (!before) return refuseWith(404, 'role.notFound');
      if (patch.name !== undefined && patch.name.toLowerCase() !== before.name.toLowerCase())
        await this.nameFree(tx, before.issuerId, patch.name);
      const values = {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.permissions !== undefined ? { permissions: patch.permissions } : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
      };
      if (Object.keys(values).length === 0) return current;
      const [after] = await tx
        .update(roles)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(roles.id, id))
        .returning();
      const changes = diffChanges(before, after ?? before, ['name', 'description', 'permissions', 'active']);
      if (Object.keys(changes).length > 0)
        await auditAdmin(tx, 'role.updated', {
          actor: caller,
          entity: 'role',
          entityId: String(id),
          changes,
          ip,
        });
      return this.one(tx, caller, id);
    });
  }

  private async one(db: Executor, caller: Caller, id: number): Promise<RoleSummary> {
    const [row] = await this.selectRoles(db, caller, eq(roles.id, id));
    if (!row) return refuseWith(404, 'role.notFound');
    return summary(row);
  }

  private async nameFree(db: Executor, issuerId: number, name: string): Promise<void> {
    const [taken] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.issuerId, issuerId), sql`lower(${roles.name}) = lower(${name})`))
      .limit(1);
    if (taken) refuseWith(409, 'role.name.exists', { name: 'role.name.exists' });
  }

  // ------------------------------------------------------------------------------------------------
  // A user's roles

  private async target(db: Executor, caller: Caller, userId: string): Promise<VisibleUser> {
    if (!USER_TYPE_INFO[caller.type].administersUsers) refuseWith(403, 'role.forbidden');
    const row = await findVisibleUser(db, caller, userId);
    if (!row) return refuseWith(404, 'user.notFound');
    return row;
  }

  /** Roles of the user's issuer, with each one's row. */
  private async issuerRoles(db: Executor, issuerId: number | null) {
    if (issuerId === null) return [];
    return db
      .select(roleColumns)
      .from(roles)
      .innerJoin(issuers, eq(issuers.id, roles.issuerId))
      .where(eq(roles.issuerId, issuerId))
      .orderBy(asc(sql`lower(${roles.name})`));
  }

  async ofUser(caller: Caller, userId: string, db: Executor = this.db): Promise<UserRoles> {
    const row = await this.target(db, caller, userId);
    const held = await db
      .select({ roleId: userRoles.roleId })
      .from(userRoles)
      .where(eq(userRoles.userPk, row.user.id));
    const heldIds = new Set(held.map((h) => h.roleId));
    const all = (await this.issuerRoles(db, row.placement.issuerId)).map((r) => ({ ...summary(r), raw: r }));
    const mayChange = (await mayModifyVisible(db, caller, row)) && row.user.id !== caller.pk;
    const active = mayHoldRole(row.user.status as UserStatus);
    return {
      userId: row.user.displayUserId,
      roles: all.filter((r) => heldIds.has(r.id)).map(({ raw: _raw, ...r }) => r),
      assignable:
        mayChange && active
          ? all
              .filter((r) => r.active && mayGrantRole(caller.type, caller.permissions, r.permissions))
              .map(({ raw: _raw, ...r }) => r)
          : [],
      mayChange,
    };
  }

  /** Replaces a user's roles: every added or removed role must be one the caller may grant. */
  async setForUser(caller: Caller, userId: string, roleIds: number[], ip: string): Promise<UserRoles> {
    return this.db.transaction(async (tx) => {
      const row = await this.target(tx, caller, userId);
      if (row.user.id === caller.pk) refuseWith(403, 'user.self');
      if (!(await mayModifyVisible(tx, caller, row))) refuseWith(403, 'role.forbidden');
      // Serialise concurrent changes to one user's roles (and its link's total).
      await tx.execute(sql`select id from users where id = ${row.user.id} for update`);
      const available = new Map(
        (await this.issuerRoles(tx, row.placement.issuerId)).map((r) => [r.id, summary(r)] as const),
      );
      const held = (
        await tx.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userPk, row.user.id))
      ).map((h) => h.roleId);
      const next = new Set(roleIds);
      const added = roleIds.filter((id) => !held.includes(id));
      const removed = held.filter((id) => !next.has(id));
      if (added.length === 0 && removed.length === 0) return this.ofUser(caller, userId, tx);
      if (added.length > 0 && !mayHoldRole(row.user.status as UserStatus))
        refuseWith(409, 'roles.userNotActive');
      for (const id of added) {
        const role = available.get(id);
        if (!role || !role.active) refuseWith(400, 'form.invalid', { roleIds: 'roles.invalid' });
      }
      for (const id of [...added, ...removed]) {
        const role = available.get(id);
        if (role && !mayGrantRole(caller.type, caller.permissions, role.permissions))
          refuseWith(403, 'roles.notGrantable');
      }
      // A linked user's roles count toward its link's combined limit (seed 001 §9: 75).
      const [membership] = await tx
        .select({ linkId: multiUserMembers.linkId })
        .from(multiUserMembers)
        .where(eq(multiUserMembers.userPk, row.user.id));
      if (membership && added.length > removed.length) {
        const members = await tx
          .select({ pk: multiUserMembers.userPk })
          .from(multiUserMembers)
          .where(eq(multiUserMembers.linkId, membership.linkId));
        const counts = await rolesHeldBy(
          tx,
          members.map((m) => m.pk).filter((pk) => pk !== row.user.id),
        );
        const others = [...counts.values()].reduce((n, c) => n + c, 0);
        if (others + next.size > MULTI_USER_MAX_ROLES) refuseWith(409, 'multiUser.tooManyRoles');
      }
      if (removed.length > 0)
        await tx
          .delete(userRoles)
          .where(and(eq(userRoles.userPk, row.user.id), inArray(userRoles.roleId, removed)));
      if (added.length > 0)
        await tx.insert(userRoles).values(
          added.map((roleId) => ({
            userPk: row.user.id,
            roleId,
            grantedByPk: caller.accessedBy?.pk ?? caller.pk,
          })),
        );
      const name = (id: number) => available.get(id)?.name ?? String(id);
      await auditAdmin(tx, 'user.rolesChanged', {
        actor: caller,
        entity: 'user',
        entityId: row.user.displayUserId,
        subjectPk: row.user.id,
        changes: {
          roles: { before: held.map(name).sort(), after: [...next].map(name).sort() },
        },
        ip,
      });
      return this.ofUser(caller, userId, tx);
    });
  }
}
