import { randomInt } from 'node:crypto';
import { checkPin, LIMITS } from '@cardportal/domain';
import { and, eq, lt, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Executor } from '../../db/client.ts';
import { tokens } from '../../db/schema.ts';
import type { Secrets } from '../../kernel/secrets.ts';
import { openText, sealText } from '../../security/crypto.ts';
import { hashSecret, verifyDummy, verifySecret } from '../../security/hashing.ts';

/** Software tokens (DESIGN §5): TOTP, 8 digits, 60-second step. */
export const TOKEN_PERIOD_SECONDS = 60;
/** Wrong tokencodes in a row before the token asks for the next tokencode. */
export const TOKEN_FAILURES_BEFORE_NEXT = 3;
/** A default PIN must be replaced within this many days. */
export const DEFAULT_PIN_DAYS = 14;

export type TokenRow = typeof tokens.$inferSelect;

function totp(base32: string, label = 'cardportal'): TOTP {
  return new TOTP({
    issuer: 'cardportal',
    label,
    algorithm: 'SHA1',
    digits: LIMITS.nextTokenDigits,
    period: TOKEN_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

/** A PIN the user may choose: the shared rule of packages/domain (4 digits, no leading zero). */
export function isValidPin(pin: string): boolean {
  return checkPin(pin) === undefined;
}

/**
 * Assigns a new token (replacing any other) in new-PIN mode with a default PIN that expires.
 * Returns the otpauth URI for an authenticator app and the default PIN.
 */
export async function assignToken(
  db: Executor,
  secrets: Secrets,
  user: { id: number; displayUserId: string },
  options: { secretBase32?: string; defaultPin?: string } = {},
): Promise<{ uri: string; defaultPin: string; secret: string }> {
  const secret = options.secretBase32 ?? new Secret({ size: 20 }).base32;
  const defaultPin = options.defaultPin ?? String(randomInt(1000, 10000));
  const pinHash = await hashSecret(defaultPin);
  const values = {
    userPk: user.id,
    secretEnc: sealText(secrets.tokenKey, secret),
    mode: 'new-pin',
    pinHash,
    pinExpiresAt: new Date(Date.now() + DEFAULT_PIN_DAYS * 86_400_000),
    lastStep: 0,
    consecutiveFailures: 0,
  };
  await db
    .insert(tokens)
    .values(values)
    .onConflictDoUpdate({ target: tokens.userPk, set: { ...values, updatedAt: sql`now()` } });
  return { uri: totp(secret, user.displayUserId).toString(), defaultPin, secret };
}

export async function findToken(db: Executor, userPk: number): Promise<TokenRow | undefined> {
  const [row] = await db.select().from(tokens).where(eq(tokens.userPk, userPk)).limit(1);
  return row;
}

/**
 * Checks an 8-digit tokencode against the token and consumes its time step, so the same code (or an
 * earlier one) is never accepted twice. Counts consecutive wrong codes; the third puts the token in
 * next-tokencode mode.
 */
export async function checkTokencode(
  db: Executor,
  secrets: Secrets,
  token: TokenRow,
  code: string,
): Promise<boolean> {
  let step: number | undefined;
  if (/^\d{8}$/.test(code)) {
    const generator = totp(openText(secrets.tokenKey, token.secretEnc));
    const delta = generator.validate({ token: code, window: 1 });
    if (delta !== null) step = generator.counter() + delta;
  }
  if (step !== undefined) {
    const consumed = await db
      .update(tokens)
      .set({ lastStep: step, consecutiveFailures: 0, updatedAt: sql`now()` })
      .where(and(eq(tokens.userPk, token.userPk), lt(tokens.lastStep, step)))
      .returning({ userPk: tokens.userPk });
    if (consumed.length === 1) return true;
  }
  await db
    .update(tokens)
    .set({
      consecutiveFailures: sql`${tokens.consecutiveFailures} + 1`,
      mode: sql`case when ${tokens.consecutiveFailures} + 1 >= ${TOKEN_FAILURES_BEFORE_NEXT} and ${tokens.mode} = 'normal' then 'next-token' else ${tokens.mode} end`,
      updatedAt: sql`now()`,
    })
    .where(eq(tokens.userPk, token.userPk));
  return false;
}

/** Checks the PIN (default or chosen); an expired default PIN never matches. */
export async function verifyTokenPin(token: TokenRow, pin: string): Promise<boolean> {
  if (!/^\d{4}$/.test(pin)) return verifyDummy(pin);
  const ok = await verifySecret(token.pinHash, pin);
  if (!ok) return false;
  return !(token.mode === 'new-pin' && token.pinExpiresAt && token.pinExpiresAt.getTime() < Date.now());
}

/** Sets the user's own PIN: the token leaves new-PIN mode. */
export async function setPin(db: Executor, userPk: number, pin: string): Promise<void> {
  await db
    .update(tokens)
    .set({
      pinHash: await hashSecret(pin),
      mode: 'normal',
      pinExpiresAt: null,
      consecutiveFailures: 0,
      updatedAt: sql`now()`,
    })
    .where(eq(tokens.userPk, userPk));
}

/** The next tokencode completed the sign-in: back to normal mode. */
export async function leaveNextTokenMode(db: Executor, userPk: number): Promise<void> {
  await db
    .update(tokens)
    .set({ mode: 'normal', consecutiveFailures: 0, updatedAt: sql`now()` })
    .where(eq(tokens.userPk, userPk));
}

/** For tests and the demo: the current code of a secret at a time. */
export function tokencodeAt(secretBase32: string, timestamp: number): string {
  return totp(secretBase32).generate({ timestamp });
}
