import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { cardNumberParts, normaliseAccountNumber } from '@cardportal/domain';
import { eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { accounts } from '../db/schema.ts';

/**
 * Full card numbers at rest (DESIGN §7 "Card data", PCI DSS 3.5.1, docs/card-data.md): sealed with
 * AES-256-GCM under the current key of a key ring, the key's id stored in the sealed text for rotation,
 * and found by a keyed hash (HMAC-SHA-256 under a key of its own, so the hash survives a key rotation
 * and a copy of the database alone cannot test guesses). The sealed text is bound to its hash (the
 * GCM additional data): moved to another row, it no longer opens. Only the BIN and the last four are
 * kept in the clear (packages/domain cardNumberParts); nothing here logs.
 */
export interface CardKey {
  /** A short name stored with every number sealed under the key (letters, digits, `-`, `_`). */
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

export interface SealedCardNumber {
  /** `v1.{keyId}.{iv}.{tag}.{ciphertext}`, base64url parts. */
  cipher: string;
  /** The keyed hash, hex: unique per card number, for lookups and duplicates. */
  hash: string;
  bin: string;
  last4: string;
  length: number;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Parses `CARD_DATA_KEYS`: `id:base64key` entries separated by commas, the first the current one (new
 * numbers are sealed under it; the others still open what they sealed). Answers a problem in words.
 */
export function parseCardKeys(raw: string): CardKey[] | string {
  const keys: CardKey[] = [];
  for (const entry of raw.split(',').map((e) => e.trim())) {
    const [id, encoded, ...rest] = entry.split(':');
    if (!id || !encoded || rest.length > 0 || !KEY_ID.test(id)) return 'must be id:base64key entries';
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== 32) return `key ${id} must be 32 bytes (base64)`;
    if (keys.some((k) => k.id === id)) return `key ${id} is listed twice`;
    keys.push({ id, key });
  }
  return keys.length > 0 ? keys : 'names no key';
}

export class CardVault {
  private readonly byId: Map<string, Buffer>;
  private readonly current: CardKey;

  constructor(
    keys: readonly CardKey[],
    private readonly hashKey: Buffer,
  ) {
    const [current] = keys;
    if (!current) throw new Error('a card vault needs a key');
    this.current = current;
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  /** The keyed hash of a card number (digits only; spaces and dashes dropped). */
  hashOf(raw: string): string {
    return createHmac('sha256', this.hashKey).update(normaliseAccountNumber(raw)).digest('hex');
  }

  /** Seals a card number under the current key. */
  seal(raw: string): SealedCardNumber {
    const number = normaliseAccountNumber(raw);
    const hash = this.hashOf(number);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(hash));
    const sealed = Buffer.concat([cipher.update(number, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url'));
    return { cipher: ['v1', this.current.id, ...parts].join('.'), hash, ...cardNumberParts(number) };
  }

  /** Opens a sealed number (its hash is the additional data it was sealed with). */
  open(sealed: string, hash: string): string {
    const [version, keyId, iv, tag, data] = sealed.split('.');
    const key = keyId === undefined ? undefined : this.byId.get(keyId);
    if (version !== 'v1' || !key || !iv || !tag || data === undefined)
      throw new Error(`card number sealed under an unknown key or format (${version}.${keyId})`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(hash));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** Whether a sealed number is under an older key (a rotation re-seals it). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.current.id;
  }
}

/**
 * Seals the card numbers an older version kept in the clear (`accounts.number`, before migration
 * 0008), in batches, each in one statement: the number is sealed and its plaintext emptied together.
 * Runs at start-up after the migrations (services.ts initialiseDatabase); a no-op once done.
 */
export async function sealPlainCardNumbers(db: Executor, vault: CardVault): Promise<number> {
  let sealed = 0;
  for (;;) {
    const plain = await db
      .select({ id: accounts.id, number: accounts.number })
      .from(accounts)
      .where(isNotNull(accounts.number))
      .orderBy(accounts.id)
      .limit(500);
    if (plain.length === 0) return sealed;
    for (const row of plain) {
      const s = vault.seal(row.number ?? '');
      await db
        .update(accounts)
        .set({
          number: null,
          numberCipher: s.cipher,
          numberHash: s.hash,
          bin: s.bin,
          numberLength: s.length,
          last4: s.last4,
        })
        .where(eq(accounts.id, row.id));
    }
    sealed += plain.length;
  }
}
