import { AppError } from '../src/http/app-error.ts';
/**
 * Issue 13 items 5 and 6: common passwords are refused on every path that sets one (ASVS 2.1.7), and
 * an issuer's password settings (seed 001 §5: minimum length 12–20, duration 30–90 days) apply to every
 * password its users set. On the real database (PGlite and PostgreSQL), with the demo data.
 */

import { LIMITS } from '@cardportal/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, issuers, mailOutbox, users } from '../src/db/schema.ts';
import { DEMO_ANSWER } from '../src/demo/load.ts';
import { createUser } from '../src/modules/users/users.ts';
import {
  COMMON_PASSWORD_COUNT,
  commonPasswordForms,
  isCommonPassword,
} from '../src/security/common-passwords.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
let sysadmin: TestClient;
let ip = 10;

beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
  sysadmin = await signIn('sysadmin01');
});
afterAll(async () => {
  await ctx?.close();
});

async function signIn(userId: string, password = DEMO_PASSWORD): Promise<TestClient> {
  const client = new TestClient(ctx.app, `10.77.0.${ip++}`);
  const res = await client.login(userId, password);
  expect(res.statusCode, `${userId} signs in`).toBe(200);
  return client;
}

const change = (client: TestClient, userId: string, oldCredential: string, newCredential: string) =>
  client.postJson('/services/authentication-service/public/changePassword', {
    userId,
    oldCredential,
    newCredential,
  });

const patchIssuer = (number: string, body: Record<string, unknown>) =>
  sysadmin.request({
    method: 'PATCH',
    url: `/app/api/org/issuers/${number}`,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

const userRow = async (id: string) =>
  (await ctx.app.db.select().from(users).where(eq(users.userId, id.toLowerCase())))[0];

const acmeId = async () =>
  (await ctx.app.db.select().from(companies).where(eq(companies.number, '100001')))[0]?.id as number;

const DAY = 86_400_000;
/** Days from now until the date (to the nearest day). */
const daysUntil = (date: Date | null | undefined) =>
  date ? Math.round((date.getTime() - Date.now()) / DAY) : Number.NaN;

/** The newest mail of a kind to an address, as the outbox holds it before delivery. */
async function mailBody(kind: string, recipient: string): Promise<string> {
  const [mail] = await ctx.app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.recipient, recipient)))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  return mail?.body ?? '';
}

