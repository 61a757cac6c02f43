/**
 * Attack suite — brute force. 50 concurrent wrong guesses of each kind of secret for one user: the user
 * ends locked and no more than 6 guesses are ever evaluated (seed 001 §4/§9: lock after 6 consecutive
 * failures; DESIGN §5). "Evaluated" is what the audit trail records for each guess the server actually
 * checked (detail.evaluated), as opposed to one refused by the lock.
 */
import { LIMITS } from '@cardportal/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, mailOutbox, users } from '../../src/db/schema.ts';
import { DEMO_ANSWER } from '../../src/demo/load.ts';
import { assignToken } from '../../src/modules/token/soft-token.ts';
import { createUser, type NewUser } from '../../src/modules/users/users.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

const STORM = 50;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

async function newUser(userId: string, extra: Partial<NewUser> = {}) {
  return createUser(ctx.app.db, {
    userId,
    email: `${userId}@example.com`,
    password: DEMO_PASSWORD,
    cobrand: 'cardportal',
    answer: DEMO_ANSWER,
    ...extra,
  });
}

async function row(pk: number) {
  const [r] = await ctx.app.db.select().from(users).where(eq(users.id, pk));
  if (!r) throw new Error('user vanished');
  return r;
}

/** Guesses the server evaluated for this user and factor, from the audit trail. */
async function evaluated(pk: number, factor: string): Promise<number> {
  const [r] = await ctx.app.db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.userPk, pk),
        sql`${auditEvents.event} in ('login.failure', 'login.locked')`,
        sql`${auditEvents.detail}->>'factor' = ${factor}`,
        sql`${auditEvents.detail}->>'evaluated' = 'true'`,
      ),
    );
  return r?.n ?? 0;
}

/** A full-session client of a fresh user. */
async function signedIn(userId: string): Promise<TestClient> {
  const client = new TestClient(ctx.app, '10.20.0.1');
  const res = await client.login(userId, DEMO_PASSWORD);
  expect(res.body).toBe('/app/');
  return client;
}

function expectLocked(r: { status: string; failedAttempts: number }) {
  expect(r.status).toBe('Locked');
  expect(r.failedAttempts).toBe(LIMITS.maxFailedAttempts);
}

