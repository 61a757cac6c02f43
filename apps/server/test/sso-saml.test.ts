import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, identityProviders } from '../src/db/schema.ts';
import { startTestApp, TestClient, type TestContext } from './harness.ts';
import { cliOf } from './support/cli.ts';
import { type SamlIdentityProvider, samlResponseFor, startSamlIdentityProvider } from './support/saml-idp.ts';

/**
 * Single sign-on over SAML 2.0 (issue 18 item 4, docs/sso.md "SAML") against a real identity provider on
 * loopback that signs its assertions (support/saml-idp.ts): the registration, a sign-in through the
 * assertion consumer service and the callback (where the browser that started it must come back), and
 * every way the response can be wrong — unsigned, tampered, for another audience, expired, unsolicited,
 * of another issuer or key, replayed, finished in another browser, for a subject nobody has.
 */
let ctx: TestContext;
let idp: SamlIdentityProvider;
const KEY = 'borealis-saml';

const cli = cliOf(() => ctx);

/** A browser's start at our sign-in URL, through the IdP, up to its form (not yet posted). */
async function throughIdp(client = new TestClient(ctx.app)) {
  const start = await client.get(`/sdportal/sso/${KEY}?cobrandHost=cardportal&locale=en_US`);
  expect(start.statusCode, start.body).toBe(302);
  const location = String(start.headers.location);
  expect(location.startsWith(`${idp.entryPoint}?SAMLRequest=`), location).toBe(true);
  return { client, form: await samlResponseFor(location) };
}

/** The IdP's page posts its form to our ACS, from its own origin (no token of ours, no cookie needed). */
function post(client: TestClient, form: { action: string; fields: Record<string, string> }) {
  const url = new URL(form.action);
  return client.request({
    method: 'POST',
    url: `${url.pathname}${url.search}`,
    payload: new URLSearchParams(form.fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(idp.entryPoint).origin },
    csrf: false,
  });
}

async function lastSsoAudit() {
  const [row] = await ctx.app.db
    .select()
    .from(auditEvents)
    .where(sql`${auditEvents.detail}->>'factor' = 'sso'`)
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row;
}

/** A refused response ends on the portal's screen saying why, with no session, audited with its reason. */
async function expectRefused(
  client: TestClient,
  res: { statusCode: number; headers: Record<string, unknown> },
  reason: string,
) {
  expect(res.statusCode).toBe(303);
  expect(String(res.headers.location)).toMatch(/^\/sdportal\/portalstatic\/locked\?.*reason=sso/);
  expect((await client.get('/app/api/me')).statusCode).toBe(401);
  expect((await lastSsoAudit())?.detail).toMatchObject({ factor: 'sso', provider: KEY, reason });
}

beforeAll(async () => {
  ctx = await startTestApp();
  idp = await startSamlIdentityProvider();
  const certificateFile = path.join(mkdtempSync(path.join(tmpdir(), 'cp-saml-')), 'idp.pem');
  writeFileSync(certificateFile, idp.certificate);
  const added = await cli([
    'sso',
    'add-saml',
    ...['--key', KEY, '--name', 'Borealis SAML', '--idp-entity-id', idp.entityId],
    ...['--entry-point', idp.entryPoint, '--certificate-file', certificateFile],
    ...['--logout-url', idp.logoutUrl, '--company', '100002'],
  ]);
  expect(added.stderr).toBe('');
  expect(added.stdout).toContain(
    `assertion consumer service:    ${ctx.config.publicUrl.replace(/\/$/, '')}/sdportal/sso/${KEY}/acs`,
  );
  const linked = await cli([
    'sso',
    'link',
    '--user-id',
    'ssouser01',
    '--provider',
    KEY,
    '--subject',
    'sam.saml',
  ]);
  expect(linked.stderr).toBe('');
}, 120_000);
afterAll(async () => {
  await idp?.close();
  await ctx?.close();
});