describe('common passwords (ASVS 2.1.7)', () => {
  it('normalises by case-folding and peeling off surrounding symbols and trailing or leading digits', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThan(40_000);
    expect(commonPasswordForms('Password123!')).toEqual(['password123!', 'password123', 'password']);
    expect(commonPasswordForms('!Qwerty123456!')).toEqual(['!qwerty123456!', 'qwerty123456', 'qwerty']);
    expect(commonPasswordForms('2024Sunshine!!')).toEqual(['2024sunshine!!', '2024sunshine', 'sunshine']);
    // Cores under 4 characters are not looked up; nothing inside the password is touched.
    expect(commonPasswordForms('abc#58293047')).toEqual(['abc#58293047']);
    expect(commonPasswordForms('MyDog$Rex2024')).toEqual(['mydog$rex2024', 'mydog$rex']);
    for (const common of [
      'Password123!',
      'PASSWORD1234',
      'qwerty123456',
      'Qwerty123456!',
      '!!Iloveyou2024',
      '2024Sunshine!!',
      'Football#1234',
      'P@ssw0rd12345',
      'Administrator1',
    ]) {
      expect(isCommonPassword(common), common).toBe(true);
    }
    for (const fine of [
      DEMO_PASSWORD,
      'correct horse battery',
      'MyDog$Rex2024',
      'Brand-new-pass1',
      'abc#58293047',
      'Tr4ffic-Lamp-Owl',
    ]) {
      expect(isCommonPassword(fine), fine).toBe(false);
    }
  });

  it('refuses a common password on change (an expired password) with password.policy naming it', async () => {
    const client = await signIn('expired01');
    for (const common of ['Password123!', 'qwerty123456', 'Sunshine2024!']) {
      const res = await change(client, 'expired01', DEMO_PASSWORD, common);
      expect(res.statusCode, common).toBe(400);
      const body = res.json();
      expect(body.error[0]).toMatchObject({ code: 'password.policy', problems: ['common'] });
      expect(body.error[0].message).toMatch(/commonly used password/);
      expect(body.minLength).toBe(LIMITS.passwordMinLength);
    }
    expect((await change(client, 'expired01', DEMO_PASSWORD, 'Brand-new-pass1')).statusCode).toBe(200);
  });

  it('refuses a common password at the forced change after the first login', async () => {
    const client = await signIn('firstlog01');
    const refused = await change(client, 'firstlog01', DEMO_PASSWORD, 'Football#1234');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({ code: 'password.policy', problems: ['common'] });
    expect((await userRow('firstlog01'))?.firstLogin).toBe(true);
    expect((await change(client, 'firstlog01', DEMO_PASSWORD, 'Kettle-Harbour-88')).statusCode).toBe(200);
    expect((await userRow('firstlog01'))?.firstLogin).toBe(false);
  });

  it('refuses a common password at the forced change after a temporary password, which is never common', async () => {
    const client = new TestClient(ctx.app, '10.77.1.1');
    const reset = await client.postJson('/services/authentication-service/public/forgotPassword', {
      userId: 'bncuser01',
      locale: 'en_US',
      securityQuestion: { questionId: 'q1', questionResponse: DEMO_ANSWER },
    });
    expect(reset.statusCode).toBe(200);
    const user = await userRow('bncuser01');
    const temporary = /temporary password is (\S+)/i.exec(
      await mailBody('temporary-password', user!.email),
    )?.[1];
    expect(temporary).toBeDefined();
    expect(isCommonPassword(temporary as string)).toBe(false);
    const signedIn = new TestClient(ctx.app, '10.77.1.2');
    expect((await signedIn.login('bncuser01', temporary as string)).body).toMatch(/change-password/);
    const refused = await change(signedIn, 'bncuser01', temporary as string, 'Iloveyou2024!');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error[0].problems).toEqual(['common']);
  });

  it('refuses a common password where the CLI creates a user (createUser), with a clear message', async () => {
    const attempt = createUser(ctx.app.db, {
      userId: 'commoncli01',
      email: 'commoncli01@example.com',
      password: 'Password123!',
      cobrand: 'cardportal',
      scope: { companyId: await acmeId() },
    });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toThrow(/password is too common/);
    expect(await userRow('commoncli01')).toBeUndefined();
  });
});

