import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, loadCaller } from '../shared/user-scope.ts';
import { sendError } from './errors.ts';

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
  const caller = await loadCaller(app.db, session.userPk);
  if (!caller) {
    await app.sessions.end(request, reply);
    await sendError(reply, 401, 'session.required', 'Sign in first');
    return undefined;
  }
  caller.locale = session.locale;
  caller.accessedBy = accessedByOf(session.data);
  // Access as user: the person really working must still be an active user with the permission.
  if (caller.accessedBy) {
    const real = await loadCaller(app.db, caller.accessedBy.pk);
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
