import { LIMITS } from '@cardportal/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, sessions, users } from '../src/db/schema.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const userRow = async (userId: string) => {
  const [row] = await ctx.app.db.select().from(users).where(eq(users.userId, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return row;
};

describe('password sign-in (DESIGN §5)', () => {
  it('signs an active user in: /app/ answered, session rotated, /app/api/me works', async () => {
    const client = new TestClient(ctx.app);
    await client.get('/sdportal/rest/csrf');
    const before = client.cookies.get('cpsid');
    const res = await client.login('active01', DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('/app/');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(client.cookies.get('cpsid')).toBeDefined();
    expect(client.cookies.get('cpsid')).not.toBe(before);
    const me = await client.get('/app/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ userId: 'active01', firstName: 'Ada', cobrand: 'cardportal' });
    const cookie = (res.cookies as { name: string; httpOnly?: boolean; sameSite?: string }[]).find(
      (c) => c.name === 'cpsid',
    );
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
  });

  it('accepts the user ID in any case and with surrounding spaces', async () => {
    const res = await new TestClient(ctx.app).login('  ACTIVE01 ', DEMO_PASSWORD);
    expect(res.body).toBe('/app/');
  });

  it('keeps the co-brand and locale of the form in the session', async () => {
    const client = new TestClient(ctx.app);
    await client.login('active01', DEMO_PASSWORD, { cobrandHost: 'banconorte', locale: 'es' });
    expect((await client.get('/app/api/me')).json()).toMatchObject({ cobrand: 'banconorte', locale: 'es' });
  });

  it('remembers the proven user ID in the user_id cookie of spec §3, and nothing after a failure (issue 22)', async () => {
    const ok = await new TestClient(ctx.app).login('  ACTIVE01 ', DEMO_PASSWORD);
    const cookie = (ok.cookies as { name: string; value: string; [k: string]: unknown }[]).find(
      (c) => c.name === 'user_id',
    );
    // the stored ID, not what was typed; 90 days; the portal's pages only; never sent cross-site
    expect(cookie).toMatchObject({
      value: 'active01',
      maxAge: LIMITS.cookieDays * 86_400,
      path: '/sdportal/portalstatic',
      sameSite: 'Strict',
    });
    expect(cookie?.httpOnly).toBeFalsy(); // the portal's script offers it in the sign-in form
    const failures = [
      await new TestClient(ctx.app).login('active01', 'Wrong-password-1'),
      await new TestClient(ctx.app).login('nosuchuser77', 'Wrong-password-1'),
    ];
    for (const failed of failures) {
      expect(failed.statusCode).toBe(401);
      expect((failed.cookies as { name: string }[]).map((c) => c.name)).not.toContain('user_id');
    }
    await new TestClient(ctx.app).login('active01', DEMO_PASSWORD); // reset the count
  });

  it('answers 401 for a wrong password and for an unknown user, with the same body', async () => {
    const wrong = await new TestClient(ctx.app).login('admin01', 'Wrong-password-1');
    const unknown = await new TestClient(ctx.app).login('nosuchuser77', 'Wrong-password-1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.headers['content-type']).toBe(wrong.headers['content-type']);
    await new TestClient(ctx.app).login('admin01', DEMO_PASSWORD); // reset the count
  });

  it('answers 401 for missing fields and refuses an unknown login-form-type', async () => {
    const client = new TestClient(ctx.app);
    expect((await client.login('', '')).statusCode).toBe(401);
    expect((await client.login('active01', '')).statusCode).toBe(401);
    const bad = await client.login('active01', DEMO_PASSWORD, { 'login-form-type': 'magic' });
    expect(bad.statusCode).toBe(400);
    expect((await userRow('active01')).failedAttempts).toBe(1); // the empty password counted as a guess
    await client.login('active01', DEMO_PASSWORD);
  });

  it('sends an expired password and a first login to the change-password screen with a partial session', async () => {
    for (const id of ['expired01', 'firstlog01']) {
      const client = new TestClient(ctx.app);
      const res = await client.login(id, DEMO_PASSWORD, { cobrandHost: 'cardportal', locale: 'en_US' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('/sdportal/portalstatic/change-password?cobrandHost=cardportal&locale=en_US');
      // A partial session does not reach the application.
      expect((await client.get('/app/api/me')).statusCode).toBe(401);
      expect((await client.get('/app/')).statusCode).toBe(302);
    }
  });

  it('tells a user locked by an administrator so with the right password, not to wait 30 minutes', async () => {
    const right = await new TestClient(ctx.app).login('locked01', DEMO_PASSWORD, {
      cobrandHost: 'cardportal',
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toBe(
      '/sdportal/portalstatic/locked?cobrandHost=cardportal&locale=en_US&reason=locked',
    );
    // A wrong password learns nothing: the locked screen of the attempts, as for any locked user.
    const wrong = await new TestClient(ctx.app).login('locked01', 'Not-the-password-1', {
      cobrandHost: 'cardportal',
    });
    expect(wrong.body).toBe('/sdportal/portalstatic/locked?cobrandHost=cardportal&locale=en_US');
    // The right password still reaches no session.
    const client = new TestClient(ctx.app);
    await client.login('locked01', DEMO_PASSWORD, { cobrandHost: 'cardportal' });
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
  });
});

describe('lockout after 6 consecutive failures (seed 001 §4, §9)', () => {
  it('locks on the 6th failure and answers the locked screen to every later attempt', async () => {
    const client = new TestClient(ctx.app);
    for (let i = 1; i <= 5; i++) {
      expect((await client.login('agmgr01', `Wrong-pass-${i}x`)).statusCode).toBe(401);
    }
    const sixth = await client.login('agmgr01', 'Wrong-pass-6x');
    expect(sixth.statusCode).toBe(200);
    expect(sixth.body).toMatch(/\/sdportal\/portalstatic\/locked/);
    const row = await userRow('agmgr01');
    expect(row.status).toBe('Locked');
    expect(row.lockReason).toBe('attempts');
    const rightPassword = await client.login('agmgr01', DEMO_PASSWORD);
    expect(rightPassword.body).toMatch(/\/locked/);
  });

  it('lifts a lock from failed attempts after 30 minutes', async () => {
    await ctx.app.db
      .update(users)
      .set({ lockedAt: sql`now() - interval '31 minutes'` })
      .where(eq(users.userId, 'agmgr01'));
    const res = await new TestClient(ctx.app).login('agmgr01', DEMO_PASSWORD);
    expect(res.body).toBe('/app/');
    const row = await userRow('agmgr01');
    expect(row.status).toBe('Active');
    expect(row.failedAttempts).toBe(0);
  });

  it('resets the count on a success', async () => {
    const client = new TestClient(ctx.app);
    for (let i = 0; i < 5; i++) await client.login('active01', 'Not-the-password-1');
    expect((await userRow('active01')).failedAttempts).toBe(5);
    expect((await client.login('active01', DEMO_PASSWORD)).body).toBe('/app/');
    expect((await userRow('active01')).failedAttempts).toBe(0);
    for (let i = 0; i < 5; i++) await client.login('active01', 'Not-the-password-1');
    expect((await client.login('active01', DEMO_PASSWORD)).body).toBe('/app/');
  });

  it('evaluates no more than 6 guesses under 30 concurrent attempts', async () => {
    const [target] = await ctx.app.db.select().from(users).where(eq(users.userId, 'token01'));
    const attempts = Array.from({ length: 30 }, (_, i) =>
      new TestClient(ctx.app, `10.0.0.${i + 1}`).login('token01', `Concurrent-guess-${i}`),
    );
    const results = await Promise.all(attempts);
    expect(results.every((r) => r.statusCode === 401 || r.body.includes('/locked'))).toBe(true);
    const row = await userRow('token01');
    expect(row.status).toBe('Locked');
    expect(row.failedAttempts).toBe(LIMITS.maxFailedAttempts);
    const evaluated = await ctx.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(
        sql`${auditEvents.userPk} = ${target?.id} and ${auditEvents.event} in ('login.failure', 'user.locked')`,
      );
    expect(evaluated[0]?.n).toBeLessThanOrEqual(LIMITS.maxFailedAttempts);
    expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(5);
  });

  it('locks unknown user IDs after the same number of attempts', async () => {
    const client = new TestClient(ctx.app);
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await client.login('ghostuser42', 'Any-password-123');
      answers.push(res.statusCode === 401 ? '401' : res.body.includes('/locked') ? 'locked' : res.body);
    }
    expect(answers).toEqual(['401', '401', '401', '401', '401', 'locked', 'locked']);
  });
});

describe('login descriptor (loginSignin)', () => {
  it("answers a known user's ldap id and alias, and the first step's login type (pwd) for every user", async () => {
    const res = await new TestClient(ctx.app).postJson('/sdportal/rest/user/loginSignin', {
      userId: 'otpuser01',
    });
    expect(res.statusCode).toBe(200);
    const row = await userRow('otpuser01');
    // The e-mailed code follows the password: the server reads the login type from the user's record.
    expect(res.json()).toEqual({ ldapId: row.ldapId, loginType: 'pwd', b2BAlias: row.b2bAlias });
  });

  it('answers a stable decoy of the same shape for an unknown user', async () => {
    const a = await new TestClient(ctx.app).postJson('/sdportal/rest/user/loginSignin', {
      userId: 'phantom01',
    });
    const b = await new TestClient(ctx.app).postJson('/sdportal/rest/user/loginSignin', {
      userId: 'phantom01',
    });
    const known = (
      await new TestClient(ctx.app).postJson('/sdportal/rest/user/loginSignin', { userId: 'active01' })
    ).json();
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    expect(Object.keys(a.json()).sort()).toEqual(Object.keys(known).sort());
    expect(a.json().ldapId).toMatch(/^ldap-[A-Za-z0-9]{16}$/);
    expect(known.ldapId).toMatch(/^ldap-[A-Za-z0-9]{16}$/);
  });

  it('refuses a missing, empty or oversized user ID with a clear 400', async () => {
    const client = new TestClient(ctx.app);
    for (const body of [{}, { userId: '' }, { userId: 42 }, { userId: 'x'.repeat(65) }]) {
      const res = await client.postJson('/sdportal/rest/user/loginSignin', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/userId/);
    }
    const malformed = await client.request({
      method: 'POST',
      url: '/sdportal/rest/user/loginSignin',
      payload: '{"userId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toHaveProperty('message');
  });
});

describe('CSRF and sessions (DESIGN §5)', () => {
  it('refuses a state-changing call without a token, with a wrong token, or from a foreign origin', async () => {
    const client = new TestClient(ctx.app);
    await client.get('/sdportal/rest/csrf');
    const form = 'username=active01&password=x&login-form-type=password';
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const none = await client.request({
      method: 'POST',
      url: '/heracles/login',
      payload: form,
      headers,
      csrf: false,
    });
    expect(none.statusCode).toBe(403);
    expect(none.json().code).toBe('csrf.invalid');
    const wrong = await client.request({
      method: 'POST',
      url: '/heracles/login',
      payload: form,
      csrf: false,
      headers: { ...headers, 'x-csrf-token': 'A'.repeat(20), 'x-xsrf-token': 'A'.repeat(20) },
    });
    expect(wrong.statusCode).toBe(403);
    const foreign = await client.request({
      method: 'POST',
      url: '/heracles/login',
      payload: form,
      headers: { ...headers, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('csrf.origin');
  });

  it('refuses a token that was issued for another session', async () => {
    const a = new TestClient(ctx.app);
    const b = new TestClient(ctx.app);
    await a.get('/sdportal/rest/csrf');
    await b.get('/sdportal/rest/csrf');
    const res = await b.request({
      method: 'POST',
      url: '/sdportal/rest/user/loginSignin',
      payload: JSON.stringify({ userId: 'active01' }),
      csrf: false,
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': a.csrf ?? '',
        cookie: `cpsid=${b.cookies.get('cpsid')}; sec-token=${a.csrf}`,
      },
    });
    expect(res.statusCode).toBe(403);
  });

  it('issues a 20-character alphanumeric sec-token', async () => {
    const client = new TestClient(ctx.app);
    await client.get('/sdportal/rest/csrf');
    expect(client.csrf).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('ends the session on the server at logout', async () => {
    const client = new TestClient(ctx.app);
    await client.login('admin01', DEMO_PASSWORD, { cobrandHost: 'cardportal', locale: 'en_US' });
    const sid = client.cookies.get('cpsid');
    expect((await client.get('/app/api/me')).statusCode).toBe(200);
    const out = await client.get('/heracles/logout');
    expect(out.statusCode).toBe(200);
    expect(out.body).toBe('/sdportal/portalstatic/logout?cobrandHost=cardportal&locale=en_US');
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
    // The old cookie is dead too, not only forgotten by this client.
    const replay = await ctx.app.inject({
      method: 'GET',
      url: '/app/api/me',
      headers: { cookie: `cpsid=${sid}` },
    });
    expect(replay.statusCode).toBe(401);
  });

  it('expires an idle session', async () => {
    const client = new TestClient(ctx.app);
    await client.login('admin01', DEMO_PASSWORD);
    await ctx.app.db.update(sessions).set({ expiresAt: sql`now() - interval '1 second'` });
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
    expect(await ctx.app.sessions.purgeExpired()).toBeGreaterThan(0);
  });

  it('renews the session with pingPortal.json', async () => {
    const client = new TestClient(ctx.app);
    expect((await client.get('/sdportal/rest/sessionExpire/pingPortal.json')).statusCode).toBe(401);
    await client.login('admin01', DEMO_PASSWORD);
    const ping = await client.get('/sdportal/rest/sessionExpire/pingPortal.json');
    expect(ping.statusCode).toBe(200);
    const expiresAt = new Date(ping.json().expiresAt).getTime();
    expect(expiresAt - Date.now()).toBeGreaterThan(ctx.config.sessionIdleMs - 5000);
  });

  it('never stores the session id itself', async () => {
    const client = new TestClient(ctx.app);
    await client.login('admin01', DEMO_PASSWORD);
    const sid = client.cookies.get('cpsid') ?? '';
    const rows = await ctx.app.db.select().from(sessions);
    expect(rows.some((r) => r.idHash === sid)).toBe(false);
    expect(JSON.stringify(rows)).not.toContain(sid);
  });
});