describe('issuer password settings (seed 001 §5)', () => {
  it('accepts a minimum length of 12 to 20 and a duration of 30 to 90 days, and refuses the rest by name', async () => {
    const detail = (await sysadmin.get('/app/api/org/issuers/1001')).json();
    expect(detail).toMatchObject({ passwordMinLength: 12, passwordDurationDays: 90 });
    for (const bad of [11, 21, 0, -12, 12.5]) {
      const res = await patchIssuer('1001', { passwordMinLength: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'issuer.passwordMinLength.range',
        fieldErrors: { passwordMinLength: 'issuer.passwordMinLength.range' },
      });
      expect(res.json().message).toMatch(/minimum password length must be a whole number from 12 to 20/);
    }
    for (const bad of [29, 91, 365]) {
      const res = await patchIssuer('1001', { passwordDurationDays: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'issuer.passwordDurationDays.range',
        fieldErrors: { passwordDurationDays: 'issuer.passwordDurationDays.range' },
      });
    }
    const both = await patchIssuer('1001', { passwordMinLength: 11, passwordDurationDays: 91 });
    expect(both.statusCode).toBe(400);
    expect(Object.keys(both.json().fieldErrors).sort()).toEqual([
      'passwordDurationDays',
      'passwordMinLength',
    ]);
    const notNumber = await patchIssuer('1001', { passwordMinLength: '16' });
    expect(notNumber.statusCode).toBe(400);
    expect(notNumber.json().fieldErrors).toEqual({ passwordMinLength: 'issuer.passwordMinLength.range' });
    for (let n = 12; n <= 20; n++) {
      const res = await patchIssuer('1001', { passwordMinLength: n });
      expect(res.statusCode, String(n)).toBe(200);
      expect(res.json().passwordMinLength).toBe(n);
    }
    for (let d = 30; d <= 90; d++) {
      const res = await patchIssuer('1001', { passwordDurationDays: d });
      expect(res.statusCode, String(d)).toBe(200);
      expect(res.json().passwordDurationDays).toBe(d);
    }
    // The database refuses an out-of-range value too (check constraints of migration 0006).
    await expect(
      ctx.app.db.update(issuers).set({ passwordMinLength: 8 }).where(eq(issuers.number, '1001')),
    ).rejects.toThrow();
    expect((await patchIssuer('1001', { passwordMinLength: 12, passwordDurationDays: 90 })).statusCode).toBe(
      200,
    );
  });

  it("applies the user's issuer's minimum (16: a 14-character password is tooShort) and duration (45 days)", async () => {
    expect((await patchIssuer('1001', { passwordMinLength: 16, passwordDurationDays: 45 })).statusCode).toBe(
      200,
    );
    try {
      // Audited as settings (the trail keeps no field named "password").
      const [audited] = await ctx.app.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.event, 'issuer.updated'), eq(auditEvents.entityId, '1001')))
        .orderBy(desc(auditEvents.id))
        .limit(1);
      expect(audited?.changes).toEqual({
        minLength: { before: 12, after: 16 },
        durationDays: { before: 90, after: 45 },
      });
      const client = await signIn('active01');
      const short = await change(client, 'active01', DEMO_PASSWORD, 'Brand-new-pw14');
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ code: 'password.policy', problems: ['tooShort'], minLength: 16 });
      const ok = await change(client, 'active01', DEMO_PASSWORD, 'Brand-new-pw-16ch');
      expect(ok.statusCode).toBe(200);
      expect(daysUntil((await userRow('active01'))?.passwordExpiresAt)).toBe(45);

      // The CLI's path: the same minimum and duration for a user it puts into the issuer's company.
      const base = {
        email: 'cli16@example.com',
        cobrand: 'cardportal',
        scope: { companyId: await acmeId() },
      };
      await expect(
        createUser(ctx.app.db, { ...base, userId: 'clipolicy01', password: 'Brand-new-pw14' }),
      ).rejects.toThrow(/tooShort/);
      await createUser(ctx.app.db, { ...base, userId: 'clipolicy01', password: 'Brand-new-pw-16ch' });
      expect(daysUntil((await userRow('clipolicy01'))?.passwordExpiresAt)).toBe(45);

      // An administrator's first password meets the minimum of the new user's issuer.
      const admin = await signIn('admin01');
      const created = await admin.postJson('/app/api/users', {
        userId: 'Firstpw16',
        email: 'Firstpw16@example.com',
        emailConfirm: 'Firstpw16@example.com',
        firstName: 'First',
        lastName: 'Password',
        userType: 'A',
      });
      expect(created.statusCode).toBe(201);
      const first = /First password: (\S+)/.exec(
        await mailBody('first-password', 'Firstpw16@example.com'),
      )?.[1];
      expect(first?.length).toBe(16);
      expect(isCommonPassword(first as string)).toBe(false);
    } finally {
      await patchIssuer('1001', { passwordMinLength: 12, passwordDurationDays: 90 });
    }
  });

  it('gives users without an issuer (Z) the defaults: 12 characters, 90 days', async () => {
    const row = await createUser(ctx.app.db, {
      userId: 'nopolicy01',
      email: 'nopolicy01@example.com',
      password: 'Brand-new-pw',
      cobrand: 'cardportal',
      userType: 'Z',
    });
    expect(daysUntil(row.passwordExpiresAt)).toBe(LIMITS.passwordDurationDays);
  });
});
