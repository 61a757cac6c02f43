import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { serverSecrets } from '../db/schema.ts';

/** Keys shared by every instance: generated once and kept in the database. */
export interface Secrets {
  /** HMAC key for CSRF tokens, keyed hashes of unknown user IDs and decoys. */
  hmac: Buffer;
  /** AES-256-GCM key for token secrets at rest. */
  tokenKey: Buffer;
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

export async function loadSecrets(db: Db): Promise<Secrets> {
  return { hmac: await secret(db, 'hmac'), tokenKey: await secret(db, 'token-key') };
}
