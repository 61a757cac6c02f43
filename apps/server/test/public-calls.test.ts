import { readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_TEXT_NAMESPACES, SUPPORTED_LOCALES, textNamespaceOf } from '@cardportal/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientLogs } from '../src/db/schema.ts';
import { startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('co-brand calls (spec §7)', () => {
  it('answers the co-brand record with ETag and 15-minute caching, 304 on a match', async () => {
    const client = new TestClient(ctx.app);
    const res = await client.get('/sdportal/rest/cobrand/banconorte');
    expect(res.statusCode).toBe(200);
    const record = res.json();
    expect(record).toMatchObject({ name: 'banconorte', abbreviation: 'bnc' });
    for (const key of [
      'signInToLabel',
      'appName',
      'fssoRedirectUrl',
      'companySelfRegisterSupported',
      'prospectiveAccountApplicationSupported',
      'theme',
      'footerLinks',
    ]) {
      expect(record).toHaveProperty(key);
    }
    expect(res.headers['cache-control']).toBe('public, max-age=900');
    const etag = String(res.headers.etag);
    const again = await client.get('/sdportal/rest/cobrand/banconorte', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 JSON for an unknown or malformed co-brand', async () => {
    const client = new TestClient(ctx.app);
    for (const name of ['nosuchbank', 'BAD%20NAME', 'a'.repeat(60), '%3Cscript%3E']) {
      const res = await client.get(`/sdportal/rest/cobrand/${name}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('cobrand.not_found');
    }
    expect((await client.get('/sdportal/rest/cobrands/nosuchbank/locales')).statusCode).toBe(404);
  });

  it('answers the locale map in the co-brand order, each language in its own name', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/rest/cobrands/banconorte/locales');
    expect(res.statusCode).toBe(200);
    const map = res.json();
    expect(Object.keys(map)[0]).toBe('es');
    expect(map.es).toBe('Español');
  });

  it('resolves an abbreviation to its co-brand name as text', async () => {
    const client = new TestClient(ctx.app);
    const res = await client.get('/sdportal/rest/cobrandhostabbreviation?cobrandAbbr=bnc');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('banconorte');
    expect((await client.get('/sdportal/rest/cobrandhostabbreviation?cobrandAbbr=zzzz')).statusCode).toBe(
      404,
    );
    const missing = await client.get('/sdportal/rest/cobrandhostabbreviation');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/cobrandAbbr/);
  });

  it('resolves the abbreviation, record, locales and logos of every demo co-brand', async () => {
    const client = new TestClient(ctx.app);
    const demo = JSON.parse(
      readFileSync(path.join(import.meta.dirname, '../demo/cobrands.json'), 'utf8'),
    ) as {
      name: string;
      abbreviation: string;
    }[];
    expect(demo.length).toBeGreaterThanOrEqual(12);
    for (const { name, abbreviation } of demo) {
      expect(
        (await client.get(`/sdportal/rest/cobrandhostabbreviation?cobrandAbbr=${abbreviation}`)).body,
      ).toBe(name);
      expect((await client.get(`/sdportal/rest/cobrand/${name}`)).statusCode).toBe(200);
      expect((await client.get(`/sdportal/rest/cobrands/${name}/locales`)).statusCode).toBe(200);
      const logos = await Promise.all(
        ['png', 'jpg', 'gif'].map((ext) =>
          client.request({
            method: 'HEAD',
            url: `/sdportal/portalstatic/assets/images/logos/${name}.${ext}`,
          }),
        ),
      );
      expect(
        logos.filter((r) => r.statusCode === 200),
        name,
      ).toHaveLength(1);
      const footers = await Promise.all(
        ['png', 'jpg', 'gif'].map((ext) =>
          client.request({
            method: 'HEAD',
            url: `/sdportal/portalstatic/assets/images/footers/${abbreviation}.${ext}`,
          }),
        ),
      );
      expect(
        footers.filter((r) => r.statusCode === 200),
        abbreviation,
      ).toHaveLength(1);
    }
  });

  it('serves logos with HEAD support so the portal can discover the extension', async () => {
    const client = new TestClient(ctx.app);
    const base = '/sdportal/portalstatic/assets/images/logos/cardportal';
    const found: string[] = [];
    for (const ext of ['png', 'jpg', 'gif']) {
      const res = await client.request({ method: 'HEAD', url: `${base}.${ext}` });
      if (res.statusCode === 200) {
        found.push(ext);
        expect(res.headers['content-type']).toMatch(/^image\//);
        expect(res.headers.etag).toBeDefined();
        expect(res.body).toBe('');
      } else expect(res.statusCode).toBe(404);
    }
    expect(found).toHaveLength(1);
    const get = await client.get(`${base}.${found[0]}`);
    expect(get.statusCode).toBe(200);
    expect(get.rawPayload.length).toBeGreaterThan(100);
    const footer = await client.request({
      method: 'HEAD',
      url: '/sdportal/portalstatic/assets/images/footers/../../logos/cardportal.png',
    });
    expect(footer.statusCode).toBe(404);
  });
});

describe('text bundles (DESIGN §4)', () => {
  it('serves PortalLabels and Messages for all 23 locales', async () => {
    const client = new TestClient(ctx.app);
    for (const locale of SUPPORTED_LOCALES) {
      for (const name of ['PortalLabels', 'Messages']) {
        const res = await client.get(`/sdportal/portalstatic/assets/i18n/${locale}/${name}.json`);
        expect(res.statusCode, `${locale}/${name}`).toBe(200);
        expect(typeof res.json()).toBe('object');
        expect(res.headers.etag).toBeDefined();
      }
    }
  });

  it("serves the application's namespaces, cut from both bundles by key (docs/text.md)", async () => {
    const client = new TestClient(ctx.app);
    const all = {
      ...ctx.app.texts.get('ru', 'Messages').texts,
      ...ctx.app.texts.get('ru', 'PortalLabels').texts,
    };
    const served: Record<string, string> = {};
    for (const namespace of APP_TEXT_NAMESPACES) {
      const res = await client.get(`/sdportal/portalstatic/assets/i18n/ru/app-${namespace}.json`);
      expect(res.statusCode, namespace).toBe(200);
      expect(res.headers.etag).toBeDefined();
      const texts = res.json() as Record<string, string>;
      for (const [key, text] of Object.entries(texts)) {
        expect(textNamespaceOf(key), key).toBe(namespace);
        served[key] = text;
      }
    }
    // Every application text once; none of the portal's own (sign-in, mails).
    expect(served).toEqual(Object.fromEntries(Object.entries(all).filter(([key]) => textNamespaceOf(key))));
    expect(served['validation.requiredField']).toBe(all['validation.requiredField']);
    expect(served['signin.heading']).toBeUndefined();
    // Russian's four plural forms, and no English ones laid under them.
    expect(
      Object.keys(served)
        .filter((k) => k.startsWith('app.people.search.count'))
        .sort(),
    ).toEqual([
      'app.people.search.count_few',
      'app.people.search.count_many',
      'app.people.search.count_one',
      'app.people.search.count_other',
    ]);
    const ja = ctx.app.texts.namespace('ja', 'people').texts;
    expect(Object.keys(ja).filter((k) => k.startsWith('app.people.search.count'))).toEqual([
      'app.people.search.count_other',
    ]);
  });

  it('answers 404 for an unsupported locale or bundle', async () => {
    const client = new TestClient(ctx.app);
    for (const url of [
      'xx/PortalLabels.json',
      'en_US/Secrets.json',
      '..%2F..%2Fpackage.json/Messages.json',
      'en_US/PortalLabels.txt',
      'en_US/app-secrets.json',
      'en_US/shell.json',
      'en_US/app-shell.txt',
    ]) {
      expect((await client.get(`/sdportal/portalstatic/assets/i18n/${url}`)).statusCode).toBe(404);
    }
  });
});

describe('portal calls', () => {
  it('answers the change-password service URLs as same-origin paths', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/rest/changepasswordserviceurls');
    const urls = res.json();
    expect(Object.keys(urls).sort()).toEqual(['autoLogout', 'cancelPasswordReset', 'changePassword']);
    for (const url of Object.values(urls)) expect(String(url)).toMatch(/^\/[^/]/);
  });

  it('stores a client error statement without echoing it, and refuses oversized or empty ones', async () => {
    const client = new TestClient(ctx.app);
    const marker = `boom-${Date.now()}`;
    const res = await client.request({
      method: 'PUT',
      url: '/sdportal/rest/log/logErrorStatement.json',
      payload: JSON.stringify(`${marker}\n\u001b[31mforged`),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const rows = await ctx.app.db
      .select()
      .from(clientLogs)
      .where(sql`${clientLogs.message} like ${`${marker}%`}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.message.includes('\n') || rows[0]?.message.includes('\u001b')).toBe(false);
    const big = await client.request({
      method: 'PUT',
      url: '/sdportal/rest/log/logErrorStatement.json',
      payload: JSON.stringify('x'.repeat(10_000)),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.statusCode).toBe(413);
    const empty = await client.request({
      method: 'PUT',
      url: '/sdportal/rest/log/logErrorStatement.json',
      payload: JSON.stringify({ nope: 1 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('answers the logout labels and the external logout URL', async () => {
    const client = new TestClient(ctx.app);
    const labels = (
      await client.get('/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?cobrandHost=banconorte')
    ).json();
    expect(labels.cobrandHostInfo).toBe('banconorte');
    expect(labels['ng.you.have.been.logged.out']).toBeTypeOf('string');
    expect(labels['ng.return.to.login.screen']).toBeTypeOf('string');
    expect(labels).toHaveProperty('fssoLogoutUrl');
    expect((await client.get('/sdportal/rest/logoutrest/externalLogoutUrl')).body).toBe('/heracles/logout');
  });

  it('answers the logout labels in the page locale, not the user_locale cookie (issue 22)', async () => {
    const client = new TestClient(ctx.app);
    client.cookies.set('user_locale', 'de');
    const url = '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?cobrandHost=cardportal';
    const ja = (await client.get(`${url}&locale=ja`)).json();
    expect(ja['ng.you.have.been.logged.out']).toBe(
      ctx.app.texts.text('ja', 'PortalLabels', 'logout.loggedOut'),
    );
    expect(ja['ng.return.to.login.screen']).toBe(
      ctx.app.texts.text('ja', 'PortalLabels', 'logout.returnToLogin'),
    );
    const de = (await client.get(url)).json();
    expect(de['ng.you.have.been.logged.out']).toBe(
      ctx.app.texts.text('de', 'PortalLabels', 'logout.loggedOut'),
    );
    expect(de['ng.you.have.been.logged.out']).not.toBe(ja['ng.you.have.been.logged.out']);
  });

  it('reports liveness and readiness', async () => {
    const client = new TestClient(ctx.app);
    expect((await client.get('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await client.get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().database).toBe('ok');
    if (ctx.config.redisUrl) expect(ready.json().redis).toBe('ok');
  });

  it('redirects / to the sign-in screen, keeping the query', async () => {
    const res = await new TestClient(ctx.app).get('/?cobrandHost=banconorte');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/sdportal/portalstatic/signin?cobrandHost=banconorte');
  });

  it('sends the application to the sign-in screen without a full session', async () => {
    const res = await new TestClient(ctx.app).get('/app/');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^\/sdportal\/portalstatic\/signin/);
    expect((await new TestClient(ctx.app).get('/app/api/me')).statusCode).toBe(401);
  });

  it('sends security headers', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/rest/cobrand/cardportal');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});

describe('bad input gets a clear 4xx', () => {
  it('answers unknown paths, wrong media types and oversized bodies with JSON errors', async () => {
    const client = new TestClient(ctx.app);
    const unknown = await client.get('/sdportal/rest/nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found');
    const media = await client.request({
      method: 'POST',
      url: '/sdportal/rest/user/loginSignin',
      payload: '<userId>x</userId>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(media.statusCode).toBe(415);
    expect(media.json()).toHaveProperty('message');
    const big = await client.request({
      method: 'POST',
      url: '/heracles/login',
      payload: `username=a&password=${'x'.repeat(20_000)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(big.statusCode).toBe(413);
  });

  it('treats a very long password as a failed attempt, never a 5xx', async () => {
    const res = await new TestClient(ctx.app).login('bncuser01', 'p'.repeat(5000));
    expect(res.statusCode).toBe(401);
  });

  it('never answers 5xx to odd values in the query', async () => {
    const client = new TestClient(ctx.app);
    for (const url of [
      '/sdportal/rest/cobrandhostabbreviation?cobrandAbbr=%00',
      '/sdportal/rest/cobrandhostabbreviation?cobrandAbbr=a&cobrandAbbr=b',
      '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?cobrandHost=%3Cscript%3E',
      '/sdportal/portalstatic/assets/images/logos/%2e%2e%2fsecret.png',
      '/app/?cobrandHost[]=x',
    ]) {
      const res = await client.get(url);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });
});