describe('brute force: 50 concurrent guesses lock the user after at most 6 evaluated (seed 001 §4, DESIGN §5)', () => {
  it('password: sign-in guesses from 50 addresses', async () => {
    const user = await newUser('bfpass01');
    const results = await Promise.all(
      Array.from({ length: STORM }, (_, i) =>
        new TestClient(ctx.app, `10.21.0.${i + 1}`).login('bfpass01', `Wrong-guess-${i}-xyz`),
      ),
    );
    expect(results.every((r) => r.statusCode === 401 || r.body.includes('/locked'))).toBe(true);
    expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(
      LIMITS.maxFailedAttempts - 1,
    );
    expectLocked(await row(user.id));
    expect(await evaluated(user.id, 'primary')).toBe(LIMITS.maxFailedAttempts);
    // The right password no longer opens.
    expect((await new TestClient(ctx.app).login('bfpass01', DEMO_PASSWORD)).body).toContain('/locked');
  });

  it('one-time passcode: 50 wrong codes in the OTP stage', async () => {
    const user = await newUser('bfotp01', { loginType: 'otp-2fa' });
    const client = new TestClient(ctx.app, '10.22.0.1');
    expect((await client.login('bfotp01', DEMO_PASSWORD)).body).toContain('/otp?');
    const [mail] = await ctx.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'bfotp01@example.com'))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    const real = /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1];
    expect(real).toMatch(/^\d{6}$/);
    const guesses = Array.from({ length: STORM }, (_, i) => String(100000 + i * 7919).slice(0, 6)).filter(
      (g) => g !== real,
    );
    const results = await Promise.all(
      guesses.map((code) =>
        client.request({
          method: 'POST',
          url: '/heracles/login',
          payload: new URLSearchParams({
            username: 'bfotp01',
            password: code,
            'login-form-type': 'otp',
          }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      ),
    );
    expect(results.some((r) => r.body === '/app/')).toBe(false);
    expectLocked(await row(user.id));
    expect(await evaluated(user.id, 'otp')).toBe(LIMITS.maxFailedAttempts);
    // The real code is worthless now: the session is gone and the user locked.
    const after = await new TestClient(ctx.app).login('bfotp01', DEMO_PASSWORD);
    expect(after.body).toContain('/locked');
  });

  it('security answers: 50 wrong answers to forgot-password', async () => {
    const user = await newUser('bfanswer01');
    const results = await Promise.all(
      Array.from({ length: STORM }, (_, i) =>
        new TestClient(ctx.app, `10.23.0.${i + 1}`).postJson(
          '/services/authentication-service/public/forgotPassword',
          { userId: 'bfanswer01', securityQuestion: { questionId: 'q1', questionResponse: `Guess ${i}` } },
        ),
      ),
    );
    const codes = results.map((r) => r.json().code as string);
    expect(codes.every((c) => c === 'answer.wrong' || c === 'user.locked')).toBe(true);
    expect(codes.filter((c) => c === 'answer.wrong').length).toBeLessThanOrEqual(
      LIMITS.maxFailedAttempts - 1,
    );
    expectLocked(await row(user.id));
    expect(await evaluated(user.id, 'security-answer')).toBe(LIMITS.maxFailedAttempts);
    // The right answer does not reset a locked user's password.
    const right = await new TestClient(ctx.app).postJson(
      '/services/authentication-service/public/forgotPassword',
      {
        userId: 'bfanswer01',
        securityQuestion: { questionId: 'q1', questionResponse: DEMO_ANSWER },
      },
    );
    expect(right.json().code).toBe('user.locked');
    expect((await row(user.id)).passwordTemporary).toBe(false);
  });

  it('current password: 50 wrong current passwords on change-password', async () => {
    const user = await newUser('bfchange01');
    const client = await signedIn('bfchange01');
    const results = await Promise.all(
      Array.from({ length: STORM }, (_, i) =>
        client.postJson('/services/authentication-service/public/changePassword', {
          userId: 'bfchange01',
          oldCredential: `Wrong-current-${i}`,
          newCredential: 'Brand-new-pass-77',
        }),
      ),
    );
    expect(results.every((r) => r.statusCode >= 400 && r.statusCode < 500)).toBe(true);
    expectLocked(await row(user.id));
    expect(await evaluated(user.id, 'change-password')).toBe(LIMITS.maxFailedAttempts);
    expect((await new TestClient(ctx.app).login('bfchange01', DEMO_PASSWORD)).body).toContain('/locked');
    expect((await new TestClient(ctx.app).login('bfchange01', 'Brand-new-pass-77')).body).toContain(
      '/locked',
    );
  });

  it('token passcodes: 50 wrong PIN + tokencode passcodes', async () => {
    const user = await newUser('bftoken01', { loginType: 'token' });
    await assignToken(ctx.app.db, ctx.app.secrets, user, { defaultPin: '2468' });
    const results = await Promise.all(
      Array.from({ length: STORM }, (_, i) =>
        new TestClient(ctx.app, `10.24.0.${i + 1}`).login(
          'bftoken01',
          `2468${String(10_000_000 + i * 131)}`,
          {
            'login-form-type': 'token',
          },
        ),
      ),
    );
    expect(results.every((r) => r.statusCode === 401 || r.body.includes('/locked'))).toBe(true);
    expectLocked(await row(user.id));
    expect(await evaluated(user.id, 'primary')).toBe(LIMITS.maxFailedAttempts);
  });

  it('an unknown user ID locks alike under the same storm', async () => {
    const results = await Promise.all(
      Array.from({ length: STORM }, (_, i) =>
        new TestClient(ctx.app, `10.25.0.${i + 1}`).login('bfghost01', `Wrong-guess-${i}-xyz`),
      ),
    );
    expect(results.every((r) => r.statusCode === 401 || r.body.includes('/locked'))).toBe(true);
    expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(
      LIMITS.maxFailedAttempts - 1,
    );
    expect((await new TestClient(ctx.app).login('bfghost01', 'x')).body).toContain('/locked');
  });
});
