/**
 * Attack suite — cross-site request forgery (DESIGN §5). Every endpoint that takes a non-GET/HEAD method
 * refuses a request whose sec-token is missing, differs from the cookie, was never issued for the
 * session ("unsigned": well-formed but not the server's HMAC of the session id), belongs to another
 * session, or comes from a foreign Origin. The list of endpoints is read from the router, so a new
 * state-changing endpoint cannot escape this test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TestClient, type TestContext } from '../harness.ts';
import { routesOf } from '../support/routes.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const UNSAFE = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** A concrete URL for a route pattern. */
const urlOf = (pattern: string) => pattern.replace(/:[A-Za-z]+/g, 'x1').replace(/\*$/, 'anything');

describe('CSRF: every state-changing endpoint refuses a forged request (ASVS V4.2.2, V13.2.3)', () => {
  const expected = [
    'POST /heracles/login',
    'POST /sdportal/rest/user/loginSignin',
    'PUT /sdportal/rest/log/logErrorStatement.json',
    'POST /services/authentication-service/protected/one-time-pins',
    'POST /services/authentication-service/public/forgotPassword',
    'POST /services/authentication-service/public/changePassword',
    'POST /services/twofactortoken-service/protected/tokens/:ldapId',
    'POST /cpae/public/users/securityquestions',
    'POST /sdportal/rest/registration/cardholder',
    'POST /sdportal/rest/registration/company',
    'POST /sdportal/rest/registration/card-application',
    'POST /app/api/org/companies/:number/card-applications/:id/approve',
    'POST /app/api/org/companies/:number/card-applications/:id/decline',
    'POST /app/api/org/issuers/:number/company-registrations',
    'DELETE /app/api/org/issuers/:number/company-registrations/:id',
    'POST /app/api/org/issuers/:number/company-registrations/:id/approve',
    'POST /app/api/org/issuers/:number/company-registrations/:id/decline',
    'POST /app/api/org/issuers/:number/company-registrations/:id/unlock',
    'PUT /app/api/org/companies/:number/self-registration',
    'POST /app/api/org/companies/:number/accounts/:id/registration-unlock',
    'POST /app/api/users',
    'POST /app/api/roles',
    'PATCH /app/api/roles/:id',
    'PUT /app/api/users/:userId/roles',
    'DELETE /app/api/users/:userId/link',
    'POST /app/api/multi-user/links',
    'POST /app/api/multi-user/confirm',
    'POST /app/api/multi-user/choose',
    'POST /app/api/access-as',
    'POST /app/api/access-as/return',
    'PATCH /app/api/users/:userId',
    'PUT /app/api/users/:userId/status',
    'POST /app/api/users/:userId/unlock',
    'POST /app/api/users/bulk',
    'POST /app/api/org/companies',
    'PATCH /app/api/org/companies/:number',
    'PUT /app/api/org/companies/:number/status',
    'DELETE /app/api/org/companies/:number',
    'POST /app/api/org/companies/:number/org-points',
    'POST /app/api/org/companies/:number/org-points/upload',
    'PATCH /app/api/org/companies/:number/org-points/:point',
    'PUT /app/api/org/companies/:number/org-points/:point/status',
    'DELETE /app/api/org/companies/:number/org-points/:point',
    'PATCH /app/api/org/companies/:number/cardholders/:id',
    'PUT /app/api/org/companies/:number/cardholders/:id/status',
    'PUT /app/api/org/companies/:number/accounts/:id/status',
    'PUT /app/api/org/companies/:number/accounts/:id/group',
    'POST /app/api/org/companies/:number/accounts/bulk-move',
    'POST /app/api/org/companies/:number/account-groups',
    'PATCH /app/api/org/companies/:number/account-groups/:id',
    'PUT /app/api/org/companies/:number/account-groups/:id/status',
    'POST /app/api/org/companies/:number/real-cards',
    'POST /app/api/org/companies/:number/accounting-codes',
    'POST /app/api/org/companies/:number/accounting-codes/:id/values/upload',
    'POST /app/api/org/companies/:number/accounting-subsets',
    'PUT /app/api/org/companies/:number/expense-settings/policy',
    'POST /app/api/org/companies/:number/expense-settings/types',
    'PUT /app/api/org/companies/:number/expense-settings/types/:id',
    'DELETE /app/api/org/companies/:number/expense-settings/types/:id',
    'POST /app/api/org/companies/:number/expense-settings/mileage-rates',
    'PUT /app/api/org/companies/:number/expense-settings/mileage-rates/:id',
    'DELETE /app/api/org/companies/:number/expense-settings/mileage-rates/:id',
    'POST /app/api/org/companies/:number/expense-settings/tax-rates',
    'PUT /app/api/org/companies/:number/expense-settings/tax-rates/:id',
    'DELETE /app/api/org/companies/:number/expense-settings/tax-rates/:id',
    'POST /app/api/org/companies/:number/expense-settings/approval-profiles',
    'PUT /app/api/org/companies/:number/expense-settings/approval-profiles/:id',
    'DELETE /app/api/org/companies/:number/expense-settings/approval-profiles/:id',
    'POST /app/api/org/companies/:number/expense-settings/approval-thresholds',
    'DELETE /app/api/org/companies/:number/expense-settings/approval-thresholds/:id',
    'POST /app/api/my/expense-reports',
    'PUT /app/api/expense-reports/:id',
    'DELETE /app/api/expense-reports/:id',
    'POST /app/api/expense-reports/:id/lines',
    'PUT /app/api/expense-reports/:id/lines/:line',
    'DELETE /app/api/expense-reports/:id/lines/:line',
    'PUT /app/api/expense-reports/:id/lines/:line/receipt',
    'DELETE /app/api/expense-reports/:id/lines/:line/receipt',
    'POST /app/api/expense-reports/:id/submit',
    'POST /app/api/expense-reports/:id/approve',
    'POST /app/api/expense-reports/:id/send-back',
    'POST /app/api/expense-reports/:id/reroute',
    'POST /app/api/org/companies/:number/custom-fields',
    'PUT /app/api/org/companies/:number/custom-fields/:id',
    'DELETE /app/api/org/companies/:number/custom-fields/:id',
    'PUT /app/api/transactions/:id/custom-fields',
    'PUT /app/api/org/companies/:number/accounting-subsets/:id',
    'DELETE /app/api/org/companies/:number/accounting-subsets/:id',
    'POST /app/api/org/companies/:number/accounting-schemes',
    'PUT /app/api/org/companies/:number/accounting-schemes/:id',
    'DELETE /app/api/org/companies/:number/accounting-schemes/:id',
    'PUT /app/api/org/companies/:number/accounting-groups/:id',
    'PUT /app/api/org/companies/:number/accounts/:id/coding',
    'PATCH /app/api/org/companies/:number/accounting-codes/:id',
    'DELETE /app/api/org/companies/:number/accounting-codes/:id',
    'POST /app/api/org/companies/:number/accounting-codes/:id/values',
    'PATCH /app/api/org/companies/:number/accounting-codes/:id/values/:valueId',
    'DELETE /app/api/org/companies/:number/accounting-codes/:id/values/:valueId',
    'PATCH /app/api/org/companies/:number/real-cards/:id',
    'PUT /app/api/org/companies/:number/real-cards/:id/status',
    'DELETE /app/api/org/companies/:number/real-cards/:id',
    'POST /app/api/org/issuers',
    'PATCH /app/api/org/issuers/:number',
    'PUT /app/api/org/issuers/:number/status',
    'DELETE /app/api/org/issuers/:number',
    'POST /app/api/org/issuers/:number/company-groups',
    'PATCH /app/api/org/issuers/:number/company-groups/:id',
    'PUT /app/api/org/issuers/:number/company-groups/:id/status',
    'PUT /app/api/org/issuers/:number/program-options',
    'PUT /app/api/org/companies/:number/program-options',
    'POST /app/api/org/issuer-groups',
    'PATCH /app/api/org/issuer-groups/:id',
    'PUT /app/api/org/issuer-groups/:id/status',
    'PUT /app/api/profile/language',
    'PUT /app/api/profile/challenge-question',
    'PUT /app/api/profile/two-factor',
    'POST /app/api/profile/soft-token',
    'POST /app/api/org/companies/:number/accounts',
    'POST /app/api/transactions/import',
    'POST /app/api/transactions/:id/review',
    'POST /app/api/transactions/:id/approve',
    'POST /app/api/transactions/:id/lock',
    'POST /app/api/transactions/:id/split',
    'PUT /app/api/transactions/:id/allocation',
    'POST /app/api/transactions/mass-allocations',
    'POST /app/api/transactions/mass-allocations/:id/undo',
    'POST /app/api/transactions/:id/unsplit',
    'POST /app/api/transactions/:id/dispute',
    'POST /app/api/transactions/exports',
    ...['dispute-reasons', 'account-status-codes', 'maintenance-reasons'].flatMap((list) => [
      `POST /app/api/org/issuers/:number/${list}`,
      `PUT /app/api/org/issuers/:number/${list}/:code`,
      `DELETE /app/api/org/issuers/:number/${list}/:code`,
    ]),
    'PUT /app/api/org/companies/:number/cardholders/:id/reasons',
  ];

  /**
   * The one exception, by design: a SAML identity provider's response is a cross-site form POST (HTTP-POST
   * binding) that carries no token of ours. It starts no session: it is proven by its signature and the
   * request it answers, and the session starts at the callback only in the browser holding the sign-in's
   * binding cookie (sso-saml.test.ts "another browser").
   */
  const SAML_ASSERTION_CONSUMER = 'POST /sdportal/sso/:key/acs';

  it('knows every endpoint that takes an unsafe method', () => {
    const unsafe = routesOf(ctx.app).flatMap((r) =>
      r.methods.filter((m) => UNSAFE.includes(m)).map((m) => `${m} ${r.path}`),
    );
    expect(unsafe.sort()).toEqual([...expected, SAML_ASSERTION_CONSUMER].sort());
  });

  it('lets a SAML response through to its verification only, which starts no session', async () => {
    const client = new TestClient(ctx.app);
    const res = await client.request({
      method: 'POST',
      url: '/sdportal/sso/nokey/acs',
      payload: 'SAMLResponse=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example' },
      csrf: false,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'sso.unknownProvider' });
  });

  it.each(expected)(
    '%s: missing, wrong, unsigned, foreign-session and foreign-origin tokens get 403',
    async (route) => {
      const [method, pattern] = route.split(' ') as ['POST' | 'PUT' | 'PATCH' | 'DELETE', string];
      const url = urlOf(pattern);
      const form = route.includes('/heracles/login');
      const payload = form ? 'username=active01&password=x' : JSON.stringify({ userId: 'active01' });
      const contentType = form ? 'application/x-www-form-urlencoded' : 'application/json';
      const client = new TestClient(ctx.app, '10.41.0.1');
      await client.get('/sdportal/rest/csrf');
      const token = client.csrf as string;
      const sid = client.cookies.get('cpsid') as string;
      expect(token).toMatch(/^[A-Za-z0-9]{20}$/);
      const other = new TestClient(ctx.app, '10.41.0.2');
      await other.get('/sdportal/rest/csrf');
      const send = (headers: Record<string, string>, cookie = `cpsid=${sid}; sec-token=${token}`) =>
        ctx.app.inject({
          method,
          url,
          payload,
          headers: { 'content-type': contentType, cookie, ...headers },
          remoteAddress: '10.41.0.1',
        });
      const unsigned = 'A'.repeat(20);
      const cases: [string, Awaited<ReturnType<typeof send>>][] = [
        ['missing', await send({})],
        ['wrong header', await send({ 'x-csrf-token': 'B'.repeat(20), 'x-xsrf-token': 'B'.repeat(20) })],
        ['two headers disagreeing', await send({ 'x-csrf-token': token, 'x-xsrf-token': 'B'.repeat(20) })],
        [
          'unsigned (cookie and header agree, but the server never issued it)',
          await send({ 'x-csrf-token': unsigned }, `cpsid=${sid}; sec-token=${unsigned}`),
        ],
        [
          "another session's token",
          await send(
            { 'x-csrf-token': other.csrf as string },
            `cpsid=${sid}; sec-token=${other.csrf as string}`,
          ),
        ],
        ['no session cookie', await send({ 'x-csrf-token': token }, `sec-token=${token}`)],
        ['foreign origin', await send({ 'x-csrf-token': token, origin: 'https://evil.example' })],
        ['null origin', await send({ 'x-csrf-token': token, origin: 'null' })],
        ['look-alike origin', await send({ 'x-csrf-token': token, origin: 'http://127.0.0.1.evil.example' })],
      ];
      for (const [name, res] of cases) {
        expect(res.statusCode, name).toBe(403);
        expect(res.json().code, name).toMatch(/^csrf\./);
      }
      // The genuine token passes the CSRF check (whatever the endpoint then answers).
      const genuine = await send({ 'x-csrf-token': token, 'x-xsrf-token': token });
      expect(genuine.statusCode === 403 && /^csrf\./.test(genuine.json().code)).toBe(false);
    },
  );

  it('refuses unsafe methods on read-only paths too, never changing anything', async () => {
    for (const r of routesOf(ctx.app)) {
      for (const method of UNSAFE) {
        if (r.methods.includes(method)) continue;
        const res = await ctx.app.inject({ method: method as 'POST', url: urlOf(r.path), payload: '{}' });
        expect([403, 404], `${method} ${r.path}`).toContain(res.statusCode);
      }
    }
  });
});
