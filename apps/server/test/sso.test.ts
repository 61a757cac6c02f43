import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  companies,
  identityProviders,
  mailOutbox,
  programOptions,
  ssoAttempts,
  users,
} from '../src/db/schema.ts';
import { DEMO_ANSWER } from '../src/demo/load.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';
import { cliOf } from './support/cli.ts';
import {
  type IdentityProvider,
  signInAtProvider,
  startIdentityProvider,
} from './support/identity-provider.ts';

/**
 * Single sign-on over OpenID Connect (issue 18 item 4, docs/sso.md) against a real provider on loopback
 * (oidc-provider): the registration, a sign-in, and every way the answer can be wrong — replayed or
 * stale state, another browser's state, a token for another audience, expired, with another nonce or
 * issuer, badly signed, an unknown subject, a locked user — each ends without a session.
 */
let ctx: TestContext;
let idp: IdentityProvider;
const KEY = 'borealis-idp';
const SECRET = 'client-secret-never-logged-0123456789';

const cli = cliOf(() => ctx);

const callbackBase = () => `${ctx.config.publicUrl.replace(/\/$/, '')}/sdportal/sso/${KEY}/callback`;

/** A browser's sign-in up to the provider's redirect back (not yet followed): the client and that URL. */
async function throughProvider(login: string): Promise<{ client: TestClient; back: URL }> {
  const client = new TestClient(ctx.app);
  const start = await client.get(`/sdportal/sso/${KEY}?cobrandHost=cardportal&locale=en_US`);
  expect(start.statusCode, start.body).toBe(302);
  const location = String(start.headers.location);
  expect(location.startsWith(`${idp.issuer}/auth?`), location).toBe(true);
  return { client, back: await signInAtProvider(location, login, callbackBase()) };
}

const callbackPath = (back: URL) => `${back.pathname}${back.search}`;

async function lastAudit(event: string) {
  const [row] = await ctx.app.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.event, event))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row;
}

/** The callback ends on the portal's screen saying why, with no session. */
async function expectRefused(client: TestClient, back: URL, reason: string, auditReason: string) {
  const res = await client.get(callbackPath(back));
  expect(res.statusCode).toBe(302);
  expect(String(res.headers.location)).toMatch(
    new RegExp(`^/sdportal/portalstatic/locked\\?.*reason=${reason}`),
  );
  expect((await client.get('/app/api/me')).statusCode).toBe(401);
  const [row] = await ctx.app.db
    .select()
    .from(auditEvents)
    .where(sql`${auditEvents.detail}->>'factor' = 'sso'`)
    .orderBy(desc(auditEvents.id))
    .limit(1);
  expect(row?.detail).toMatchObject({ factor: 'sso', reason: auditReason });
}

beforeAll(async () => {
  ctx = await startTestApp();
  const base = ctx.config.publicUrl.replace(/\/$/, '');
  idp = await startIdentityProvider([
    {
      clientId: 'cardportal-borealis',
      clientSecret: SECRET,
      redirectUris: [`${base}/sdportal/sso/${KEY}/callback`],
      postLogoutRedirectUris: [`${base}/sdportal/sso/${KEY}/signed-out`],
    },
  ]);
  const secretFile = path.join(mkdtempSync(path.join(tmpdir(), 'cp-sso-')), 'secret');
  writeFileSync(secretFile, `${SECRET}\n`);
  const added = await cli([
    'sso',
    'add',
    '--key',
    KEY,
    '--name',
    'Borealis directory',
    '--issuer',
    idp.issuer,
    '--client-id',
    'cardportal-borealis',
    '--client-secret-file',
    secretFile,
    '--scope',
    'openid email',
    '--company',
    '100002',
  ]);
  expect(added.stderr).toBe('');
  expect(added.code).toBe(0);
  expect(added.stdout).toContain(`redirect URI:             ${base}/sdportal/sso/${KEY}/callback`);
  const linked = await cli([
    'sso',
    'link',
    '--user-id',
    'ssouser01',
    '--provider',
    KEY,
    '--subject',
    'sam.single',
  ]);
  expect([linked.code, linked.stdout, linked.stderr]).toEqual([0, `ssouser01 signs in through ${KEY}\n`, '']);
}, 120_000);
afterAll(async () => {
  await idp?.close();
  await ctx?.close();
});

