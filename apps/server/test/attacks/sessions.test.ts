/**
 * Attack suite — sessions (DESIGN §5). The id rotates at sign-in and at every stage change and the old id
 * dies on the server; logout and idle expiry kill the session on the server; a partial session reaches
 * only its own stage's endpoints; a token belongs to its user alone.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, sessions, tokens, users } from '../../src/db/schema.ts';
import { assignToken, tokencodeAt } from '../../src/modules/token/soft-token.ts';
import { createUser, type NewUser } from '../../src/modules/users/users.ts';
import { sha256 } from '../../src/security/crypto.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const NEW_PASSWORD = 'Rotated-pass-2027';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

async function newUser(userId: string, extra: Partial<NewUser> = {}) {
  return createUser(ctx.app.db, {
    userId,
    email: `${userId}@example.com`,
    password: DEMO_PASSWORD,
    cobrand: 'cardportal',
    answer: 'Springfield',
    ...extra,
  });
}

const sid = (c: TestClient) => c.cookies.get('cpsid') as string;
const liveSessions = async (id: string) =>
  (
    await ctx.app.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, sha256(id)))
  ).length;

function form(client: TestClient, fields: Record<string, string>) {
  return client.request({
    method: 'POST',
    url: '/heracles/login',
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

async function latestCode(email: string): Promise<string> {
  const [mail] = await ctx.app.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, email))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  return /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1] ?? '';
}

/** Sends a request with exactly this session id, as an attacker replaying a stolen cookie would. */
const replay = (id: string, url = '/app/api/me') =>
  ctx.app.inject({ method: 'GET', url, headers: { cookie: `cpsid=${id}` } });

/** Records each id the client holds, and checks each new one differs and each old one is dead. */
class Trail {
  readonly ids: string[] = [];
  constructor(private readonly client: TestClient) {
    this.ids.push(sid(client));
  }
  async rotated(step: string) {
    const now = sid(this.client);
    expect(this.ids, `${step}: a new id`).not.toContain(now);
    for (const old of this.ids) expect(await liveSessions(old), `${step}: old id dead`).toBe(0);
    this.ids.push(now);
  }
}

