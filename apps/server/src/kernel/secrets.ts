import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { serverSecrets } from '../db/schema.ts';
import { CardVault } from './card-vault.ts';

/** Keys shared by every instance: generated once and kept in the database. */
export interface Secrets {
  /** HMAC key for CSRF tokens, keyed hashes of unknown user IDs and decoys. */
  hmac: Buffer;
  /** AES-256-GCM key for token secrets at rest. */
  tokenKey: Buffer;
  /** Full card numbers at rest (kernel/card-vault.ts). */
  cards: CardVault;
}

async function secret(db: Db, name: string): Promise<Buffer> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`server secret ${name} missing`);
  return Buffer.from(row.value, 'base64');
}

/**
 * The keys. The card keys come from the configuration (`CARD_DATA_KEYS`, `CARD_HASH_KEY`: a copy of
 * the database must not hold what opens its card numbers); without them — the demo and development,
 * never production outside the demo (config.ts refuses) — keys kept in the database stand in.
 */
export async function loadSecrets(
  db: Db,
  config: Pick<Config, 'cardDataKeys' | 'cardHashKey'>,
): Promise<Secrets> {
  const keys = config.cardDataKeys ?? [{ id: 'db1', key: await secret(db, 'card-data') }];
  const hashKey = config.cardHashKey ?? (await secret(db, 'card-hash'));
  return {
    hmac: await secret(db, 'hmac'),
    tokenKey: await secret(db, 'token-key'),
    cards: new CardVault(keys, hashKey),
  };
}
