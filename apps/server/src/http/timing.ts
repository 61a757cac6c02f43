import type { FastifyReply } from 'fastify';

/**
 * Answers no sooner than `floorMs` after the request arrived. The calls that take a user ID answer
 * known and unknown IDs with one statement of one shape, but a database still does a little more work
 * for a row that exists (a heap fetch, a join probe): tens of microseconds that a patient attacker
 * could average out. A floor well above that work and its jitter hides the difference (DESIGN §5);
 * it costs a timer, not CPU.
 */
export async function answerNoSoonerThan(reply: FastifyReply, floorMs: number): Promise<void> {
  const remaining = floorMs - reply.elapsedTime;
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
}

/** The floor of the calls that name a user ID without checking a secret. */
export const LOOKUP_FLOOR_MS = 15;

/**
 * The floor of the calls that check a secret (sign-in, forgot password): above an argon2id
 * verification and the statements around it, whose count differs a little between a known user, an
 * unknown ID and a locked user.
 */
export const SECRET_FLOOR_MS = 40;
