import { LIMITS } from '@cardportal/domain';
import { eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, tokens, users } from '../src/db/schema.ts';
import { DEMO_ANSWER, DEMO_TOKEN_PIN, DEMO_TOKEN_SECRET } from '../src/demo/load.ts';
import { tokencodeAt } from '../src/modules/token/soft-token.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';
import { TestSmtp } from './smtp.ts';

let ctx: TestContext;
const smtp = new TestSmtp();
beforeAll(async () => {
  const url = await smtp.start();
  ctx = await startTestApp({ SMTP_URL: url });
});
afterAll(async () => {
  await ctx?.close();
  await smtp.stop();
});

const deliver = () => ctx.app.mailWorker.runOnce();
const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1] ?? '';
const otpForm = (code: string) => ({ username: 'otpuser01', password: code, 'login-form-type': 'otp' });
const userRow = async (id: string) => (await ctx.app.db.select().from(users).where(eq(users.userId, id)))[0];

function form(client: TestClient, fields: Record<string, string>) {
  return client.request({
    method: 'POST',
    url: '/heracles/login',
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

describe('one-time passcode (otp-2fa)', () => {
  it('e-mails a code after the password, and the code completes the sign-in once', async () => {
    const client = new TestClient(ctx.app);
    const res = await client.login('otpuser01', DEMO_PASSWORD, {
      cobrandHost: 'cardportal',
      locale: 'en_US',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      '/sdportal/portalstatic/otp?cobrandHost=cardportal&locale=en_US&delivery=o***%40example.com',
    );
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
    // The sign-in queued a delivery pass of its own, which may already have sent the mail: this pass
    // joins or follows it, and the SMTP peer has received exactly one mail either way.
    await deliver();
    expect(smtp.inbox.filter((m) => m.to.includes('otto.otp@example.com'))).toHaveLength(1);
    const mail = smtp.last('otto.otp@example.com');
    expect(mail?.subject).toContain('one-time passcode');
    const code = codeIn(mail?.text);
    expect(code).toMatch(/^\d{6}$/);
    expect(mail?.text).toContain('15 minutes');
    // The outbox keeps no copy of the code once it is delivered.
    const rows = await ctx.app.db.select().from(mailOutbox);
    expect(JSON.stringify(rows)).not.toContain(code);

    const ok = await form(client, otpForm(code));
    expect(ok.body).toBe('/app/');
    expect((await client.get('/app/api/me')).statusCode).toBe(200);

    const again = new TestClient(ctx.app);
    await again.login('otpuser01', DEMO_PASSWORD);
    const reused = await form(again, otpForm(code));
    expect(reused.body).toContain('error=true');
  });

  it('resends a new code, which replaces the old one', async () => {
    const client = new TestClient(ctx.app);
    await client.login('otpuser01', DEMO_PASSWORD);
    await deliver();
    const first = codeIn(smtp.last('otto.otp@example.com')?.text);
    const resend = await client.postJson('/services/authentication-service/protected/one-time-pins', {
      locale: 'en_US',
    });
    expect(resend.statusCode).toBe(200);
    expect(resend.headers['cache-control']).toBe('no-store');
    expect(resend.json()).toEqual({ emailAddress: 'o***@example.com' });
    await deliver();
    const second = codeIn(smtp.last('otto.otp@example.com')?.text);
    if (first !== second) expect((await form(client, otpForm(first))).body).toContain('error=true');
    expect((await form(client, otpForm(second))).body).toBe('/app/');
  });

  it('refuses resend outside an otp session', async () => {
    const anonymous = await new TestClient(ctx.app).postJson(
      '/services/authentication-service/protected/one-time-pins',
      {},
    );
    expect(anonymous.statusCode).toBe(401);
    const full = new TestClient(ctx.app);
    await full.login('active01', DEMO_PASSWORD);
    expect(
      (await full.postJson('/services/authentication-service/protected/one-time-pins', {})).statusCode,
    ).toBe(403);
  });

  it('refuses an expired code and malformed codes', async () => {
    const client = new TestClient(ctx.app);
    await client.login('otpuser01', DEMO_PASSWORD);
    await deliver();
    const code = codeIn(smtp.last('otto.otp@example.com')?.text);
    for (const bad of ['', '12345', 'abcdef', '１２３４５６']) {
      expect((await form(client, otpForm(bad))).body).toContain('error=true');
    }
    await ctx.app.db.execute(sql`update otp_codes set expires_at = now() - interval '1 second'`);
    expect((await form(client, otpForm(code))).body).toContain('error=true');
    await new TestClient(ctx.app).login('otpuser01', DEMO_PASSWORD); // the count starts again after a good password
  });

  it('counts wrong codes toward the lock', async () => {
    const client = new TestClient(ctx.app);
    await client.login('otpuser01', DEMO_PASSWORD);
    const answers: string[] = [];
    for (let i = 0; i < LIMITS.maxFailedAttempts; i++)
      answers.push((await form(client, otpForm('000000'))).body);
    expect(answers.slice(0, 5).every((a) => a.includes('error=true'))).toBe(true);
    expect(answers[5]).toContain('/locked');
    expect((await userRow('otpuser01'))?.status).toBe('Locked');
    await ctx.app.db
      .update(users)
      .set({ status: 'Active', failedAttempts: 0, lockedAt: null, lockReason: null })
      .where(eq(users.userId, 'otpuser01'));
  });
});

describe('forgot password', () => {
  it('answers the user question, and a stable decoy for unknown IDs', async () => {
    const client = new TestClient(ctx.app);
    const known = await client.postJson('/cpae/public/users/securityquestions', {
      userId: 'bncuser01',
      locale: 'en_US',
    });
    expect(known.json()).toEqual({ questionId: 'q1', questionText: 'In what city were you born?' });
    const a = await client.postJson('/cpae/public/users/securityquestions', {
      userId: 'nobody-here',
      locale: 'en_US',
    });
    const b = await client.postJson('/cpae/public/users/securityquestions', {
      userId: 'nobody-here',
      locale: 'en_US',
    });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    expect(Object.keys(a.json()).sort()).toEqual(['questionId', 'questionText']);
    const missing = await client.postJson('/cpae/public/users/securityquestions', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].message).toMatch(/userId/);
  });

  const reset = (client: TestClient, userId: string, answer: string, questionId = 'q1') =>
    client.postJson('/services/authentication-service/public/forgotPassword', {
      userId,
      locale: 'en_US',
      securityQuestion: { questionId, questionResponse: answer },
    });

  it('refuses a wrong answer, and before a first login', async () => {
    const client = new TestClient(ctx.app);
    const wrong = await reset(client, 'bncuser01', 'Gotham');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toEqual({ code: 'answer.wrong', message: 'Wrong Response' });
    const unknown = await reset(client, 'nobody-here', 'Gotham');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].code).toBe('answer.wrong');
    const first = await reset(client, 'firstlog01', DEMO_ANSWER);
    expect(first.statusCode).toBe(400);
    expect(first.json().errors[0].code).toBe('forgot.firstLogin');
    const empty = await reset(client, 'bncuser01', '   ');
    expect(empty.json().errors[0].code).toBe('answer.required');
  });

  it('e-mails a temporary password for the right answer; signing in with it forces a change', async () => {
    const client = new TestClient(ctx.app);
    const res = await reset(client, 'bncuser01', '  springfield ');
    expect(res.statusCode).toBe(200);
    await deliver();
    const mail = smtp.last('bruno.norte@example.com');
    const temporary =
      /(\S{14})\s*$/m.exec(mail?.text.split('\n').find((l) => /temporary|temporal/i.test(l)) ?? '')?.[1] ??
      '';
    expect(temporary).toHaveLength(14);
    const row = await userRow('bncuser01');
    expect(row?.passwordTemporary).toBe(true);
    expect((await new TestClient(ctx.app).login('bncuser01', DEMO_PASSWORD)).statusCode).toBe(401);
    const login = await new TestClient(ctx.app).login('bncuser01', temporary);
    expect(login.body).toMatch(/\/sdportal\/portalstatic\/change-password/);
  });

  it('keeps the reset when SMTP refuses, and delivers once SMTP is back', async () => {
    smtp.accepting = false;
    const before = smtp.inbox.length;
    const res = await reset(new TestClient(ctx.app), 'admin01', DEMO_ANSWER);
    expect(res.statusCode).toBe(200);
    expect(await deliver()).toBe(0);
    expect((await userRow('admin01'))?.passwordTemporary).toBe(true);
    const [pending] = await ctx.app.db.select().from(mailOutbox).where(isNull(mailOutbox.sentAt));
    expect(pending?.attempts).toBe(1);
    expect(pending?.lastError).toMatch(/451|unavailable/i);
    smtp.accepting = true;
    await ctx.app.db.update(mailOutbox).set({ nextAttemptAt: sql`now()` });
    expect(await deliver()).toBe(1);
    expect(smtp.inbox.length).toBe(before + 1);
  });
});

describe('change password', () => {
  const change = (client: TestClient, body: Record<string, string>) =>
    client.postJson('/services/authentication-service/public/changePassword', body);

  it('enforces the current password and the rules, then signs in with the new one', async () => {
    const client = new TestClient(ctx.app);
    expect((await client.login('expired01', DEMO_PASSWORD)).body).toMatch(/change-password/);
    const wrong = await change(client, {
      userId: 'expired01',
      oldCredential: 'Nope-nope-123',
      newCredential: 'Brand-new-pass1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error[0].code).toBe('invalid.credentials');
    for (const bad of ['short1!', 'aaa-bbb-ccc-111', 'expired01', DEMO_PASSWORD, 'x'.repeat(200)]) {
      const res = await change(client, {
        userId: 'expired01',
        oldCredential: DEMO_PASSWORD,
        newCredential: bad,
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error[0].code).toBe('password.policy');
    }
    const other = await change(client, {
      userId: 'active01',
      oldCredential: DEMO_PASSWORD,
      newCredential: 'Brand-new-pass1',
    });
    expect(other.statusCode).toBe(403);
    const ok = await change(client, {
      userId: 'expired01',
      oldCredential: DEMO_PASSWORD,
      newCredential: 'Brand-new-pass1',
    });
    expect(ok.statusCode).toBe(200);
    expect((await new TestClient(ctx.app).login('expired01', 'Brand-new-pass1')).body).toBe('/app/');
    expect((await new TestClient(ctx.app).login('expired01', DEMO_PASSWORD)).statusCode).toBe(401);
  });

  it('keeps four passwords of history and refuses reuse', async () => {
    const client = new TestClient(ctx.app);
    await client.login('expired01', 'Brand-new-pass1');
    const seq = ['Second-pass-22', 'Third-pass-303', 'Fourth-pass-44'];
    let current = 'Brand-new-pass1';
    for (const next of seq) {
      expect(
        (await change(client, { userId: 'expired01', oldCredential: current, newCredential: next }))
          .statusCode,
      ).toBe(200);
      current = next;
    }
    const reuse = await change(client, {
      userId: 'expired01',
      oldCredential: current,
      newCredential: 'Brand-new-pass1',
    });
    expect(reuse.json().error[0].code).toBe('password.policy');
    expect(reuse.json().message).toMatch(/recentlyUsed/);
    const count = await ctx.app.db.execute(
      sql`select count(*)::int as n from password_history ph join users u on u.id = ph.user_pk where u.user_id = 'expired01'`,
    );
    expect((count as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(4);
  });

  it('needs a session, and counts wrong current passwords toward the lock', async () => {
    expect(
      (await change(new TestClient(ctx.app), { userId: 'x', oldCredential: 'y', newCredential: 'z' }))
        .statusCode,
    ).toBe(401);
    const client = new TestClient(ctx.app);
    await client.login('agmgr01', DEMO_PASSWORD);
    const codes: number[] = [];
    for (let i = 0; i < LIMITS.maxFailedAttempts; i++) {
      codes.push(
        (
          await change(client, {
            userId: 'agmgr01',
            oldCredential: `Wrong-${i}-pass`,
            newCredential: 'Brand-new-pass1',
          })
        ).statusCode,
      );
    }
    expect(codes).toEqual([400, 400, 400, 400, 400, 423]);
    expect((await userRow('agmgr01'))?.status).toBe('Locked');
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
    await ctx.app.db
      .update(users)
      .set({ status: 'Active', failedAttempts: 0, lockedAt: null, lockReason: null })
      .where(eq(users.userId, 'agmgr01'));
  });
});

describe('software token: new PIN and next token', () => {
  const now = () => Date.now();
  const rewindToken = () => ctx.app.db.update(tokens).set({ lastStep: 0 });

  it('walks a new token through the new-PIN stage and signs in with the chosen PIN', async () => {
    const client = new TestClient(ctx.app);
    const first = await client.login('token01', `${DEMO_TOKEN_PIN}${tokencodeAt(DEMO_TOKEN_SECRET, now())}`, {
      cobrandHost: 'cardportal',
      locale: 'en_US',
    });
    expect(first.body).toBe('/sdportal/portalstatic/new-pin?cobrandHost=cardportal&locale=en_US');
    const info = (await client.get('/sdportal/rest/rsapin/information?action=newpin')).json();
    const row = await userRow('token01');
    expect(info).toEqual({
      shouldAccess: true,
      forwardFormEndpoint: '/heracles/login',
      ldapId: row?.ldapId,
      b2BAlias: row?.b2bAlias,
    });
    expect((await client.get('/sdportal/rest/rsapin/information?action=nexttoken')).json().shouldAccess).toBe(
      false,
    );
    expect((await client.get('/app/api/me')).statusCode).toBe(401);

    const url = `/services/twofactortoken-service/protected/tokens/${row?.ldapId}`;
    expect((await client.postJson(url, { newPin: '5791' })).statusCode).toBe(403); // passcode first
    const otherUser = await userRow('active01');
    expect(
      (
        await client.postJson(`/services/twofactortoken-service/protected/tokens/${otherUser?.ldapId}`, {
          newPin: '5791',
        })
      ).statusCode,
    ).toBe(403);

    // The same code again is refused (a step is never reused); the next step's code is accepted.
    const reused = await form(client, {
      username: 'token01',
      password: tokencodeAt(DEMO_TOKEN_SECRET, now()),
      'login-form-type': 'token',
    });
    expect(reused.statusCode).toBe(401);
    const next = await form(client, {
      username: 'token01',
      password: tokencodeAt(DEMO_TOKEN_SECRET, now() + 60_000),
      'login-form-type': 'token',
    });
    expect(next.body).toBe('/sdportal/portalstatic/new-pin?cobrandHost=cardportal&locale=en_US');

    for (const bad of ['0123', '123', '12345', 'abcd', DEMO_TOKEN_PIN]) {
      const res = await client.postJson(url, { newPin: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.statusMessage).toBe('Invalid PIN');
    }
    const set = await client.postJson(url, { newPin: '5791' });
    expect(set.statusCode).toBe(200);
    expect(set.json().redirect).toMatch(/^\/sdportal\/portalstatic\/logout/);
    expect((await client.get('/sdportal/rest/rsapin/information?action=newpin')).json().shouldAccess).toBe(
      false,
    );

    await rewindToken();
    const again = await new TestClient(ctx.app).login(
      'token01',
      `5791${tokencodeAt(DEMO_TOKEN_SECRET, now())}`,
    );
    expect(again.body).toBe('/app/');
    await rewindToken();
    expect(
      (
        await new TestClient(ctx.app).login(
          'token01',
          `${DEMO_TOKEN_PIN}${tokencodeAt(DEMO_TOKEN_SECRET, now())}`,
        )
      ).statusCode,
    ).toBe(401);
    await new TestClient(ctx.app).login('active01', DEMO_PASSWORD);
    await ctx.app.db.update(users).set({ failedAttempts: 0 }).where(eq(users.userId, 'token01'));
  });

  it('asks for the next tokencode after 3 wrong tokencodes, and answers ec=14008 for a wrong one', async () => {
    await rewindToken();
    for (let i = 0; i < 3; i++) {
      expect((await new TestClient(ctx.app).login('token01', `5791${'0000000'}${i}`)).statusCode).toBe(401);
    }
    const [token] = await ctx.app.db.select().from(tokens);
    expect(token?.mode).toBe('next-token');
    const client = new TestClient(ctx.app);
    const res = await client.login('token01', `5791${tokencodeAt(DEMO_TOKEN_SECRET, now())}`, {
      cobrandHost: 'cardportal',
      locale: 'en_US',
    });
    expect(res.body).toBe('/sdportal/portalstatic/next-token?cobrandHost=cardportal&locale=en_US');
    expect((await client.get('/sdportal/rest/rsapin/information?action=nexttoken')).json().shouldAccess).toBe(
      true,
    );
    const wrong = await form(client, {
      username: 'token01',
      password: '12345678',
      'login-form-type': 'next-token',
      referral_path: '/x',
      authn_attempt_id: '1',
      in_response_to: '2',
    });
    expect(wrong.body).toBe('/sdportal/portalstatic/next-token?cobrandHost=cardportal&locale=en_US&ec=14008');
    const right = await form(client, {
      username: 'token01',
      password: tokencodeAt(DEMO_TOKEN_SECRET, now() + 60_000),
      'login-form-type': 'next-token',
    });
    expect(right.body).toBe('/app/');
    expect((await client.get('/app/api/me')).statusCode).toBe(200);
    const [after] = await ctx.app.db.select().from(tokens);
    expect(after?.mode).toBe('normal');
  });

  it('keeps partial sessions to their own stage', async () => {
    const client = new TestClient(ctx.app);
    await client.login('firstlog01', DEMO_PASSWORD);
    expect(
      (await client.postJson('/services/authentication-service/protected/one-time-pins', {})).statusCode,
    ).toBe(403);
    const row = await userRow('firstlog01');
    expect(
      (
        await client.postJson(`/services/twofactortoken-service/protected/tokens/${row?.ldapId}`, {
          newPin: '5791',
        })
      ).statusCode,
    ).toBe(403);
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
    expect((await client.get('/sdportal/rest/rsapin/information?action=newpin')).json().shouldAccess).toBe(
      false,
    );
  });
});

describe('session-expiry warning content', () => {
  it('answers the modal texts and the timings', async () => {
    const res = await new TestClient(ctx.app).get(
      '/sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json?cobrandHost=cardportal',
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.generalSessionAboutToExpireMessage).toContain('{0}');
    expect(body.warningAfterMs).toBe(220_000);
    expect(body.countdownSeconds).toBe(80);
    for (const key of [
      'sessionExpireWarningBoxTitle',
      'sessionExpireContinueButtonLabel',
      'sessionExpireLogoutButtonLabel',
    ]) {
      expect(body[key]).toMatch(/\S/);
    }
  });
});
