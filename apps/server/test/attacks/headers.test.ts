/**
 * Attack suite — security headers and cookie attributes (DESIGN §5). A Content-Security-Policy without
 * unsafe-inline or unsafe-eval for scripts and with frame-ancestors 'none'; nosniff; a strict referrer
 * policy; HSTS when served over HTTPS; the session cookie HttpOnly, SameSite=Lax, Secure outside plain
 * HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

let plain: TestContext;
let tls: TestContext;
beforeAll(async () => {
  plain = await startTestApp();
  // Behind a TLS-terminating proxy: the public URL is https.
  tls = await startTestApp({ PUBLIC_URL: 'https://portal.example-bank.test' });
});
afterAll(async () => {
  await plain?.close();
  await tls?.close();
});

const STRICT_REFERRER = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
const SAMPLE = [
  '/sdportal/portalstatic/signin?cobrandHost=cardportal',
  '/sdportal/portalstatic/no-such-screen',
  '/sdportal/rest/cobrand/cardportal',
  '/sdportal/rest/csrf',
  '/app/',
  '/app/api/me',
  '/healthz',
  '/no/such/path',
];

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

interface SetCookie {
  name: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
  path?: string;
}

describe('security headers on every kind of answer (ASVS V14.4)', () => {
  it.each(SAMPLE)('%s', async (url) => {
    const res = await plain.app.inject({ method: 'GET', url });
    const csp = directives(String(res.headers['content-security-policy'] ?? ''));
    const scripts = csp.get('script-src') ?? csp.get('default-src');
    expect(scripts, 'script-src').toBeDefined();
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(scripts?.some((s) => s === '*' || s.startsWith('http:') || s === 'data:')).toBe(false);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(STRICT_REFERRER).toContain(res.headers['referrer-policy']);
    // Plain HTTP on loopback: no HSTS (it would pin a browser to HTTPS on a host without it).
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('sends HSTS for a year with subdomains, and upgrade-insecure-requests, when served over HTTPS', async () => {
    for (const url of SAMPLE) {
      const res = await tls.app.inject({ method: 'GET', url });
      const hsts = String(res.headers['strict-transport-security'] ?? '');
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1]), url).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
      expect(
        directives(String(res.headers['content-security-policy'])).has('upgrade-insecure-requests'),
      ).toBe(true);
    }
  });

  it('never lets credential answers be cached', async () => {
    const client = new TestClient(plain.app);
    const answers = [
      await client.login('active01', DEMO_PASSWORD),
      await client.get('/app/api/me'),
      await client.get('/sdportal/rest/csrf'),
      await client.postJson('/sdportal/rest/user/loginSignin', { userId: 'active01' }),
    ];
    for (const res of answers) expect(res.headers['cache-control']).toMatch(/no-store/);
  });
});

describe('cookie attributes (ASVS V3.4)', () => {
  async function cookiesAfterSignIn(ctx: TestContext): Promise<SetCookie[]> {
    const client = new TestClient(ctx.app);
    const origin = new URL(ctx.config.publicUrl).origin;
    await client.get('/sdportal/rest/csrf');
    const res = await client.request({
      method: 'POST',
      url: '/heracles/login',
      payload: new URLSearchParams({ username: 'admin01', password: DEMO_PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    });
    expect(res.body).toBe('/app/');
    return res.cookies as SetCookie[];
  }

  it('plain HTTP on loopback: session cookie HttpOnly and SameSite=Lax; sec-token readable by the page', async () => {
    const cookies = await cookiesAfterSignIn(plain);
    const session = cookies.find((c) => c.name === 'cpsid');
    const csrf = cookies.find((c) => c.name === 'sec-token');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(csrf?.httpOnly).not.toBe(true);
    expect(csrf?.sameSite).toBe('Lax');
  });

  it('over HTTPS: every cookie also Secure', async () => {
    const cookies = await cookiesAfterSignIn(tls);
    expect(cookies.length).toBeGreaterThanOrEqual(2);
    for (const c of cookies) expect(c.secure, c.name).toBe(true);
    expect(cookies.find((c) => c.name === 'cpsid')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });
});
