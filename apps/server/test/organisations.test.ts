import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  checkUserScope,
  cobrandSchema,
  isLuhnValid,
  USER_TYPE_CODES,
  type UserType,
} from '@cardportal/domain';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { type Database, type Db, migrate, openPglite, openPostgres } from '../src/db/client.ts';
import {
  accounts,
  cardholders,
  companies,
  issuers,
  orgPoints,
  programOptions,
  serverSecrets,
  users,
} from '../src/db/schema.ts';
import { DEMO_PASSWORD, loadDemoData } from '../src/demo/load.ts';
import { DEMO_COMPANY_NUMBER } from '../src/demo/organisations.ts';
import { AppError } from '../src/http/app-error.ts';
import { loadSecrets } from '../src/kernel/secrets.ts';
import { saveCobrands } from '../src/modules/cobrand/repository.ts';
import { setCompanyMultiUser } from '../src/modules/organisations/organisations.ts';
import { findUserByUserId } from '../src/modules/users/users.ts';
import { dbKind, POSTGRES_URL, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
let db: Db;
beforeAll(async () => {
  ctx = await startTestApp();
  db = ctx.services.database.db;
});
afterAll(async () => {
  await ctx?.close();
});

const companyByNumber = async (number: string) =>
  (await db.select().from(companies).where(eq(companies.number, number)))[0]!;

/** Depth of the deepest org point of a company (1 = only a top). */
async function treeDepth(companyId: number): Promise<number> {
  const rows = await db.select().from(orgPoints).where(eq(orgPoints.companyId, companyId));
  const parent = new Map(rows.map((r) => [r.id, r.reportsToId]));
  let deepest = 0;
  for (const r of rows) {
    let depth = 1;
    for (let at = r.reportsToId; at !== null && at !== undefined; at = parent.get(at) ?? null) depth++;
    deepest = Math.max(deepest, depth);
    expect(r.reportingLevel).toBe(depth);
  }
  return deepest;
}

describe('demo organisations', () => {
  it('have the demo issuer, its companies and org trees of three levels', async () => {
    const [bank] = await db.select().from(issuers).where(eq(issuers.number, '1001'));
    expect(bank).toMatchObject({
      name1: 'Cardportal Demo Bank',
      ica: '12345',
      bankNumber: '0042',
      active: true,
    });
    const all = await db.select().from(companies);
    expect(all.map((c) => c.number).sort()).toEqual(['100001', '100002', '200001']);
    expect((await companyByNumber(DEMO_COMPANY_NUMBER)).multiUser).toBe(true);
    expect((await companyByNumber('100002')).multiUser).toBe(false);
    for (const c of all) {
      expect(c.companyGroupId, c.number).not.toBeNull();
      expect(await treeDepth(c.id), c.number).toBeGreaterThanOrEqual(3);
    }
    const options = await db.select().from(programOptions);
    expect(options.some((o) => o.level === 'issuer')).toBe(true);
    expect(options.some((o) => o.level === 'company')).toBe(true);
  });

  it('have valid, unique card accounts for cardholders, sealed at rest', async () => {
    const rows = await db.select().from(accounts);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(new Set(rows.map((r) => r.numberHash)).size).toBe(rows.length);
    for (const r of rows) {
      expect(r.number).toBeNull();
      const number = ctx.services.secrets.cards.open(r.numberCipher ?? '', r.numberHash ?? '');
      expect(number).toMatch(/^\d{12,19}$/);
      expect(isLuhnValid(number)).toBe(true);
      expect([r.bin, r.last4, r.numberLength]).toEqual([number.slice(0, 6), number.slice(-4), number.length]);
      // Nothing of the row holds the full number in the clear.
      expect(JSON.stringify(r)).not.toContain(number);
    }
  });

  it('have a demo user of every type, placed as its type needs', async () => {
    const all = await db.select().from(users);
    const types = new Set(all.map((u) => u.userType));
    for (const t of USER_TYPE_CODES) expect(types, t).toContain(t);
    for (const u of all) {
      expect(checkUserScope(u.userType as UserType, u), u.userId).toEqual([]);
    }
    const acme = await companyByNumber(DEMO_COMPANY_NUMBER);
    const admin = await findUserByUserId(db, 'admin01');
    expect(admin).toMatchObject({ userType: 'C', companyId: acme.id });
    for (const id of ['active01', 'locked01', 'expired01', 'firstlog01', 'otpuser01', 'token01']) {
      const u = await findUserByUserId(db, id);
      expect(u, id).toMatchObject({ userType: 'A', companyId: acme.id });
      const [holder] = await db.select().from(cardholders).where(eq(cardholders.id, u!.cardholderId!));
      expect(holder?.companyId).toBe(acme.id);
      expect(await db.select().from(accounts).where(eq(accounts.cardholderId, holder!.id))).toHaveLength(1);
    }
    expect((await findUserByUserId(db, 'bncuser01'))?.companyId).toBe((await companyByNumber('200001')).id);
    // The SSO user is in Borealis, where single sign-on is on (Acme has multi-user, seed 001 §6).
    expect((await findUserByUserId(db, 'ssouser01'))?.companyId).toBe((await companyByNumber('100002')).id);
    expect((await findUserByUserId(db, 'issadmin01'))?.issuerId).toBe(acme.issuerId);
    expect(await findUserByUserId(db, 'sysadmin01')).toMatchObject({ userType: 'Z', companyId: null });
  });

  it('sign in like every other demo user', async () => {
    for (const id of ['issadmin01', 'sysadmin01', 'active01']) {
      const client = new TestClient(ctx.app);
      const res = await client.login(id, DEMO_PASSWORD);
      expect(res.statusCode, id).toBe(200);
      expect(res.body, id).toBe('/app/');
      expect(JSON.parse((await client.get('/app/api/me')).body).userId).toBe(id);
    }
  });

  it('are loaded once', async () => {
    const before = (await db.select().from(companies)).length;
    expect(await loadDemoData(db, ctx.config, ctx.services.secrets)).toBe(false);
    expect((await db.select().from(companies)).length).toBe(before);
  });
});

describe('multi-user, once on, never goes off (seed 001 §4)', () => {
  it('the repository refuses to turn it off, and turns it on', async () => {
    const acme = await companyByNumber(DEMO_COMPANY_NUMBER);
    const refused = await setCompanyMultiUser(db, acme.id, false).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('company.multiUserCannotBeTurnedOff');
    expect((await setCompanyMultiUser(db, acme.id, true)).multiUser).toBe(true);

    const borealis = await companyByNumber('100002');
    expect((await setCompanyMultiUser(db, borealis.id, false)).multiUser).toBe(false);
    expect((await setCompanyMultiUser(db, borealis.id, true)).multiUser).toBe(true);
    await expect(setCompanyMultiUser(db, borealis.id, false)).rejects.toThrow(AppError);
    expect((await companyByNumber('100002')).multiUser).toBe(true);
  });

  it('the database refuses it to any other writer, and lets other changes through', async () => {
    await expect(
      db.execute(sql`update companies set multi_user = false where number = ${DEMO_COMPANY_NUMBER}`),
    ).rejects.toThrow();
    expect((await companyByNumber(DEMO_COMPANY_NUMBER)).multiUser).toBe(true);
    await db
      .update(companies)
      .set({ name2: 'Registered Office' })
      .where(eq(companies.number, DEMO_COMPANY_NUMBER));
    await db
      .update(companies)
      .set({ multiUser: true, name2: 'Head Office' })
      .where(eq(companies.number, DEMO_COMPANY_NUMBER));
    expect((await companyByNumber(DEMO_COMPANY_NUMBER)).name2).toBe('Head Office');
  });
});

describe('reporting structure constraints', () => {
  it('keeps a parent inside its company, and numbers unique per company', async () => {
    const acme = await companyByNumber(DEMO_COMPANY_NUMBER);
    const borealis = await companyByNumber('100002');
    const [acmeTop] = await db.select().from(orgPoints).where(eq(orgPoints.number, 'A000'));
    await expect(
      db.insert(orgPoints).values({
        companyId: borealis.id,
        number: 'B900',
        name1: 'X',
        reportingLevel: 2,
        reportsToId: acmeTop!.id,
      }),
    ).rejects.toThrow();
    await expect(
      db.insert(orgPoints).values({
        companyId: acme.id,
        number: 'a100',
        name1: 'Duplicate',
        reportingLevel: 2,
        reportsToId: acmeTop!.id,
      }),
    ).rejects.toThrow();
    // The same number in another company is fine.
    await db
      .insert(orgPoints)
      .values({ companyId: borealis.id, number: 'A100', name1: 'Borealis A100', reportingLevel: 1 });
  });
  it('refuses malformed account numbers and unknown statuses', async () => {
    const acme = await companyByNumber(DEMO_COMPANY_NUMBER);
    await expect(
      db.insert(accounts).values({ companyId: acme.id, number: '1234', last4: '1234' }),
    ).rejects.toThrow();
    await expect(
      db
        .insert(accounts)
        .values({ companyId: acme.id, number: '123456789012', last4: '9012', status: 'Gone' }),
    ).rejects.toThrow();
  });
});

/** A new empty database of the kind under test (PGlite in memory, or a new PostgreSQL database). */
async function emptyDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  if (dbKind === 'pglite') {
    const database = await openPglite('memory://');
    return { database, drop: () => database.close() };
  }
  const name = `cp_upgrade_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = openPostgres(POSTGRES_URL.replace(/\/test$/, `/${name}`), 2);
  return {
    database,
    async drop() {
      await database.close();
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

describe('upgrading a database from before the organisations', () => {
  it('migrates existing users cleanly and places the old demo users', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: tmpdir(), LOG_LEVEL: 'silent' });
    // The migrations as they were: 0000-0002.
    const oldDir = mkdtempSync(path.join(tmpdir(), 'cp-old-migrations-'));
    mkdirSync(path.join(oldDir, 'meta'));
    for (const f of readdirSync(config.migrationsDir).filter((f) => /^000[0-2]_.*\.sql$/.test(f)))
      copyFileSync(path.join(config.migrationsDir, f), path.join(oldDir, f));
    const journal = JSON.parse(readFileSync(path.join(config.migrationsDir, 'meta/_journal.json'), 'utf8'));
    journal.entries = journal.entries.slice(0, 3);
    writeFileSync(path.join(oldDir, 'meta/_journal.json'), JSON.stringify(journal));

    const { database, drop } = await emptyDatabase();
    try {
      await migrate(database, oldDir);
      const old = database.db;
      // What the old demo loader left: co-brands, users without placement, its marker.
      const records = cobrandSchema
        .array()
        .parse(JSON.parse(readFileSync(path.join(config.demoDir, 'cobrands.json'), 'utf8')));
      await saveCobrands(old, records, []);
      for (const [id, type] of [
        ['active01', 'A'],
        ['admin01', 'C'],
      ] as const) {
        await old.execute(sql`insert into users (user_id, display_user_id, ldap_id, b2b_alias, email, first_name, last_name, user_type, cobrand, password_hash)
          values (${id}, ${id}, ${`ldap-${id}`}, ${`b2b-${id}`}, ${`${id}@example.com`}, 'Old', 'User', ${type}, 'cardportal', 'kept-hash')`);
      }
      await old.execute(sql`insert into server_secrets (name, value) values ('demo-loaded', 'before')`);

      await migrate(database, config.migrationsDir);
      const secrets = await loadSecrets(database.db, config);
      expect(await loadDemoData(database.db, config, secrets)).toBe(true);
      const active = await findUserByUserId(database.db, 'active01');
      expect(active).toMatchObject({
        userType: 'A',
        passwordHash: 'kept-hash',
        email: 'active01@example.com',
      });
      expect(active?.companyId).not.toBeNull();
      expect(active?.cardholderId).not.toBeNull();
      expect((await findUserByUserId(database.db, 'admin01'))?.companyId).toBe(active?.companyId);
      // The demo users that did not exist then are created; the old ones are not duplicated.
      expect(await findUserByUserId(database.db, 'issadmin01')).toBeDefined();
      expect(await findUserByUserId(database.db, 'locked01')).toBeDefined();
      const markers = (await database.db.select().from(serverSecrets)).map((r) => r.name);
      expect(markers).toContain('demo-organisations-loaded');
      expect(await loadDemoData(database.db, config, secrets)).toBe(false);
    } finally {
      await drop();
      rmSync(oldDir, { recursive: true, force: true });
    }
  });
});
