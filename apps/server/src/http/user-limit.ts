import { canonicalUserId } from '@cardportal/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { keyedHash } from '../security/crypto.ts';
import { ThrottleUnavailable } from '../security/throttle.ts';
import { sendError } from './errors.ts';

/**
 * Requests that name one user ID (descriptor, sign-in, security question, forgot and change password),
 * counted together across every address and instance. The lock after 6 failures bounds guesses; this
 * bounds the traffic aimed at one account (decoy probing, mail bombing, lock cycling).
 */
export const USER_LIMIT = { max: 30, windowMs: 60_000 } as const;

/**
 * Counts one request for a user ID. Answers 429 with Retry-After when the ID is over its limit, and
 * fails closed (503) when the shared counter is unreachable. The key is a keyed hash of the canonical
 * ID, so known and unknown IDs are counted alike and no ID is stored in clear. Returns true to proceed.
 */
export async function limitUser(app: FastifyInstance, reply: FastifyReply, userId: string): Promise<boolean> {
  if (!app.config.rateLimits) return true;
  const key = `user:${keyedHash(app.secrets.hmac, 'throttle-user', canonicalUserId(userId))}`;
  try {
    const result = await app.throttle.hit(key, USER_LIMIT.max, USER_LIMIT.windowMs);
    if (result.allowed) return true;
    reply.header('retry-after', String(result.retryAfterS));
    sendError(
      reply,
      429,
      'rate.limited',
      `Too many requests for this user ID: try again in ${result.retryAfterS} seconds`,
    );
  } catch (error) {
    if (!(error instanceof ThrottleUnavailable)) throw error;
    reply.log.warn('user throttle unavailable: refusing the request (fail closed)');
    reply.header('retry-after', '5');
    sendError(reply, 503, 'service.unavailable', 'Sign-in is temporarily unavailable: try again shortly');
  }
  return false;
}
