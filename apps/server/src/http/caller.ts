import type { CallerScope, Permission, UserType } from '@cardportal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';

/**
 * The caller of an application endpoint (docs/authorization.md): the session's user, its type and scope
 * columns, its permissions. Loaded by the access module (modules/access loadCaller), which also holds the
 * SQL that keeps a caller's queries inside its scope.
 */
export interface Caller extends CallerScope {
  /** The user's row id. */
  userPk: number;
  /** The user ID as the user typed it at creation (for display). */
  userId: string;
  type: UserType;
  /** The session's language. */
  locale: string;
  cobrand: string;
  /**
   * What the requests show or check of the user besides its scope — never a secret (no password hash:
   * re-authentication reads it when it needs it).
   */
  profile: CallerProfile;
  /** Permissions from the user's active roles (packages/domain roles.ts). */
  permissions: ReadonlySet<Permission>;
  /** Access as user: the person really working in this session, else null. */
  accessedBy: { pk: number; userId: string } | null;
}

export interface CallerProfile {
  /** The user ID in its stored (canonical, lower-case) form. */
  canonicalUserId: string;
  firstName: string;
  lastName: string;
  email: string;
  /** The language the user chose (My Profile); the session's may differ. */
  locale: string;
  loginType: string;
  sso: boolean;
  lastLoginAt: Date | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The user with this row id as a caller, or undefined when it may not act (inactive, or its company
     * or issuer inactive). The access module provides it (modules/access), so that this kernel code does
     * not import a feature module.
     */
    loadCaller: (userPk: number) => Promise<Caller | undefined>;
  }
}

/**
 * The signed-in caller of an application endpoint — a full session of an active user whose company and
 * issuer are active (loadCaller), in the session's language — or undefined once 401 has been answered.
 * A partial session (mid sign-in) keeps its stage; a full session whose user, company or issuer is no
 * longer active is ended. Answers are no-store.
 */
export async function requireCaller(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Caller | undefined> {
  reply.header('cache-control', 'no-store');
  const session = await app.sessions.get(request);
  if (!session || session.stage !== 'full') {
    await sendError(reply, 401, 'session.required', 'Sign in first');
    return undefined;
  }
  const caller = await app.loadCaller(session.userPk);
  if (!caller) {
    await app.sessions.end(request, reply);
    await sendError(reply, 401, 'session.required', 'Sign in first');
    return undefined;
  }
  caller.locale = session.locale;
  caller.accessedBy = accessedByOf(session.data);
  // Access as user: the person really working must still be an active user with the permission.
  if (caller.accessedBy) {
    const real = await app.loadCaller(caller.accessedBy.pk);
    if (!real || !real.permissions.has('accessAsUser')) {
      await app.sessions.end(request, reply);
      await sendError(reply, 401, 'session.required', 'Sign in first');
      return undefined;
    }
  }
  return caller;
}

/** Session data of an access-as-user session: who is really working (never a secret). */
export interface AccessedBy {
  pk: number;
  userId: string;
  firstName: string;
  lastName: string;
  /** When the original sign-in happened (ISO): the absolute session lifetime runs from it. */
  signedInAt: string;
}

export function accessedByOf(data: Record<string, unknown> | null | undefined): AccessedBy | null {
  const value = data?.accessedBy as Partial<AccessedBy> | undefined;
  if (!value || typeof value.pk !== 'number' || typeof value.userId !== 'string') return null;
  return {
    pk: value.pk,
    userId: value.userId,
    firstName: String(value.firstName ?? ''),
    lastName: String(value.lastName ?? ''),
    signedInAt: String(value.signedInAt ?? ''),
  };
}
