/**
 * My Profile (issue 7): language, challenge question, two-factor and the soft token, on the real
 * database (PGlite and PostgreSQL); re-authentication counts toward the lock.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityAnswers, tokens, users } from '../src/db/schema.ts';
import { createUser } from '../src/modules/users/users.ts';
import { verifySecret } from '../src/security/hashing.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;

async function signedIn(userId: string, password = DEMO_PASSWORD): Promise<TestClient> {
  const client = new TestClient(ctx.app);
  const res = await client.login(userId, password);
  expect(res.body, `${userId} signs in`).toBe('/app/');
  return client;
}

const send = (client: TestClient, method: 'PUT' | 'POST', url: string, body: unknown) =>
  client.request({
    method,
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

async function newUser(userId: string): Promise<void> {
  await createUser(ctx.services.database.db, {
    userId,
    email: `${userId}@example.com`,
    password: DEMO_PASSWORD,
    firstLogin: false,
    cobrand: 'cardportal',
    firstName: 'Pat',
    lastName: 'Profile',
  });
}

beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
});
afterAll(async () => {
  await ctx?.close();
});

describe('My Profile', () => {
  it('answers the profile of a full session only', async () => {
    expect((await new TestClient(ctx.app).get('/app/api/profile')).statusCode).toBe(401);
    const res = await (await signedIn('active01')).get('/app/api/profile');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const profile = res.json();
    expect(profile).toMatchObject({
      userId: 'active01',
      loginType: 'pwd',
      twoFactor: false,
      securityQuestionId: 'q1',
    });
    expect(profile.changePasswordUrl).toMatch(/^\/sdportal\/portalstatic\/change-password\?.*dest=MyProfile/);
    expect(profile.locales).toContain('de');
  });

  it('changes the preferred language to one of the co-brand languages only', async () => {
    await newUser('proflang1');
    const client = await signedIn('proflang1');
    const bad = await send(client, 'PUT', '/app/api/profile/language', { locale: 'xx_YY' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fieldErrors: { locale: 'locale.invalid' } });
    const ok = await send(client, 'PUT', '/app/api/profile/language', { locale: 'de' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().locale).toBe('de');
    expect((await client.get('/app/api/me')).json().locale).toBe('de');
  });

  it('maintains the challenge question with the answer rules and the current password', async () => {
    await newUser('profq001');
    const client = await signedIn('profq001');
    const url = '/app/api/profile/challenge-question';
    const short = await send(client, 'PUT', url, {
      questionId: 'q3',
      answer: 'Paris',
      currentPassword: DEMO_PASSWORD,
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ fieldErrors: { answer: 'securityAnswer.tooShort' } });
    const wrong = await send(client, 'PUT', url, {
      questionId: 'q3',
      answer: 'Mapleton',
      currentPassword: 'nope-nope-1',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'currentPassword.wrong' });
    const ok = await send(client, 'PUT', url, {
      questionId: 'q3',
      answer: 'Mapleton',
      currentPassword: DEMO_PASSWORD,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().securityQuestionId).toBe('q3');
    const [user] = await ctx.services.database.db.select().from(users).where(eq(users.userId, 'profq001'));
    const [stored] = await ctx.services.database.db
      .select()
      .from(securityAnswers)
      .where(eq(securityAnswers.userPk, user?.id ?? 0));
    expect(stored?.answerHash).not.toContain('Mapleton');
    expect(await verifySecret(stored?.answerHash ?? '', 'mapleton')).toBe(true);
    // The wrong password was counted, and the right one reset the count.
    const [after] = await ctx.services.database.db.select().from(users).where(eq(users.userId, 'profq001'));
    expect(after?.failedAttempts).toBe(0);
  });

  it('turns two-factor on (the next sign-in asks for the e-mailed code) and off', async () => {
    await newUser('prof2fa01');
    const client = await signedIn('prof2fa01');
    const on = await send(client, 'PUT', '/app/api/profile/two-factor', {
      enabled: true,
      currentPassword: DEMO_PASSWORD,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ twoFactor: true, loginType: 'otp-2fa' });
    const next = await new TestClient(ctx.app).login('prof2fa01', DEMO_PASSWORD);
    expect(next.body).toMatch(/\/otp\?/);
    const off = await send(client, 'PUT', '/app/api/profile/two-factor', {
      enabled: false,
      currentPassword: DEMO_PASSWORD,
    });
    expect(off.json()).toMatchObject({ twoFactor: false, loginType: 'pwd' });
  });

  it('issues a new soft token to a token user once, with its QR code', async () => {
    const client = await signedIn('active01');
    const refused = await send(client, 'POST', '/app/api/profile/soft-token', {
      currentPassword: DEMO_PASSWORD,
    });
    expect(refused.statusCode).toBe(409);
    await newUser('proftok01');
    const tokenUser = await signedIn('proftok01');
    await ctx.services.database.db
      .update(users)
      .set({ loginType: 'token' })
      .where(eq(users.userId, 'proftok01'));
    const res = await send(tokenUser, 'POST', '/app/api/profile/soft-token', {
      currentPassword: DEMO_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.uri).toMatch(
      /^otpauth:\/\/totp\/.*digits=8.*period=60|^otpauth:\/\/totp\/.*period=60.*digits=8/,
    );
    expect(body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(body.defaultPin).toMatch(/^[1-9]\d{3}$/);
    expect(res.headers['cache-control']).toContain('no-store');
    const [user] = await ctx.services.database.db.select().from(users).where(eq(users.userId, 'proftok01'));
    const [token] = await ctx.services.database.db
      .select()
      .from(tokens)
      .where(eq(tokens.userPk, user?.id ?? 0));
    expect(token?.mode).toBe('new-pin');
  });

  it('locks the user and ends the session after six wrong current passwords', async () => {
    await newUser('proflock1');
    const client = await signedIn('proflock1');
    const url = '/app/api/profile/two-factor';
    for (let i = 1; i <= 5; i++) {
      expect(
        (await send(client, 'PUT', url, { enabled: true, currentPassword: `wrong-${i}-pass` })).statusCode,
      ).toBe(403);
    }
    const sixth = await send(client, 'PUT', url, { enabled: true, currentPassword: 'wrong-6-pass' });
    expect(sixth.statusCode).toBe(401);
    expect(sixth.json()).toMatchObject({ code: 'account.locked' });
    expect((await client.get('/app/api/profile')).statusCode).toBe(401);
    const [user] = await ctx.services.database.db.select().from(users).where(eq(users.userId, 'proflock1'));
    expect(user?.status).toBe('Locked');
  });
});
