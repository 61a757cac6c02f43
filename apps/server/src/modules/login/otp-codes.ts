import { LIMITS } from '@cardportal/domain';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { otpCodes } from '../../db/schema.ts';
import type { Secrets } from '../../kernel/secrets.ts';
import { keyedHash, randomDigits, safeEqual } from '../../security/crypto.ts';

const hashCode = (secrets: Secrets, userPk: number, code: string) =>
  keyedHash(secrets.hmac, 'otp', `${userPk}:${code}`);

/**
 * Issues a new 6-digit code for the user (valid 15 minutes, single use); every earlier unused code
 * stops working. Returns the code, to be put in the mail within the same transaction.
 */
export async function issueOtpCode(tx: Executor, secrets: Secrets, userPk: number): Promise<string> {
  const code = randomDigits(LIMITS.otpDigits);
  await tx
    .update(otpCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(otpCodes.userPk, userPk), isNull(otpCodes.usedAt)));
  await tx.insert(otpCodes).values({
    userPk,
    codeHash: hashCode(secrets, userPk, code),
    expiresAt: sql`now() + make_interval(mins => ${LIMITS.otpExpiryMinutes})`,
  });
  return code;
}

/** Checks and consumes the user's current code. An expired, used or wrong code is refused. */
export async function consumeOtpCode(
  db: Executor,
  secrets: Secrets,
  userPk: number,
  code: string,
): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const [current] = await db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.userPk, userPk), isNull(otpCodes.usedAt), gt(otpCodes.expiresAt, sql`now()`)))
    .orderBy(desc(otpCodes.id))
    .limit(1);
  if (!current || !safeEqual(current.codeHash, hashCode(secrets, userPk, code))) return false;
  const used = await db
    .update(otpCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(otpCodes.id, current.id), isNull(otpCodes.usedAt)))
    .returning({ id: otpCodes.id });
  return used.length === 1;
}