describe('single sign-on: registration (admin CLI)', () => {
  it('keeps the client secret sealed, never prints it, and refuses what would be wrong', async () => {
    const [row] = await ctx.app.db.select().from(identityProviders).where(eq(identityProviders.key, KEY));
    expect(row?.clientSecretEnc).toBeTruthy();
    expect(row?.clientSecretEnc).not.toContain(SECRET);
    const list = await cli(['sso', 'list']);
    expect(list.stdout).toContain(`${KEY}\t`);
    expect(list.stdout).not.toContain(SECRET);
    const events = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'sso.providerAdded'));
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain(SECRET);

    const refused = async (args: string[], message: RegExp) => {
      const res = await cli(args);
      expect(res.code, res.stdout).toBe(2);
      expect(res.stderr).toMatch(message);
    };
    const add = ['sso', 'add', '--name', 'X', '--client-id', 'c'];
    await refused(
      [...add, '--key', 'plain', '--issuer', 'http://idp.example.com', '--company', '100001'],
      /issuer.*https/,
    );
    await refused([...add, '--key', KEY, '--issuer', idp.issuer, '--company', '100001'], /exists/);
    await refused(
      [...add, '--key', 'both', '--issuer', idp.issuer, '--company', '100001', '--cobrand', 'acme'],
      /exactly one/,
    );
    await refused(
      [...add, '--key', 'nobody', '--issuer', 'http://127.0.0.1:9', '--company', '100002'],
      /could not be discovered/,
    );
    // Acme has multi-user, so single sign-on is off there (seed 001 §6): no provider for it.
    await refused(
      [...add, '--key', 'acme', '--issuer', idp.issuer, '--company', '100001'],
      /single sign-on is off for company 100001/,
    );
    await refused([...add, '--key', 'ghost', '--issuer', idp.issuer, '--company', '999999'], /no company/);
    // Users of another company; a token user; a subject another user has.
    for (const other of ['bncuser01', 'active01']) {
      await refused(['sso', 'link', '--user-id', other, '--provider', KEY, '--subject', 'x'], /not a user/);
    }
    for (const [userId, loginType] of [
      ['bortoken01', 'token'],
      ['borplain01', 'pwd'],
    ] as const) {
      const made = await cli(
        [
          'user',
          'create',
          '--user-id',
          userId,
          '--email',
          `${userId}@example.com`,
          '--company',
          '100002',
        ].concat([
          '--password',
          DEMO_PASSWORD,
          '--login-type',
          loginType,
          '--first-name',
          'Bo',
          '--last-name',
          'Real',
        ]),
      );
      expect([made.code, made.stderr], userId).toEqual([0, '']);
    }
    await refused(
      ['sso', 'link', '--user-id', 'bortoken01', '--provider', KEY, '--subject', 'x'],
      /only password users/,
    );
    await refused(
      ['sso', 'link', '--user-id', 'borplain01', '--provider', KEY, '--subject', 'sam.single'],
      /already has subject/,
    );
    await refused(['sso', 'remove', KEY], /Cannot delete: 1 user/);
    expect((await ctx.app.db.select().from(identityProviders)).map((p) => p.key)).toEqual([KEY]);
  });
});

describe('single sign-on: what administrators see', () => {
  it('shows an SSO user’s provider and subject in the user’s detail, and nothing for a password user', async () => {
    // The group's administrator: Borealis is in Demo Manufacturing Group.
    const admin = new TestClient(ctx.app);
    expect((await admin.login('cgadmin01', DEMO_PASSWORD)).body).toBe('/app/');
    const sso = await admin.get('/app/api/users/ssouser01');
    expect(sso.json()).toMatchObject({
      singleSignOn: { provider: 'Borealis directory', subject: 'sam.single' },
    });
    const plain = await admin.get('/app/api/users/active01');
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({ singleSignOn: null });
  });
});

