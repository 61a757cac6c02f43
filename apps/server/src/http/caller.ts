import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, loadCaller } from '../shared/user-scope.ts';
import { sendError } from './errors.ts';

/**
 * The signed-in caller of an application endpoint — a full session of an active user, in the session's
 * language — or undefined once 401 has been answered. A partial session (mid sign-in) keeps its stage;
 * a full session whose user is no longer active is ended. Answers are no-store.
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
  return caller;
}
