import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const portalIndex = path.resolve(import.meta.dirname, '../../portal/dist/index.html');

const preloads = (link: unknown): string[] =>
  String(link ?? '')
    .split(',')
    .filter((part) => part.includes('rel=preload'))
    .map((part) => /<([^>]+)>/.exec(part)?.[1] ?? '');

const localeCookie = (res: { cookies: unknown }) =>
  (
    res.cookies as { name: string; value: string; httpOnly?: boolean; path?: string; sameSite?: string }[]
  ).find((c) => c.name === 'user_locale');

// Page speed (issue 6): the sign-in page's answer carries what the portal's bootstrap would otherwise
// fetch after its script ran (preload links) and the locale cookie it would otherwise reload for.
describe('portal pages: preload links and the locale cookie', () => {
  beforeAll(() => {
    // The pages are the built portal's: npm test builds before it tests.
    if (!existsSync(portalIndex)) throw new Error(`${portalIndex} is missing: run npm run build first`);
  });

  it('preloads the co-brand record, its languages and the text bundles of the locale', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    expect(res.statusCode).toBe(200);
    expect(preloads(res.headers.link)).toEqual([
      '/sdportal/rest/cobrand/banconorte',
      '/sdportal/rest/cobrands/banconorte/locales',
      '/sdportal/portalstatic/assets/i18n/es/PortalLabels.json',
      '/sdportal/portalstatic/assets/i18n/es/Messages.json',
    ]);
    expect(String(res.headers.link)).toContain('as=fetch; crossorigin');
  });

  it('sets a missing locale cookie the way the portal would, so it need not reload', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    const cookie = localeCookie(res);
    expect(cookie).toMatchObject({ value: 'es', path: '/', sameSite: 'Lax' });
    expect(cookie?.httpOnly).toBeFalsy();

    const asked = await new TestClient(ctx.app).get(
      '/sdportal/portalstatic/signin?cobrandHost=banconorte&locale=pt',
    );
    expect(localeCookie(asked)?.value).toBe('pt');
    expect(preloads(asked.headers.link)).toContain('/sdportal/portalstatic/assets/i18n/pt/Messages.json');
  });

  it('rewrites a cookie the co-brand does not offer, and leaves a usable one alone', async () => {
    const client = new TestClient(ctx.app);
    client.cookies.set('user_locale', 'ja');
    const res = await client.get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    expect(localeCookie(res)?.value).toBe('es');

    const kept = new TestClient(ctx.app);
    kept.cookies.set('user_locale', 'pt');
    const again = await kept.get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    expect(localeCookie(again)).toBeUndefined();
    expect(preloads(again.headers.link)).toContain('/sdportal/portalstatic/assets/i18n/pt/PortalLabels.json');
  });

  it('follows an abbreviation and an unknown name to the co-brand the portal will use', async () => {
    const client = new TestClient(ctx.app);
    const abbreviated = await client.get('/sdportal/portalstatic/signin?cobrandHost=bnc');
    expect(preloads(abbreviated.headers.link)[0]).toBe('/sdportal/rest/cobrand/banconorte');
    const unknown = await client.get('/sdportal/portalstatic/signin?cobrandHost=nosuchbank');
    expect(preloads(unknown.headers.link)[0]).toBe('/sdportal/rest/cobrand/cardportal');
  });

  it('does nothing without a valid cobrandHost, nor for an SSO co-brand sign-in', async () => {
    for (const query of ['', '?cobrandHost=%22%3E%3Cscript%3E', '?cobrandHost=harbour-federal']) {
      const res = await new TestClient(ctx.app).get(`/sdportal/portalstatic/signin${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.headers.link, query).toBeUndefined();
      expect(localeCookie(res), query).toBeUndefined();
    }
  });

  it('preloads on the other screens too, but sets the cookie only on sign-in (the spec rule)', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/portalstatic/otp?cobrandHost=banconorte');
    expect(preloads(res.headers.link)).toHaveLength(4);
    expect(localeCookie(res)).toBeUndefined();
  });
});
