import type { Permission } from '@cardportal/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { insertRow } from '../../db/rows.ts';
import { issuers, multiUserMembers, roles, userRoles } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { issuerScope } from '../access/index.ts';

/** The roles' data: every query of the roles module (service.ts decides, this reads and writes). */

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

/** A role as the queries answer it (its issuer's number and name, how many users hold it). */
export interface RoleRow {
  id: number;
  issuerId: number;
  issuerNumber: string;
  issuerName: string;
  name: string;
  description: string;
  permissions: unknown;
  active: boolean;
  holders: number;
}

/** The roles of the issuers in the caller's scope (one issuer's, or one role), by issuer and name. */
export function rolesInScope(
  db: Executor,
  caller: Caller,
  filter: { issuerNumber?: string; id?: number },
): Promise<RoleRow[]> {
  return db
    .select(roleColumns)
    .from(roles)
    .innerJoin(issuers, eq(issuers.id, roles.issuerId))
    .where(
      and(
        issuerScope(caller),
        filter.issuerNumber !== undefined ? eq(issuers.number, filter.issuerNumber) : undefined,
        filter.id !== undefined ? eq(roles.id, filter.id) : undefined,
      ),
    )
    .orderBy(asc(issuers.number), asc(sql`lower(${roles.name})`));
}

/** The issuer a new role goes to: the one numbered (default: the caller's own), if in scope. */
export async function issuerInScope(
  db: Executor,
  caller: Caller,
  issuerNumber: string | undefined,
): Promise<number | undefined> {
  const [issuer] = await db
    .select({ id: issuers.id })
    .from(issuers)
    .where(
      and(
        issuerScope(caller),
        issuerNumber ? eq(issuers.number, issuerNumber) : eq(issuers.id, caller.issuerId ?? -1),
      ),
    )
    .limit(1);
  return issuer?.id;
}

export const insertRole = (
  db: Executor,
  values: { issuerId: number; name: string; description: string; permissions: Permission[] },
) => insertRow(db, roles, values);

/** The role's row, locked until the transaction ends. */
export async function lockRole(db: Executor, id: number) {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).for('update');
  return row;
}

export async function updateRole(
  db: Executor,
  id: number,
  values: { name?: string; description?: string; permissions?: Permission[]; active?: boolean },
) {
  const [after] = await db
    .update(roles)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(roles.id, id))
    .returning();
  return after;
}

/** True when the issuer has a role of this name (any case). */
export async function roleNameTaken(db: Executor, issuerId: number, name: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.issuerId, issuerId), sql`lower(${roles.name}) = lower(${name})`))
    .limit(1);
  return taken !== undefined;
}

/** Roles of an issuer (none without one), by name. */
export function issuerRoles(db: Executor, issuerId: number | null): Promise<RoleRow[]> {
  if (issuerId === null) return Promise.resolve([]);
  return db
    .select(roleColumns)
    .from(roles)
    .innerJoin(issuers, eq(issuers.id, roles.issuerId))
    .where(eq(roles.issuerId, issuerId))
    .orderBy(asc(sql`lower(${roles.name})`));
}

/** The ids of the roles a user holds. */
export async function heldRoleIds(db: Executor, userPk: number): Promise<number[]> {
  const held = await db
    .select({ roleId: userRoles.roleId })
    .from(userRoles)
    .where(eq(userRoles.userPk, userPk));
  return held.map((h) => h.roleId);
}

/** Serialises concurrent changes to one user's roles (and to its link's total): locks the user's row. */
export async function lockUserRoles(db: Executor, userPk: number): Promise<void> {
  await db.execute(sql`select id from users where id = ${userPk} for update`);
}

/** The users linked with this one (itself included), or none when it is in no multi-user link. */
export async function linkedUsersOf(db: Executor, userPk: number): Promise<number[]> {
  const members = await db
    .select({ pk: multiUserMembers.userPk })
    .from(multiUserMembers)
    .where(
      eq(
        multiUserMembers.linkId,
        sql`(select ${multiUserMembers.linkId} from ${multiUserMembers} where ${multiUserMembers.userPk} = ${userPk})`,
      ),
    );
  return members.map((m) => m.pk);
}

/** Removes and grants roles of a user. */
export async function changeUserRoles(
  db: Executor,
  userPk: number,
  change: { added: number[]; removed: number[]; grantedByPk: number },
): Promise<void> {
  if (change.removed.length > 0)
    await db
      .delete(userRoles)
      .where(and(eq(userRoles.userPk, userPk), inArray(userRoles.roleId, change.removed)));
  if (change.added.length > 0)
    await db
      .insert(userRoles)
      .values(change.added.map((roleId) => ({ userPk, roleId, grantedByPk: change.grantedByPk })));
}
