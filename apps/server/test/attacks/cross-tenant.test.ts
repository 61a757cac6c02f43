/**
 * Attack suite — cross-tenant probing through uniqueness answers (issue 13 item 4). An administrator
 * of one issuer's tenant tries to learn what exists in another's: e-mail addresses are no key at all,
 * a taken user ID or company number answers the same wherever its holder is, and such refusals are
 * bounded per administrator and recorded in the audit trail (docs/security.md).
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, users } from '../../src/db/schema.ts';
import { UNIQUE_KEY_BUDGET } from '../../src/http/unique-keys.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

let ip = 0;
const signIn = async (userId: string) => {
  const client = new TestClient(ctx.app, `10.77.0.${++ip}`);
  expect((await client.login(userId, DEMO_PASSWORD)).statusCode).toBe(200);
  return client;
};
const post = (client: TestClient, url: string, body: unknown) =>
  client.request({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
const newUser = (userId: string, email = `${userId}@example.com`, companyNumber?: string) => ({
  userId,
  email,
  emailConfirm: email,
  firstName: 'Pablo',
  lastName: 'Prueba',
  userType: 'A',
  ...(companyNumber ? { placement: { companyNumber } } : {}),
});
/** A cardholder of Acme (100001), made by an issuer-level administrator (no company of its own). */
const acmeUser = (userId: string) => newUser(userId, `${userId}@example.com`, '100001');
const userCount = async () =>
  Number((await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n);
const refusals = async (actor: string) =>
  (
    await ctx.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'uniqueKey.refused'), eq(auditEvents.actorUserId, actor)))
  ).length;

describe('an administrator of another tenant learns nothing from uniqueness answers', () => {
  it("an e-mail of another issuer's user is accepted: e-mail addresses are no key", async () => {
    const norte = await signIn('bncadmin01');
    const before = await userCount();
    // ada.active@example.com belongs to active01, a cardholder of issuer 1001.
    const res = await post(norte, '/app/api/users', newUser('probe2026a', 'ada.active@example.com'));
    expect(res.statusCode).toBe(201);
    expect(await userCount()).toBe(before + 1);
  });

  it('a user ID taken in another tenant answers exactly as one taken in the own tenant', async () => {
    const norte = await signIn('bncadmin01');
    const before = await userCount();
    const elsewhere = await post(norte, '/app/api/users', newUser('active01')); // issuer 1001
    const own = await post(norte, '/app/api/users', newUser('bncuser01')); // issuer 2001, Norte's own
    expect(elsewhere.statusCode).toBe(409);
    expect(own.statusCode).toBe(409);
    expect(elsewhere.body).toBe(own.body);
    const strip = (h: Record<string, unknown>) => {
      const { date: _d, ...rest } = h;
      return rest;
    };
    expect(strip(elsewhere.headers)).toEqual(strip(own.headers));
    expect(await userCount()).toBe(before);
  });

  it(`bounds the refusals of taken keys to ${UNIQUE_KEY_BUDGET.max} an hour per administrator, and records each`, async () => {
    const prober = await signIn('isgadmin01');
    const bystander = await signIn('issadmin01');
    const before = await userCount();
    const spent = await refusals('isgadmin01');
    // A company number of another issuer counts as much as a taken user ID.
    const company = await post(prober, '/app/api/org/companies', {
      issuerNumber: '1001',
      number: '200001',
      name1: 'Probe Company',
    });
    expect([400, 409]).toContain(company.statusCode);
    const companyCounted = company.statusCode === 409 ? 1 : 0;
    const answers: number[] = [];
    for (let i = 0; answers.filter((s) => s === 409).length + companyCounted < UNIQUE_KEY_BUDGET.max; i++) {
      answers.push((await post(prober, '/app/api/users', acmeUser('active01'))).statusCode);
      expect(i).toBeLessThan(UNIQUE_KEY_BUDGET.max);
    }
    expect(answers.every((s) => s === 409)).toBe(true);
    // Spent: no answer about any key — taken or free — until the window ends; nothing is written.
    for (const userId of ['active01', 'free2026x']) {
      const res = await post(prober, '/app/api/users', acmeUser(userId));
      expect(res.statusCode, userId).toBe(429);
      expect(res.json().code).toBe('uniqueKey.budgetSpent');
      expect(res.json().message).toMatch(/already in use/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(60);
    }
    const companyAfter = await post(prober, '/app/api/org/companies', {
      issuerNumber: '1001',
      number: '100099',
      name1: 'Probe Company',
    });
    expect(companyAfter.statusCode).toBe(429);
    expect(await userCount()).toBe(before);
    expect((await ctx.app.db.select().from(companies).where(eq(companies.number, '100099'))).length).toBe(0);
    expect(await refusals('isgadmin01')).toBe(spent + UNIQUE_KEY_BUDGET.max);
    // Another administrator's budget is their own.
    expect((await post(bystander, '/app/api/users', acmeUser('active01'))).statusCode).toBe(409);
    expect((await post(bystander, '/app/api/users', acmeUser('fresh2026y'))).statusCode).toBe(201);
  });
});
