/**
 * Card numbers at rest (DESIGN §7 "Card data", docs/card-data.md): sealed with AES-256-GCM under the
 * current key of a ring, found by a keyed hash, bound to that hash, re-sealable after a rotation; and
 * start-up seals the numbers an older version kept in the clear.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { accounts, companies } from '../src/db/schema.ts';
import { CardVault, parseCardKeys, sealPlainCardNumbers } from '../src/kernel/card-vault.ts';
import { startTestApp, type TestContext } from './harness.ts';

const PAN = '5424180000000007';
const key = (id: string) => ({ id, key: randomBytes(32) });

describe('the card vault', () => {
  it('seals, opens, and keeps only the BIN, last four and length in the clear', () => {
    const vault = new CardVault([key('k1')], randomBytes(32));
    const sealed = vault.seal('5424 1800 0000 0007');
    expect(sealed).toMatchObject({ bin: '542418', last4: '0007', length: 16 });
    expect(sealed.cipher).toMatch(/^v1\.k1\./);
    expect(sealed.cipher).not.toContain(PAN);
    expect(vault.open(sealed.cipher, sealed.hash)).toBe(PAN);
    // Two seals of one number differ (a fresh IV); its keyed hash does not.
    expect(vault.seal(PAN).cipher).not.toBe(sealed.cipher);
    expect(vault.hashOf(PAN)).toBe(sealed.hash);
  });

  it('does not open a sealed number under another hash (moved to another row) or tampered with', () => {
    const vault = new CardVault([key('k1')], randomBytes(32));
    const a = vault.seal(PAN);
    const b = vault.seal('4111111111111111');
    expect(() => vault.open(a.cipher, b.hash)).toThrow();
    const parts = a.cipher.split('.');
    const data = Buffer.from(parts[4] ?? '', 'base64url');
    data[0] = (data[0] ?? 0) ^ 1;
    parts[4] = data.toString('base64url');
    expect(() => vault.open(parts.join('.'), a.hash)).toThrow();
  });

  it('opens what an older key sealed after a rotation, and knows it is stale', () => {
    const old = key('k1');
    const hashKey = randomBytes(32);
    const before = new CardVault([old], hashKey).seal(PAN);
    const rotated = new CardVault([key('k2'), old], hashKey);
    expect(rotated.open(before.cipher, before.hash)).toBe(PAN);
    expect(rotated.isStale(before.cipher)).toBe(true);
    expect(rotated.isStale(rotated.seal(PAN).cipher)).toBe(false);
    // The keyed hash does not depend on the sealing key: lookups survive the rotation.
    expect(rotated.hashOf(PAN)).toBe(before.hash);
    expect(() => new CardVault([key('k3')], hashKey).open(before.cipher, before.hash)).toThrow(/unknown key/);
  });

  it('reads CARD_DATA_KEYS and refuses what would not seal', () => {
    const k = randomBytes(32).toString('base64');
    expect(parseCardKeys(`k2:${k}, k1:${k}`)).toMatchObject([{ id: 'k2' }, { id: 'k1' }]);
    expect(parseCardKeys('k1')).toBe('must be id:base64key entries');
    expect(parseCardKeys(`k1:${randomBytes(16).toString('base64')}`)).toBe(
      'key k1 must be 32 bytes (base64)',
    );
    expect(parseCardKeys(`k1:${k},k1:${k}`)).toBe('key k1 is listed twice');
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO: '0', DATABASE_URL: 'postgres://x/y' })).toThrow(
      /CARD_DATA_KEYS and CARD_HASH_KEY must be set in production with DATABASE_URL/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', CARD_DATA_KEYS: 'nope' })).toThrow(/CARD_DATA_KEYS/);
    // The embedded database keeps stand-in keys in itself, in production too (docs/card-data.md).
    expect(loadConfig({ NODE_ENV: 'production', DEMO: '0' }).cardDataKeys).toBeUndefined();
    expect(
      loadConfig({
        NODE_ENV: 'production',
        DEMO: '0',
        DATABASE_URL: 'postgres://x/y',
        CARD_DATA_KEYS: `k1:${k}`,
        CARD_HASH_KEY: k,
      }).cardDataKeys,
    ).toHaveLength(1);
  });
});

describe('start-up seals the card numbers an older version kept in the clear', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  it('seals every plaintext number, empties it, and the masked answers stay the same', async () => {
    const db = ctx.services.database.db;
    const [acme] = await db.select().from(companies).where(eq(companies.number, '100001'));
    const legacy = ['4111111111111111', '378282246310005'];
    for (const number of legacy)
      await db.insert(accounts).values({ companyId: acme?.id ?? 0, number, last4: number.slice(-4) });
    const vault = ctx.services.secrets.cards;
    expect(await sealPlainCardNumbers(db, vault)).toBe(2);
    expect(await sealPlainCardNumbers(db, vault)).toBe(0);
    const rows = await db.select().from(accounts).where(sql`${accounts.last4} in ('1111', '0005')`);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.number).toBeNull();
      const number = vault.open(row.numberCipher ?? '', row.numberHash ?? '');
      expect(legacy).toContain(number);
      expect(row).toMatchObject({
        bin: number.slice(0, 6),
        numberLength: number.length,
        last4: number.slice(-4),
      });
    }
    // The keyed hash keeps a number unique: the same number cannot be stored twice.
    const again = vault.seal(legacy[0] ?? '');
    await expect(
      db.insert(accounts).values({
        companyId: acme?.id ?? 0,
        numberCipher: again.cipher,
        numberHash: again.hash,
        bin: again.bin,
        numberLength: again.length,
        last4: again.last4,
      }),
    ).rejects.toThrow();
  });
});
