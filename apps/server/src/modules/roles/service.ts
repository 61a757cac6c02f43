import {
  isPermission,
  MULTI_USER_MAX_ROLES,
  may,
  mayGrantRole,
  mayHoldRole,
  type NewRoleBody,
  type Permission,
  type RoleList,
  type RolePatch,
  type RoleSummary,
  type UserRoles,
  type UserStatus,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import { refuse } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin, diffChanges } from '../../kernel/audit.ts';
import { findVisibleUser, mayModifyVisible, type VisibleUser } from '../access/index.ts';
import { rolesHeldBy } from '../multi-user/index.ts';
import {
  changeUserRoles,
  heldRoleIds,
  insertRole,
  issuerInScope,
  issuerRoles,
  linkedUsersOf,
  lockRole,
  lockUserRoles,
  type RoleRow,
  roleNameTaken,
  rolesInScope,
  updateRole,
} from './repository.ts';

/**
 * Roles (docs/authorization.md, "Roles"): an issuer's named sets of permissions, defined by the
 * issuer-level administrators (Z, H, I) and given to users by whoever may modify them.
 */

const permissionsOf = (list: unknown): Permission[] =>
  (Array.isArray(list) ? list : []).filter(isPermission).sort();

const summary = ({ issuerId: _issuer, ...r }: RoleRow): RoleSummary => ({
  ...r,
  permissions: permissionsOf(r.permissions),
  holders: Number(r.holders),
});

export class RoleService {
  constructor(private readonly db: Db) {}

  async list(caller: Caller, issuerNumber?: string): Promise<RoleList> {
    const rows = await rolesInScope(this.db, caller, issuerNumber ? { issuerNumber } : {});
    return { roles: rows.map(summary), mayDefine: may(caller, 'defineRoles') };
  }

  async create(caller: Caller, body: NewRoleBody, ip: string): Promise<RoleSummary> {
    return this.db.transaction(async (tx) => {
      const issuerId = await issuerInScope(tx, caller, body.issuerNumber?.trim());
      if (issuerId === undefined)
        return refuse('invalid', 'form.invalid', { issuerNumber: 'role.issuer.unknown' });
      await this.nameFree(tx, issuerId, body.name);
      const created = await insertRole(tx, {
        issuerId,
        name: body.name,
        description: body.description,
        permissions: body.permissions,
      });
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
    return this.db.transaction(async (tx) => {
      const current = await this.one(tx, caller, id);
      const before = await lockRole(tx, id);
      if (!before) return refuse('notFound', 'role.notFound');
      if (patch.name !== undefined && patch.name.toLowerCase() !== before.name.toLowerCase())
        await this.nameFree(tx, before.issuerId, patch.name);
      const values = {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.permissions !== undefined ? { permissions: patch.permissions } : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
      };
      if (Object.keys(values).length === 0) return current;
      const after = await updateRole(tx, id, values);
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
    const [row] = await rolesInScope(db, caller, { id });
    if (!row) return refuse('notFound', 'role.notFound');
    return summary(row);
  }

  private async nameFree(db: Executor, issuerId: number, name: string): Promise<void> {
    if (await roleNameTaken(db, issuerId, name))
      refuse('conflict', 'role.name.exists', { name: 'role.name.exists' });
  }

  // ------------------------------------------------------------------------------------------------
  // A user's roles

  private async target(db: Executor, caller: Caller, userId: string): Promise<VisibleUser> {
    const row = await findVisibleUser(db, caller, userId);
    if (!row) return refuse('notFound', 'user.notFound');
    return row;
  }

  async ofUser(caller: Caller, userId: string, db: Executor = this.db): Promise<UserRoles> {
    const row = await this.target(db, caller, userId);
    const heldIds = new Set(await heldRoleIds(db, row.user.id));
    const all = (await issuerRoles(db, row.placement.issuerId)).map((r) => ({ ...summary(r), raw: r }));
    const mayChange = (await mayModifyVisible(db, caller, row)) && row.user.id !== caller.userPk;
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
      if (row.user.id === caller.userPk) refuse('forbidden', 'user.self');
      if (!(await mayModifyVisible(tx, caller, row))) refuse('forbidden', 'role.forbidden');
      // Serialise concurrent changes to one user's roles (and its link's total).
      await lockUserRoles(tx, row.user.id);
      const available = new Map(
        (await issuerRoles(tx, row.placement.issuerId)).map((r) => [r.id, summary(r)] as const),
      );
      const held = await heldRoleIds(tx, row.user.id);
      const next = new Set(roleIds);
      const added = roleIds.filter((id) => !held.includes(id));
      const removed = held.filter((id) => !next.has(id));
      if (added.length === 0 && removed.length === 0) return this.ofUser(caller, userId, tx);
      if (added.length > 0 && !mayHoldRole(row.user.status as UserStatus))
        refuse('conflict', 'roles.userNotActive');
      for (const id of added) {
        const role = available.get(id);
        if (!role || !role.active) refuse('invalid', 'form.invalid', { roleIds: 'roles.invalid' });
      }
      for (const id of [...added, ...removed]) {
        const role = available.get(id);
        if (role && !mayGrantRole(caller.type, caller.permissions, role.permissions))
          refuse('forbidden', 'roles.notGrantable');
      }
      // A linked user's roles count toward its link's combined limit (seed 001 §9: 75).
      const linked = await linkedUsersOf(tx, row.user.id);
      if (linked.length > 0 && added.length > removed.length) {
        const counts = await rolesHeldBy(
          tx,
          linked.filter((pk) => pk !== row.user.id),
        );
        const others = [...counts.values()].reduce((n, c) => n + c, 0);
        if (others + next.size > MULTI_USER_MAX_ROLES) refuse('conflict', 'multiUser.tooManyRoles');
      }
      await changeUserRoles(tx, row.user.id, {
        added,
        removed,
        grantedByPk: caller.accessedBy?.pk ?? caller.userPk,
      });
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