describe('session ids rotate at sign-in and at every stage change (ASVS V3.2.1, V3.3.1)', () => {
  it('password sign-in: anonymous id → full session', async () => {
    await newUser('rotpwd01');
    const client = new TestClient(ctx.app);
    await client.get('/sdportal/rest/csrf');
    const trail = new Trail(client);
    expect((await client.login('rotpwd01', DEMO_PASSWORD)).body).toBe('/app/');
    await trail.rotated('sign-in');
    expect((await replay(trail.ids[0] as string)).statusCode).toBe(401);
    expect((await replay(sid(client))).statusCode).toBe(200);
  });

  it('one-time passcode: anonymous → otp stage → full', async () => {
    await newUser('rototp01', { loginType: 'otp-2fa' });
    const client = new TestClient(ctx.app);
    await client.get('/sdportal/rest/csrf');
    const trail = new Trail(client);
    expect((await client.login('rototp01', DEMO_PASSWORD)).body).toContain('/otp?');
    await trail.rotated('password accepted');
    const code = await latestCode('rototp01@example.com');
    expect(
      (await form(client, { username: 'rototp01', password: code, 'login-form-type': 'otp' })).body,
    ).toBe('/app/');
    await trail.rotated('code accepted');
  });

  it('first login: anonymous → change-password stage → full', async () => {
    await newUser('rotfirst01', { firstLogin: true });
    const client = new TestClient(ctx.app);
    await client.get('/sdportal/rest/csrf');
    const trail = new Trail(client);
    expect((await client.login('rotfirst01', DEMO_PASSWORD)).body).toContain('/change-password');
    await trail.rotated('password accepted');
    const changed = await client.postJson('/services/authentication-service/public/changePassword', {
      userId: 'rotfirst01',
      oldCredential: DEMO_PASSWORD,
      newCredential: NEW_PASSWORD,
    });
    expect(changed.statusCode).toBe(200);
    // The change itself does not make the partial session full: signing in again does, with a new id.
    expect((await client.login('rotfirst01', NEW_PASSWORD)).body).toBe('/app/');
    await trail.rotated('signed in with the new password');
  });

  it('token: anonymous → new-pin stage → signed out → next-token stage → full', async () => {
    const user = await newUser('rottoken01', { loginType: 'token' });
    await assignToken(ctx.app.db, ctx.app.secrets, user, { secretBase32: SECRET, defaultPin: '2468' });
    const client = new TestClient(ctx.app);
    await client.get('/sdportal/rest/csrf');
    const trail = new Trail(client);
    // Codes of the current step and the next (the server accepts one step either side, each step once).
    const code = (ahead = 0) => tokencodeAt(SECRET, Date.now() + ahead * 60_000);
    expect(
      (await client.login('rottoken01', `2468${code()}`, { 'login-form-type': 'token' })).body,
    ).toContain('/new-pin');
    await trail.rotated('new-pin stage');
    const passcode = await form(client, {
      username: 'rottoken01',
      password: code(1),
      'login-form-type': 'token',
    });
    expect(passcode.statusCode).toBe(200);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, user.id));
    const pin = await client.postJson(`/services/twofactortoken-service/protected/tokens/${row?.ldapId}`, {
      newPin: '5791',
    });
    expect(pin.statusCode).toBe(200);
    await trail.rotated('signed out after the PIN');
    const notices = await ctx.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'rottoken01@example.com'));
    const notice = notices.find((m) => m.kind === 'pin-changed');
    expect(notice?.subject).toMatch(/PIN was changed/);
    expect(notice?.body).not.toContain('5791');
    // Next-tokencode mode: the PIN + a tokencode lead to the next-token stage, the next code to full.
    // (lastStep is rewound to stand for the minutes a real user would wait for fresh codes.)
    await ctx.app.db
      .update(tokens)
      .set({ mode: 'next-token', lastStep: 0 })
      .where(eq(tokens.userPk, user.id));
    expect(
      (
        await client.login('rottoken01', `5791${code()}`, {
          'login-form-type': 'token',
        })
      ).body,
    ).toContain('/next-token');
    await trail.rotated('next-token stage');
    const next = await form(client, {
      username: 'rottoken01',
      password: code(1),
      'login-form-type': 'next-token',
    });
    expect(next.body).toBe('/app/');
    await trail.rotated('full');
  });
});

describe('logout and idle expiry end the session on the server (ASVS V3.3.1, V3.3.2)', () => {
  it('logout kills the id for every holder of it', async () => {
    await newUser('rotlogout01');
    const client = new TestClient(ctx.app);
    await client.login('rotlogout01', DEMO_PASSWORD);
    const id = sid(client);
    expect((await replay(id)).statusCode).toBe(200);
    await client.get('/heracles/logout');
    expect(await liveSessions(id)).toBe(0);
    expect((await replay(id)).statusCode).toBe(401);
    expect((await replay(id, '/sdportal/rest/sessionExpire/pingPortal.json')).statusCode).toBe(401);
  });

  it('an idle session is refused, cannot be renewed, and is purged', async () => {
    await newUser('rotidle01');
    const client = new TestClient(ctx.app);
    await client.login('rotidle01', DEMO_PASSWORD);
    const id = sid(client);
    // Idle past the timeout (the clock is the database's: move the expiry instead of waiting 300 s).
    await ctx.app.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.idHash, sha256(id)));
    expect((await replay(id)).statusCode).toBe(401);
    expect((await replay(id, '/sdportal/rest/sessionExpire/pingPortal.json')).statusCode).toBe(401);
    await ctx.app.sessions.purgeExpired();
    expect(await liveSessions(id)).toBe(0);
  });
});

