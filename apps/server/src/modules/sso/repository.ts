import { SSO_ATTEMPT_MINUTES } from '@cardportal/domain';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { identityProviders, ssoAttempts } from '../../db/schema.ts';

export type IdentityProviderRow = typeof identityProviders.$inferSelect;
export type SsoAttemptRow = typeof ssoAttempts.$inferSelect;

/** What a provider's client secret is sealed for (security/crypto.ts sealText's aad). */
export const CLIENT_SECRET_AAD = 'identity-provider';

export async function findProvider(db: Executor, key: string): Promise<IdentityProviderRow | undefined> {
  const [row] = await db.select().from(identityProviders).where(eq(identityProviders.key, key)).limit(1);
  return row;
}

export async function listProviders(db: Executor): Promise<IdentityProviderRow[]> {
  return db.select().from(identityProviders).orderBy(identityProviders.key);
}

export async function saveAttempt(db: Executor, attempt: typeof ssoAttempts.$inferInsert): Promise<void> {
  await db.insert(ssoAttempts).values(attempt);
  // Attempts nobody came back for: gone with the next sign-in that starts (the table stays small).
  await db
    .delete(ssoAttempts)
    .where(lt(ssoAttempts.createdAt, sql`now() - make_interval(mins => ${SSO_ATTEMPT_MINUTES})`));
}

/**
 * Takes the attempt a callback's state names, once: the row is deleted as it is read, so a second
 * callback with the same state finds nothing (a replay). Answers whether it is still young enough.
 */
export async function takeAttempt(
  db: Executor,
  providerId: number,
  stateHash: string,
): Promise<{ attempt: Omit<SsoAttemptRow, 'createdAt'>; fresh: boolean } | undefined> {
  const [row] = await db
    .delete(ssoAttempts)
    .where(and(eq(ssoAttempts.stateHash, stateHash), eq(ssoAttempts.providerId, providerId)))
    .returning({
      stateHash: ssoAttempts.stateHash,
      providerId: ssoAttempts.providerId,
      bindingHash: ssoAttempts.bindingHash,
      nonce: ssoAttempts.nonce,
      codeVerifier: ssoAttempts.codeVerifier,
      subject: ssoAttempts.subject,
      cobrand: ssoAttempts.cobrand,
      locale: ssoAttempts.locale,
      fresh: sql<boolean>`${ssoAttempts.createdAt} > now() - make_interval(mins => ${SSO_ATTEMPT_MINUTES})`,
    });
  if (!row) return undefined;
  const { fresh, ...attempt } = row;
  return { attempt, fresh: Boolean(fresh) };
}

/** Whether an attempt is outstanding (read, not taken: a SAML response's InResponseTo is checked first). */
export async function findAttempt(db: Executor, providerId: number, stateHash: string): Promise<boolean> {
  const [row] = await db
    .select({ stateHash: ssoAttempts.stateHash })
    .from(ssoAttempts)
    .where(and(eq(ssoAttempts.stateHash, stateHash), eq(ssoAttempts.providerId, providerId)))
    .limit(1);
  return row !== undefined;
}