describe('SAML 2.0: registration (admin CLI)', () => {
  it('keeps the IdP’s certificate and refuses one that does not parse, an http IdP off loopback, a taken key', async () => {
    const [row] = await ctx.app.db.select().from(identityProviders).where(eq(identityProviders.key, KEY));
    expect(row).toMatchObject({ protocol: 'saml', issuer: idp.entityId, samlEntryPoint: idp.entryPoint });
    const dir = mkdtempSync(path.join(tmpdir(), 'cp-saml-bad-'));
    const bad = path.join(dir, 'bad.pem');
    writeFileSync(bad, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const good = path.join(dir, 'good.pem');
    writeFileSync(good, idp.certificate);
    const base = ['sso', 'add-saml', '--name', 'X', '--idp-entity-id', 'urn:x', '--company', '100002'];
    const refused = async (args: string[], message: RegExp) => {
      const res = await cli(args);
      expect(res.code, res.stdout).toBe(2);
      expect(res.stderr).toMatch(message);
    };
    await refused(
      [...base, '--key', 'bad-cert', '--entry-point', idp.entryPoint, '--certificate-file', bad],
      /certificate/,
    );
    await refused(
      [...base, '--key', 'plain', '--entry-point', 'http://idp.example.com/sso', '--certificate-file', good],
      /entryPoint.*https/,
    );
    await refused(
      [...base, '--key', KEY, '--entry-point', idp.entryPoint, '--certificate-file', good],
      /exists/,
    );
    expect((await cli(['sso', 'list'])).stdout).toContain(`${KEY}\t`);
  });
});

describe('SAML 2.0: a sign-in', () => {
  it('signs the subject’s SSO user in through the ACS and the callback, in the browser that started it', async () => {
    const { client, form } = await throughIdp();
    expect(form.action).toBe(`${ctx.config.publicUrl.replace(/\/$/, '')}/sdportal/sso/${KEY}/acs`);
    const acs = await post(client, form);
    expect(acs.statusCode, acs.body).toBe(303);
    const next = String(acs.headers.location);
    expect(next).toMatch(new RegExp(`^/sdportal/sso/${KEY}/callback\\?state=`));
    const done = await client.get(next);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/app/');
    const me = await client.get('/app/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ userId: 'ssouser01' });
    expect((await lastSsoAudit())?.event).toBe('login.success');
    // The same response again: its request was taken, so it answers nothing.
    const fresh = new TestClient(ctx.app);
    await expectRefused(fresh, await post(fresh, form), 'unsolicited-response');
  });

  it('refuses a response finished in another browser (the binding cookie)', async () => {
    const { form } = await throughIdp();
    const other = new TestClient(ctx.app);
    const acs = await post(other, form);
    expect(acs.statusCode).toBe(303);
    const res = await other.get(String(acs.headers.location));
    expect(String(res.headers.location)).toMatch(/reason=sso/);
    expect((await other.get('/app/api/me')).statusCode).toBe(401);
    expect((await lastSsoAudit())?.detail).toMatchObject({ reason: 'foreign-browser' });
  });

  for (const [tamper, reason] of [
    ['unsigned', 'invalid-response'],
    ['badSignature', 'invalid-response'],
    ['otherCertificate', 'invalid-response'],
    ['wrongAudience', 'invalid-response'],
    ['expired', 'invalid-response'],
    ['otherIssuer', 'invalid-response'],
    ['otherRecipient', 'invalid-response'],
    ['wrongInResponseTo', 'unsolicited-response'],
  ] as const) {
    it(`refuses a response ${tamper}`, async () => {
      const client = new TestClient(ctx.app);
      const start = await client.get(`/sdportal/sso/${KEY}`);
      idp.tamper = tamper;
      const form = await samlResponseFor(String(start.headers.location));
      await expectRefused(client, await post(client, form), reason);
    });
  }

  it('refuses a subject nobody has, a response to an OIDC provider’s key, and a form that is no response', async () => {
    idp.subject = 'nobody.here';
    try {
      const { client, form } = await throughIdp();
      const acs = await post(client, form);
      const res = await client.get(String(acs.headers.location));
      expect(String(res.headers.location)).toMatch(/reason=sso/);
      expect((await lastSsoAudit())?.detail).toMatchObject({ reason: 'unknown-subject' });
    } finally {
      idp.subject = 'sam.saml';
    }
    const client = new TestClient(ctx.app);
    expect(
      (await post(client, { action: 'http://x/sdportal/sso/nokey/acs', fields: { SAMLResponse: 'x' } }))
        .statusCode,
    ).toBe(404);
    const garbage = await post(client, {
      action: `http://x/sdportal/sso/${KEY}/acs`,
      fields: { SAMLResponse: 'bm90IHhtbA==' },
    });
    await expectRefused(client, garbage, 'invalid-response');
    expect((await post(client, { action: `http://x/sdportal/sso/${KEY}/acs`, fields: {} })).statusCode).toBe(
      400,
    );
  });

  it('sends a SAML session’s federated logout to the IdP’s logout page', async () => {
    const { client, form } = await throughIdp();
    await client.get(String((await post(client, form)).headers.location));
    const labels = '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?cobrandHost=cardportal';
    expect((await client.get(labels)).json()).toMatchObject({ fssoLogoutUrl: `/sdportal/sso/${KEY}/logout` });
    await client.get('/heracles/logout');
    const out = await client.get(`/sdportal/sso/${KEY}/logout`);
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe(idp.logoutUrl);
  });
});