describe('absolute lifetime and credential changes end sessions (ASVS V3.3.2, V3.3.3)', () => {
  it('ends a session 12 hours after sign-in, however active', async () => {
    await newUser('rotold01');
    const client = new TestClient(ctx.app);
    await client.login('rotold01', DEMO_PASSWORD);
    const id = sid(client);
    // Still fresh by its idle timeout, but signed in more than 12 hours ago.
    await ctx.app.db
      .update(sessions)
      .set({
        createdAt: sql`now() - interval '12 hours 1 second'`,
        expiresAt: sql`now() + interval '5 minutes'`,
      })
      .where(eq(sessions.idHash, sha256(id)));
    expect((await replay(id)).statusCode).toBe(401);
    expect((await replay(id, '/sdportal/rest/sessionExpire/pingPortal.json')).statusCode).toBe(401);
    await ctx.app.sessions.purgeExpired();
    expect(await liveSessions(id)).toBe(0);
  });

  it('a password change signs out every other session of the user, keeping the one that changed it', async () => {
    await newUser('rotmulti01');
    const here = new TestClient(ctx.app, '10.51.0.1');
    const elsewhere = new TestClient(ctx.app, '10.51.0.2');
    const bystander = new TestClient(ctx.app, '10.51.0.3');
    await newUser('rotmulti02');
    expect((await here.login('rotmulti01', DEMO_PASSWORD)).body).toBe('/app/');
    expect((await elsewhere.login('rotmulti01', DEMO_PASSWORD)).body).toBe('/app/');
    expect((await bystander.login('rotmulti02', DEMO_PASSWORD)).body).toBe('/app/');
    const changed = await here.postJson('/services/authentication-service/public/changePassword', {
      userId: 'rotmulti01',
      oldCredential: DEMO_PASSWORD,
      newCredential: NEW_PASSWORD,
    });
    expect(changed.statusCode).toBe(200);
    expect((await here.get('/app/api/me')).statusCode).toBe(200);
    expect((await elsewhere.get('/app/api/me')).statusCode).toBe(401);
    expect((await bystander.get('/app/api/me')).statusCode).toBe(200);
    // The owner is told by mail (ASVS V2.2.3), without the password.
    const notices = await ctx.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'rotmulti01@example.com'));
    const notice = notices.find((m) => m.kind === 'password-changed');
    expect(notice?.subject).toMatch(/password was changed/);
    expect(notice?.body).toContain('rotmulti01');
    expect(notice?.body).not.toContain(NEW_PASSWORD);
  });

  it('a password reset (forgot password) signs out every session of the user', async () => {
    await newUser('rotreset01');
    const holder = new TestClient(ctx.app, '10.52.0.1');
    expect((await holder.login('rotreset01', DEMO_PASSWORD)).body).toBe('/app/');
    const reset = await new TestClient(ctx.app, '10.52.0.2').postJson(
      '/services/authentication-service/public/forgotPassword',
      { userId: 'rotreset01', securityQuestion: { questionId: 'q1', questionResponse: 'Springfield' } },
    );
    expect(reset.statusCode).toBe(200);
    expect((await holder.get('/app/api/me')).statusCode).toBe(401);
  });
});