describe('single sign-on: the sign-in (authorization code + PKCE, state, nonce)', () => {
  it('signs the subject’s SSO user in: a full session, ssoUserCookie true, audited', async () => {
    const { client, back } = await throughProvider('sam.single');
    expect(back.searchParams.get('iss')).toBe(idp.issuer);
    const res = await client.get(callbackPath(back));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/app/');
    expect(client.cookies.get('ssoUserCookie')).toBe('true');
    expect(client.cookies.has('cp_sso')).toBe(false);
    const me = await client.get('/app/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ userId: 'ssouser01', cobrand: 'cardportal', locale: 'en_US' });
    expect((await lastAudit('login.success'))?.detail).toMatchObject({ factor: 'sso', provider: KEY });
    // Nothing of the exchange is kept: the attempt is gone.
    expect(await ctx.app.db.select().from(ssoAttempts)).toHaveLength(0);
  });

  it('holds no portal password: the old one and any other answer as an unknown ID, without counting', async () => {
    const before = (await ctx.app.db.select().from(users).where(eq(users.userId, 'ssouser01')))[0];
    for (const password of [DEMO_PASSWORD, 'Any-other-pass1']) {
      const res = await new TestClient(ctx.app).login('ssouser01', password);
      expect([res.statusCode, res.body]).toEqual([401, 'Login failed']);
    }
    // Forgot password neither: the right answer gets the wrong answer's reply, and no mail is written.
    const client = new TestClient(ctx.app);
    const outbox = async () => (await ctx.app.db.select({ n: count() }).from(mailOutbox))[0]?.n;
    const mailsBefore = await outbox();
    const reset = await client.postJson('/services/authentication-service/public/forgotPassword', {
      userId: 'ssouser01',
      locale: 'en_US',
      securityQuestion: { questionId: 'q1', questionResponse: DEMO_ANSWER },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().errors[0]).toEqual({ code: 'answer.wrong', message: 'Wrong Response' });
    expect(await outbox()).toBe(mailsBefore);
    const after = (await ctx.app.db.select().from(users).where(eq(users.userId, 'ssouser01')))[0];
    expect(after?.failedAttempts).toBe(before?.failedAttempts);
    expect(after?.passwordTemporary).toBe(false);
    expect((await lastAudit('login.refused'))?.detail).toMatchObject({ reason: 'sso-enforced' });
  });

  it('takes a state once: the same answer replayed signs nobody in', async () => {
    const { client, back } = await throughProvider('sam.single');
    // An attacker who copied the whole browser's state before the answer was used: the binding too.
    const replay = new TestClient(ctx.app);
    replay.cookies.set('cp_sso', client.cookies.get('cp_sso') ?? '');
    expect((await client.get(callbackPath(back))).headers.location).toBe('/app/');
    await expectRefused(replay, back, 'sso', 'unknown-state');
  });

  it('binds the state to the browser that started: another browser with the answer gets nothing', async () => {
    const { back } = await throughProvider('sam.single');
    await expectRefused(new TestClient(ctx.app), back, 'sso', 'foreign-browser');
  });

  it('lets a started sign-in expire after 10 minutes', async () => {
    const { client, back } = await throughProvider('sam.single');
    await ctx.app.db.update(ssoAttempts).set({ createdAt: sql`now() - interval '11 minutes'` });
    await expectRefused(client, back, 'sso', 'expired-state');
  });

  it.each([
    ['another audience', (c: Record<string, unknown>) => ({ ...c, aud: 'someone-else' })],
    [
      'an expired token',
      (c: Record<string, unknown>) => ({
        ...c,
        exp: Math.floor(Date.now() / 1000) - 600,
        iat: Math.floor(Date.now() / 1000) - 4000,
      }),
    ],
    ['another nonce', (c: Record<string, unknown>) => ({ ...c, nonce: 'replayed-nonce' })],
    ['another issuer', (c: Record<string, unknown>) => ({ ...c, iss: 'https://evil.example' })],
    ['a subject that is no string', (c: Record<string, unknown>) => ({ ...c, sub: 42 as unknown as string })],
  ] as [string, (c: JWTPayload) => JWTPayload][])('refuses an ID token with %s', async (_label, tamper) => {
    const { client, back } = await throughProvider('sam.single');
    idp.tamper = tamper;
    try {
      await expectRefused(client, back, 'sso', 'invalid-response');
    } finally {
      idp.tamper = undefined;
    }
  });

  it('refuses an ID token whose signature is not the provider’s', async () => {
    const { client, back } = await throughProvider('sam.single');
    idp.breakSignature = true;
    try {
      await expectRefused(client, back, 'sso', 'invalid-response');
    } finally {
      idp.breakSignature = false;
    }
  });

  it('refuses a provider’s error answer and a callback without state', async () => {
    const client = new TestClient(ctx.app);
    const start = await client.get(`/sdportal/sso/${KEY}`);
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const denied = new URL(callbackBase());
    denied.search = new URLSearchParams({ error: 'access_denied', state, iss: idp.issuer }).toString();
    await expectRefused(client, denied, 'sso', 'provider-refused');
    await expectRefused(client, new URL(`${callbackBase()}?code=abc`), 'sso', 'no-state');
  });

  it('signs in nobody for a subject no SSO user has, and tells a locked user so', async () => {
    const unknown = await throughProvider('somebody.else');
    await expectRefused(unknown.client, unknown.back, 'sso', 'unknown-subject');
    await ctx.app.db
      .update(users)
      .set({ status: 'Locked', lockReason: 'admin', lockedAt: sql`now()` })
      .where(eq(users.userId, 'ssouser01'));
    try {
      const locked = await throughProvider('sam.single');
      await expectRefused(locked.client, locked.back, 'locked', 'locked');
    } finally {
      await ctx.app.db
        .update(users)
        .set({ status: 'Active', lockReason: null, lockedAt: null })
        .where(eq(users.userId, 'ssouser01'));
    }
  });

  it('signs in through a company’s provider only while its program option singleSignOn is on', async () => {
    const [borealis] = await ctx.app.db.select().from(companies).where(eq(companies.number, '100002'));
    await ctx.app.db
      .insert(programOptions)
      .values({ key: 'singleSignOn', level: 'company', companyId: borealis?.id, enabled: false })
      .onConflictDoUpdate({
        target: [programOptions.companyId, programOptions.key],
        set: { enabled: false },
      });
    try {
      const off = await throughProvider('sam.single');
      await expectRefused(off.client, off.back, 'sso', 'option-off');
      const link = await cli([
        'sso',
        'link',
        '--user-id',
        'borplain01',
        '--provider',
        KEY,
        '--subject',
        'bo',
      ]);
      expect([link.code, link.stderr]).toEqual([2, expect.stringMatching(/single sign-on is off/)]);
    } finally {
      await ctx.app.db.delete(programOptions).where(eq(programOptions.companyId, borealis?.id ?? 0));
    }
    const on = await throughProvider('sam.single');
    expect((await on.client.get(callbackPath(on.back))).headers.location).toBe('/app/');
  });

  it('answers 400 for a query no provider sends, and signs nobody in', async () => {
    for (const query of [`state=a&state=b`, `code=${'x'.repeat(3000)}`]) {
      const res = await new TestClient(ctx.app).get(`/sdportal/sso/${KEY}/callback?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: 'sso.invalidQuery' });
    }
  });

  it('answers 404 for a provider that does not exist, whatever the key looks like', async () => {
    for (const url of [
      '/sdportal/sso/nobody',
      '/sdportal/sso/NOT_A_KEY/callback?state=x',
      '/sdportal/sso/x/logout',
    ]) {
      const res = await new TestClient(ctx.app).get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'sso.unknownProvider' });
    }
  });
});

describe('single sign-on: the logout rule of the portal spec', () => {
  it('gives an SSO session the provider’s end of session as its federated logout URL, then back to sign-in', async () => {
    const { client, back } = await throughProvider('sam.single');
    await client.get(callbackPath(back));
    const labels = await client.get(
      '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?cobrandHost=cardportal',
    );
    expect(labels.json()).toMatchObject({ fssoLogoutUrl: `/sdportal/sso/${KEY}/logout` });
    // The application ends the session before the logout screen asks: the labels still know the provider.
    await client.get('/heracles/logout');
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
    const labelsPath = '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?cobrandHost=cardportal';
    expect((await client.get(labelsPath)).json()).toMatchObject({
      fssoLogoutUrl: `/sdportal/sso/${KEY}/logout`,
    });
    // A cookie naming anything else names no provider.
    for (const forged of ['nobody', 'x\u0000y', "'; drop table users; --"]) {
      const other = new TestClient(ctx.app);
      other.cookies.set('cp_sso_logout', encodeURIComponent(forged));
      const res = await other.get(labelsPath);
      expect([res.statusCode, res.json().fssoLogoutUrl]).toEqual([200, null]);
    }
    const out = await client.get(`/sdportal/sso/${KEY}/logout`);
    expect(out.statusCode).toBe(302);
    const end = new URL(String(out.headers.location));
    expect(`${end.origin}${end.pathname}`).toBe(`${idp.issuer}/session/end`);
    expect(end.searchParams.get('client_id')).toBe('cardportal-borealis');
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(
      `${ctx.config.publicUrl.replace(/\/$/, '')}/sdportal/sso/${KEY}/signed-out`,
    );
    // The provider accepts it (the URI is the registered one): its confirmation page, not an error.
    const confirm = await fetch(end, { redirect: 'manual' });
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toMatch(/logout/i);
    const signedOut = await client.get(`/sdportal/sso/${KEY}/signed-out`);
    expect(signedOut.headers.location).toBe('/sdportal/portalstatic/signin');
    // A password session has no federated logout URL (the co-brand's, none here).
    const plain = new TestClient(ctx.app);
    await plain.login('active01', DEMO_PASSWORD);
    const plainLabels = await plain.get(
      '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?cobrandHost=cardportal',
    );
    expect(plainLabels.json()).toMatchObject({ fssoLogoutUrl: null });
  });
});

describe('single sign-on: the end of it (admin CLI)', () => {
  it('makes an SSO user a password user again, with a first password by mail, and the provider signs them in no more', async () => {
    const [before] = await ctx.app.db.select({ n: count() }).from(mailOutbox);
    const unlinked = await cli(['sso', 'unlink', '--user-id', 'ssouser01']);
    expect([unlinked.code, unlinked.stderr]).toEqual([0, '']);
    expect(unlinked.stdout).toMatch(/first password is in the outbox/);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.userId, 'ssouser01'));
    expect(row).toMatchObject({
      sso: false,
      federationProviderId: null,
      federationSubject: null,
      firstLogin: true,
    });
    const [mail] = await ctx.app.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    expect((await ctx.app.db.select({ n: count() }).from(mailOutbox))[0]?.n).toBe((before?.n ?? 0) + 1);
    expect(mail?.kind).toBe('first-password');
    const password = /First password: (\S+)/.exec(mail?.body ?? '')?.[1] ?? '';
    expect(password).not.toBe('');
    expect(unlinked.stdout).not.toContain(password);
    // The first password signs in to the forced change; the provider's subject reaches nobody.
    expect((await new TestClient(ctx.app).login('ssouser01', password)).body).toMatch(/change-password/);
    const { client, back } = await throughProvider('sam.single');
    await expectRefused(client, back, 'sso', 'unknown-subject');
    expect((await lastAudit('sso.userUnlinked'))?.userPk).toBe(row?.id);
    const again = await cli(['sso', 'unlink', '--user-id', 'ssouser01']);
    expect([again.code, again.stderr]).toEqual([2, 'sso unlink: ssouser01 is no SSO user\n']);
  });
});
