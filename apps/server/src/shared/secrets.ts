import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { serverSecrets } from '../db/schema.ts';

/** Keys shared by every instance: generated once and kept in the database. */
export interface Secrets {
  /** HMAC key for CSRF tokens, keyed hashes of unknown user IDs and decoys. */
  hmac: Buffer;
}

export async function loadSecrets(db: Db): Promise<Secrets> {
  await db
    .insert(serverSecrets)
    .values({ name: 'hmac', value: randomBytes(32).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, 'hmac'));
  if (!row) throw new Error('server secret missing');
  return { hmac: Buffer.from(row.value, 'base64') };
}