describe('partial sessions reach only their own stage (ASVS V4.1.3)', () => {
  it('each stage is refused every other stage endpoint and the application', async () => {
    const ghost = await newUser('rotother01', { loginType: 'token' });
    await assignToken(ctx.app.db, ctx.app.secrets, ghost, { defaultPin: '1357' });
    const [other] = await ctx.app.db.select().from(users).where(eq(users.id, ghost.id));

    const stages: Record<string, TestClient> = {};
    await newUser('stageotp01', { loginType: 'otp-2fa' });
    stages.otp = new TestClient(ctx.app);
    expect((await stages.otp.login('stageotp01', DEMO_PASSWORD)).body).toContain('/otp?');
    await newUser('stagecp01', { expired: true });
    stages['change-password'] = new TestClient(ctx.app);
    expect((await stages['change-password'].login('stagecp01', DEMO_PASSWORD)).body).toContain(
      '/change-password',
    );
    const pinUser = await newUser('stagepin01', { loginType: 'token' });
    await assignToken(ctx.app.db, ctx.app.secrets, pinUser, { secretBase32: SECRET, defaultPin: '2468' });
    stages['new-pin'] = new TestClient(ctx.app);
    const t0 = Date.now();
    expect(
      (
        await stages['new-pin'].login('stagepin01', `2468${tokencodeAt(SECRET, t0)}`, {
          'login-form-type': 'token',
        })
      ).body,
    ).toContain('/new-pin');
    const nextUser = await newUser('stagenext01', { loginType: 'token' });
    await assignToken(ctx.app.db, ctx.app.secrets, nextUser, { secretBase32: SECRET, defaultPin: '2468' });
    await ctx.app.db.update(tokens).set({ mode: 'next-token' }).where(eq(tokens.userPk, nextUser.id));
    stages['next-token'] = new TestClient(ctx.app);
    expect(
      (
        await stages['next-token'].login('stagenext01', `2468${tokencodeAt(SECRET, t0)}`, {
          'login-form-type': 'token',
        })
      ).body,
    ).toContain('/next-token');

    const [pinRow] = await ctx.app.db.select().from(users).where(eq(users.id, pinUser.id));
    const calls = {
      app: (c: TestClient) => c.get('/app/api/me'),
      resend: (c: TestClient) => c.postJson('/services/authentication-service/protected/one-time-pins', {}),
      changePassword: (c: TestClient, userId: string) =>
        c.postJson('/services/authentication-service/public/changePassword', {
          userId,
          oldCredential: 'Wrong-but-irrelevant-1',
          newCredential: NEW_PASSWORD,
        }),
      newPin: (c: TestClient) =>
        c.postJson(`/services/twofactortoken-service/protected/tokens/${pinRow?.ldapId}`, { newPin: '5791' }),
      otpCode: (c: TestClient) => form(c, { username: 'x', password: '123456', 'login-form-type': 'otp' }),
      nextToken: (c: TestClient) =>
        form(c, { username: 'x', password: '12345678', 'login-form-type': 'next-token' }),
    };
    const userOf: Record<string, string> = {
      otp: 'stageotp01',
      'change-password': 'stagecp01',
      'new-pin': 'stagepin01',
      'next-token': 'stagenext01',
    };
    for (const [stage, client] of Object.entries(stages)) {
      const app = await calls.app(client);
      expect(app.statusCode, `${stage}: /app/api/me`).toBe(401);
      if (stage !== 'otp') expect((await calls.resend(client)).statusCode, `${stage}: resend`).toBe(403);
      if (stage !== 'change-password') {
        const res = await calls.changePassword(client, userOf[stage] as string);
        expect(res.statusCode, `${stage}: change password`).toBe(403);
      }
      if (stage !== 'new-pin') expect((await calls.newPin(client)).statusCode, `${stage}: new PIN`).toBe(403);
      if (stage !== 'otp') expect((await calls.otpCode(client)).statusCode, `${stage}: OTP code`).toBe(401);
      if (stage !== 'next-token')
        expect((await calls.nextToken(client)).statusCode, `${stage}: next tokencode`).toBe(401);
      // rsapin/information opens only the screen of the session's own stage.
      for (const action of ['newpin', 'nexttoken']) {
        const info = (await client.get(`/sdportal/rest/rsapin/information?action=${action}`)).json();
        const own =
          (stage === 'new-pin' && action === 'newpin') || (stage === 'next-token' && action === 'nexttoken');
        expect(info.shouldAccess, `${stage}: information ${action}`).toBe(own);
      }
      // Each partial session is still alive after all that (nothing above ended it by accident).
      expect(await liveSessions(sid(client)), `${stage}: still alive`).toBe(1);
    }
    // The new-PIN session may not set the PIN of another user's token.
    const foreign = await stages['new-pin'].postJson(
      `/services/twofactortoken-service/protected/tokens/${other?.ldapId}`,
      { newPin: '5791' },
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('token.forbidden');
  });

  it('a full session may not set a token PIN, its own or another user’s', async () => {
    await newUser('stagefull01');
    const client = new TestClient(ctx.app);
    expect((await client.login('stagefull01', DEMO_PASSWORD)).body).toBe('/app/');
    const [row] = await ctx.app.db.select().from(users).where(eq(users.userId, 'token01'));
    const res = await client.postJson(
      `/services/twofactortoken-service/protected/tokens/${row?.ldapId ?? 'x'}`,
      {
        newPin: '5791',
      },
    );
    expect(res.statusCode).toBe(403);
  });
});
