/**
 * Fuzzing (fast-check): every endpoint is driven with random and malformed methods, paths, query
 * strings, headers, cookies, bodies, encodings and sizes, with and without a valid session and CSRF
 * token, through app.inject and through a real socket. No answer may be a 5xx (the database is up, so
 * 503 counts too), no request may hang, the process must not die, the API's error answers are JSON with
 * a message, and the log — captured at the most verbose level the product accepts — must never carry a
 * password, PIN, passcode, security answer or session id the fuzzer sent (the test greps for them).
 */
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { checkPasswordConstruction } from '@cardportal/domain';
import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/db/schema.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/demo/load.ts';
import { composeMail } from '../../src/modules/mail/mail-text.ts';
import { assignToken } from '../../src/modules/token/soft-token.ts';
import { createUser, findUserByUserId, unlockUser } from '../../src/modules/users/users.ts';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../src/security/sessions.ts';
import { startTestApp, TestClient, type TestContext } from '../harness.ts';
import { routesOf } from '../support/routes.ts';

// ---------------------------------------------------------------------------------------------------
// What the fuzzer sent that must never reach the log.

/** Unique per run, so a value from an earlier run can never explain a match. */
const SALT = randomBytes(8).toString('hex');
const digest = (s: string) => createHash('sha256').update(`${SALT}:${s}`).digest();
/**
 * A secret of a shape nothing else produces: `Sx` + 16 hex digits (letters and digits, 18 characters,
 * so it also passes the password construction rules now and then and reaches the deeper checks).
 */
const secretOf = (n: number | string) => `Sx${digest(`secret:${n}`).toString('hex').slice(0, 16)}`;
const SECRET_PATTERN = /Sx[0-9a-f]{16}/g;
/** A well-formed session id (43 base64url characters) that no server issued. */
const sessionIdOf = (n: number) => digest(`sid:${n}`).toString('base64url');

const sentSecrets = new Set<string>([DEMO_PASSWORD]);
const sentSessionIds = new Set<string>();

function noteSecretsIn(text: string | undefined): void {
  for (const m of text?.match(SECRET_PATTERN) ?? []) sentSecrets.add(m);
}
function noteSessionId(value: string | undefined): void {
  if (value && /^[A-Za-z0-9_-]{20,}$/.test(value)) sentSessionIds.add(value);
}

/** A secret that also passes the password construction rules (no character three times in a row). */
function conformingSecret(label: string): string {
  for (let i = 0; ; i++) {
    const candidate = secretOf(`${label}:${i}`);
    if (checkPasswordConstruction(candidate, 'fuzzuser01').length === 0) return candidate;
  }
}
const FUZZ_PASSWORD = conformingSecret('password');
const FUZZ_ANSWER = secretOf('answer');
sentSecrets.add(FUZZ_PASSWORD).add(FUZZ_ANSWER);

// ---------------------------------------------------------------------------------------------------
// The app under test, its log and its fixtures.

let ctx: TestContext;
let log = '';
const logStream = new Writable({
  write(chunk, _encoding, callback) {
    log += chunk.toString();
    callback();
  },
});
const crashes: unknown[] = [];
const onCrash = (error: unknown) => crashes.push(error);

/** Users the fuzzer may lock, expire and change at will; reset before every run. */
const FUZZ_USERS = {
  pwd: 'fuzzpwd01',
  otp: 'fuzzotp01',
  token: 'fuzztok01',
  expired: 'fuzzexp01',
  locked: 'fuzzlock01',
  /** A system administrator: the application's administration endpoints answer it in full. */
  admin: 'fuzzadm01',
} as const;
type FuzzUserKey = keyof typeof FUZZ_USERS;
const userPk: Partial<Record<FuzzUserKey, number>> = {};
let tokenLdapId = '';
let fuzzPasswordHash = '';

const DEMO_IDS = DEMO_USERS.map((u) => u.userId);

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  // 'trace' is the most verbose level LOG_LEVEL accepts: nothing the product can be run at logs more.
  ctx = await startTestApp({ LOG_LEVEL: 'trace' }, { logStream });
  const db = ctx.app.db;
  for (const [key, userId] of Object.entries(FUZZ_USERS) as [FuzzUserKey, string][]) {
    const row = await createUser(db, {
      userId,
      email: `${userId}@example.com`,
      firstName: 'Fuzz',
      lastName: key,
      password: FUZZ_PASSWORD,
      answer: FUZZ_ANSWER,
      cobrand: 'cardportal',
      firstLogin: false,
      loginType: key === 'otp' ? 'otp-2fa' : key === 'token' ? 'token' : 'pwd',
      userType: key === 'admin' ? 'Z' : 'A',
      expired: key === 'expired',
      status: key === 'locked' ? 'Locked' : 'Active',
    });
    userPk[key] = row.id;
    fuzzPasswordHash = row.passwordHash;
    if (key === 'token') {
      tokenLdapId = row.ldapId;
      await assignToken(db, ctx.app.secrets, row);
    }
  }
}, 120_000);

afterAll(async () => {
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
  await ctx?.close();
});

/** Puts the fuzz users back in their starting state (the fuzzer locks them and changes passwords). */
async function resetFuzzUsers(): Promise<void> {
  const active = [FUZZ_USERS.pwd, FUZZ_USERS.otp, FUZZ_USERS.token, FUZZ_USERS.expired, FUZZ_USERS.admin];
  await ctx.app.db
    .update(users)
    .set({
      status: 'Active',
      failedAttempts: 0,
      lockedAt: null,
      lockReason: null,
      passwordHash: fuzzPasswordHash,
      passwordTemporary: false,
    })
    .where(inArray(users.userId, active));
  await ctx.app.db
    .update(users)
    .set({ passwordExpiresAt: new Date(Date.now() - 60_000) })
    .where(inArray(users.userId, [FUZZ_USERS.expired]));
}

// ---------------------------------------------------------------------------------------------------
// Routes: every one the modules register (a test below checks the list against the router).

interface Route {
  template: string;
  methods: string[];
}
const GET = ['GET', 'HEAD'];
const ROUTES: Route[] = [
  { template: '/', methods: GET },
  { template: '/healthz', methods: GET },
  { template: '/readyz', methods: GET },
  { template: '/heracles/login', methods: ['POST'] },
  { template: '/heracles/logout', methods: GET },
  { template: '/sdportal/rest/cobrand/:name', methods: GET },
  { template: '/sdportal/rest/cobrands/:name/locales', methods: GET },
  { template: '/sdportal/rest/cobrandhostabbreviation', methods: GET },
  { template: '/sdportal/rest/csrf', methods: GET },
  { template: '/sdportal/rest/changepasswordserviceurls', methods: GET },
  { template: '/sdportal/rest/user/loginSignin', methods: ['POST'] },
  { template: '/sdportal/rest/registration/cardholder', methods: ['POST'] },
  { template: '/sdportal/rest/registration/company', methods: ['POST'] },
  { template: '/sdportal/rest/registration/card-application', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/card-applications', methods: GET },
  { template: '/app/api/org/companies/:number/card-applications/:id', methods: GET },
  { template: '/app/api/org/companies/:number/card-applications/:id/approve', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/card-applications/:id/decline', methods: ['POST'] },
  { template: '/app/api/org/issuers/:number/company-registrations', methods: [...GET, 'POST'] },
  { template: '/app/api/org/issuers/:number/company-registrations/:id', methods: [...GET, 'DELETE'] },
  { template: '/app/api/org/issuers/:number/company-registrations/:id/approve', methods: ['POST'] },
  { template: '/app/api/org/issuers/:number/company-registrations/:id/decline', methods: ['POST'] },
  { template: '/app/api/org/issuers/:number/company-registrations/:id/unlock', methods: ['POST'] },
  { template: '/sdportal/sso/:key', methods: GET },
  { template: '/sdportal/sso/:key/callback', methods: GET },
  { template: '/sdportal/sso/:key/logout', methods: GET },
  { template: '/sdportal/sso/:key/signed-out', methods: GET },
  { template: '/sdportal/sso/:key/acs', methods: ['POST'] },
  { template: '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink', methods: GET },
  { template: '/sdportal/rest/logoutrest/externalLogoutUrl', methods: GET },
  { template: '/sdportal/rest/log/logErrorStatement.json', methods: ['PUT'] },
  { template: '/sdportal/rest/rsapin/information', methods: GET },
  { template: '/sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json', methods: GET },
  { template: '/sdportal/rest/sessionExpire/pingPortal.json', methods: GET },
  { template: '/sdportal/portalstatic', methods: GET },
  { template: '/sdportal/portalstatic/', methods: GET },
  { template: '/sdportal/portalstatic/assets/images/logos/:file', methods: GET },
  { template: '/sdportal/portalstatic/assets/images/footers/:file', methods: GET },
  { template: '/sdportal/portalstatic/assets/i18n/:locale/:file', methods: GET },
  { template: '/sdportal/portalstatic/assets/*', methods: GET },
  { template: '/sdportal/portalstatic/theme/:file', methods: GET },
  { template: '/sdportal/portalstatic/*', methods: GET },
  { template: '/services/authentication-service/protected/one-time-pins', methods: ['POST'] },
  { template: '/services/authentication-service/public/forgotPassword', methods: ['POST'] },
  { template: '/services/authentication-service/public/changePassword', methods: ['POST'] },
  { template: '/services/twofactortoken-service/protected/tokens/:ldapId', methods: ['POST'] },
  { template: '/cpae/public/users/securityquestions', methods: ['POST'] },
  { template: '/app', methods: GET },
  { template: '/app/', methods: GET },
  { template: '/app/api/me', methods: GET },
  { template: '/app/api/openapi.json', methods: GET },
  { template: '/app/api/users', methods: [...GET, 'POST'] },
  { template: '/app/api/users.csv', methods: [...GET] },
  { template: '/app/api/users/bulk', methods: ['POST'] },
  { template: '/app/api/users/:userId', methods: [...GET, 'PATCH'] },
  { template: '/app/api/users/:userId/status', methods: ['PUT'] },
  { template: '/app/api/users/:userId/unlock', methods: ['POST'] },
  { template: '/app/api/users/:userId/roles', methods: [...GET, 'PUT'] },
  { template: '/app/api/users/:userId/link', methods: [...GET, 'DELETE'] },
  { template: '/app/api/roles', methods: [...GET, 'POST'] },
  { template: '/app/api/roles/:id', methods: ['PATCH'] },
  { template: '/app/api/multi-user/links', methods: ['POST'] },
  { template: '/app/api/multi-user/confirm', methods: ['POST'] },
  { template: '/app/api/multi-user/choose', methods: ['POST'] },
  { template: '/app/api/access-as', methods: ['POST'] },
  { template: '/app/api/access-as/return', methods: ['POST'] },
  { template: '/app/api/audit', methods: GET },
  { template: '/app/api/audit/export', methods: GET },
  { template: '/app/api/org/companies', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number', methods: [...GET, 'PATCH', 'DELETE'] },
  { template: '/app/api/org/companies/:number/status', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/org-points', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number/org-points.xlsx', methods: GET },
  { template: '/app/api/org/companies/:number/org-points/upload', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/org-points/:point', methods: ['PATCH', 'DELETE'] },
  { template: '/app/api/org/companies/:number/org-points/:point/status', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/cardholders', methods: GET },
  { template: '/app/api/org/companies/:number/cardholders/:id', methods: [...GET, 'PATCH'] },
  { template: '/app/api/org/companies/:number/cardholders/:id/status', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/accounts', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number/accounts/:id', methods: GET },
  { template: '/app/api/org/companies/:number/accounts/:id/status', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/accounts/:id/group', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/accounts/bulk-move', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/accounts/:id/registration-unlock', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/self-registration', methods: [...GET, 'PUT'] },
  { template: '/app/api/org/companies/:number/account-groups', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number/account-groups/:id', methods: ['PATCH'] },
  { template: '/app/api/org/companies/:number/account-groups/:id/status', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/real-cards', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number/accounting-codes', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number/accounting-codes/:id/values.csv', methods: GET },
  { template: '/app/api/org/companies/:number/accounting-codes/:id/values.xlsx', methods: GET },
  { template: '/app/api/org/companies/:number/accounting-codes/:id/values/upload', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/accounting-subsets', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number/expense-settings', methods: [...GET] },
  { template: '/app/api/org/companies/:number/expense-settings/policy', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/expense-settings/types', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/expense-settings/types/:id', methods: ['PUT', 'DELETE'] },
  { template: '/app/api/org/companies/:number/expense-settings/mileage-rates', methods: ['POST'] },
  {
    template: '/app/api/org/companies/:number/expense-settings/mileage-rates/:id',
    methods: ['PUT', 'DELETE'],
  },
  { template: '/app/api/org/companies/:number/expense-settings/tax-rates', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/expense-settings/tax-rates/:id', methods: ['PUT', 'DELETE'] },
  { template: '/app/api/org/companies/:number/expense-settings/approval-profiles', methods: ['POST'] },
  {
    template: '/app/api/org/companies/:number/expense-settings/approval-profiles/:id',
    methods: ['PUT', 'DELETE'],
  },
  { template: '/app/api/org/companies/:number/expense-settings/approval-thresholds', methods: ['POST'] },
  {
    template: '/app/api/org/companies/:number/expense-settings/approval-thresholds/:id',
    methods: ['DELETE'],
  },
  { template: '/app/api/my/expense-reports', methods: [...GET, 'POST'] },
  { template: '/app/api/my/expense-transactions', methods: GET },
  { template: '/app/api/expense-approvals', methods: GET },
  { template: '/app/api/org/companies/:number/expense-reports', methods: GET },
  { template: '/app/api/expense-reports/:id', methods: [...GET, 'PUT', 'DELETE'] },
  { template: '/app/api/expense-reports/:id/lines', methods: ['POST'] },
  { template: '/app/api/expense-reports/:id/lines/:line', methods: ['PUT', 'DELETE'] },
  { template: '/app/api/expense-reports/:id/lines/:line/receipt', methods: [...GET, 'PUT', 'DELETE'] },
  { template: '/app/api/expense-reports/:id/submit', methods: ['POST'] },
  { template: '/app/api/expense-reports/:id/approve', methods: ['POST'] },
  { template: '/app/api/expense-reports/:id/send-back', methods: ['POST'] },
  { template: '/app/api/expense-reports/:id/reroute', methods: ['POST'] },
  { template: '/app/api/org/companies/:number/custom-fields', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number/custom-fields/:id', methods: ['PUT', 'DELETE'] },
  { template: '/app/api/transactions/:id/custom-fields', methods: [...GET, 'PUT'] },
  { template: '/app/api/org/companies/:number/accounting-subsets/:id', methods: ['PUT', 'DELETE'] },
  { template: '/app/api/org/companies/:number/accounting-schemes', methods: [...GET, 'POST'] },
  { template: '/app/api/org/companies/:number/accounting-schemes/:id', methods: ['PUT', 'DELETE'] },
  { template: '/app/api/org/companies/:number/accounting-groups', methods: GET },
  { template: '/app/api/org/companies/:number/accounting-groups/:id', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/accounts/:id/coding', methods: [...GET, 'PUT'] },
  { template: '/app/api/org/companies/:number/accounting-codes/:id', methods: ['PATCH', 'DELETE'] },
  { template: '/app/api/org/companies/:number/accounting-codes/:id/values', methods: [...GET, 'POST'] },
  {
    template: '/app/api/org/companies/:number/accounting-codes/:id/values/:valueId',
    methods: ['PATCH', 'DELETE'],
  },
  { template: '/app/api/org/companies/:number/real-cards.csv', methods: [...GET] },
  { template: '/app/api/org/companies/:number/cardholders.csv', methods: [...GET] },
  { template: '/app/api/org/companies/:number/accounts.csv', methods: [...GET] },
  { template: '/app/api/org/companies.csv', methods: [...GET] },
  { template: '/app/api/org/companies/:number/real-cards/:id', methods: [...GET, 'PATCH', 'DELETE'] },
  { template: '/app/api/org/companies/:number/real-cards/:id/status', methods: ['PUT'] },
  { template: '/app/api/my/cards', methods: GET },
  { template: '/app/api/transactions', methods: GET },
  { template: '/app/api/transactions/spend', methods: GET },
  { template: '/app/api/transactions/:id', methods: GET },
  { template: '/app/api/transactions/import', methods: ['POST'] },
  { template: '/app/api/transactions/:id/review', methods: ['POST'] },
  { template: '/app/api/transactions/:id/approve', methods: ['POST'] },
  { template: '/app/api/transactions/:id/lock', methods: ['POST'] },
  { template: '/app/api/transactions/:id/split', methods: ['POST'] },
  { template: '/app/api/transactions/:id/allocation', methods: [...GET, 'PUT'] },
  { template: '/app/api/transactions/:id/allocation/values', methods: GET },
  { template: '/app/api/transactions/mass-allocations', methods: [...GET, 'POST'] },
  { template: '/app/api/transactions/mass-allocations/:id/undo', methods: ['POST'] },
  { template: '/app/api/transactions/:id/unsplit', methods: ['POST'] },
  { template: '/app/api/transactions/:id/dispute', methods: ['POST'] },
  { template: '/app/api/transactions/:id/dispute-reasons', methods: GET },
  { template: '/app/api/transactions/exports', methods: [...GET, 'POST'] },
  { template: '/app/api/transactions/exports/:id/file', methods: GET },
  ...['dispute-reasons', 'account-status-codes', 'maintenance-reasons'].flatMap((list) => [
    { template: `/app/api/org/issuers/:number/${list}`, methods: [...GET, 'POST'] },
    { template: `/app/api/org/issuers/:number/${list}/:code`, methods: ['PUT', 'DELETE'] },
  ]),
  { template: '/app/api/org/companies/:number/cardholders/:id/reasons', methods: ['PUT'] },
  { template: '/app/api/org/companies/:number/program-options', methods: [...GET, 'PUT'] },
  { template: '/app/api/org/issuers', methods: [...GET, 'POST'] },
  { template: '/app/api/org/issuers.csv', methods: [...GET] },
  { template: '/app/api/org/issuers/:number', methods: [...GET, 'PATCH', 'DELETE'] },
  { template: '/app/api/org/issuers/:number/status', methods: ['PUT'] },
  { template: '/app/api/org/issuers/:number/company-groups', methods: [...GET, 'POST'] },
  { template: '/app/api/org/issuers/:number/company-groups/:id', methods: ['PATCH'] },
  { template: '/app/api/org/issuers/:number/company-groups/:id/status', methods: ['PUT'] },
  { template: '/app/api/org/issuers/:number/program-options', methods: [...GET, 'PUT'] },
  { template: '/app/api/org/issuer-groups', methods: [...GET, 'POST'] },
  { template: '/app/api/org/issuer-groups/:id', methods: ['PATCH'] },
  { template: '/app/api/org/issuer-groups/:id/status', methods: ['PUT'] },
  { template: '/app/api/profile', methods: GET },
  { template: '/app/api/profile/language', methods: ['PUT'] },
  { template: '/app/api/profile/challenge-question', methods: ['PUT'] },
  { template: '/app/api/profile/two-factor', methods: ['PUT'] },
  { template: '/app/api/profile/soft-token', methods: ['POST'] },
  { template: '/app/api/*', methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] },
  { template: '/app/assets/*', methods: GET },
  { template: '/app/*', methods: GET },
];
/**
 * The portal's credential calls, driven hardest by the focused properties (their coverage is checked
 * below); the application API's writes are fuzzed through ROUTES with the other properties.
 */
const POST_ROUTES = ROUTES.filter(
  (r) => (r.methods.includes('POST') || r.methods.includes('PUT')) && !r.template.startsWith('/app/api/'),
);
/** Answers on these paths are the JSON API: every error is JSON with a message. */
const API_PREFIXES = ['/sdportal/rest/', '/services/', '/cpae/', '/app/api/'];

// ---------------------------------------------------------------------------------------------------
// Arbitraries.

const LDAP = '@LDAP@';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const ODD_METHODS = ['PROPFIND', 'TRACE', 'SEARCH', 'LOCK', 'MKCOL', 'COPY', 'REPORT'];

const PERCENT_GARBAGE = [
  '%',
  '%%',
  '%zz',
  '%0',
  '%00',
  '%c0%af',
  '%ff',
  '%fe%ff',
  '%E0%A4%A',
  '%ed%a0%80',
  '%2e%2e',
  '%2F',
  '..',
  '.',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%5c..%5c',
  ';',
  'a;b=c',
  '~',
  '%u0041',
  '\u00e9',
  '\u{1F600}',
];

const binaryText = (maxLength: number) => fc.string({ unit: 'binary', maxLength });

const segmentArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'banconorte',
      'cardportal',
      'bnc',
      'en_US',
      'es',
      'de_DE',
      'PortalLabels.json',
      'Messages.json',
      'cardportal.png',
      'bnc.png',
      'banconorte.gif',
      'signin',
      'otp',
      'locked',
      'new-pin',
      'assets',
      'me',
      'profile',
      'index.html',
      'x.js',
      'x.js.gz',
      LDAP,
      LDAP,
    ),
  },
  { weight: 2, arbitrary: fc.webSegment() },
  { weight: 2, arbitrary: binaryText(24).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.constantFrom(...PERCENT_GARBAGE) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 400 }).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.constant('') },
);

function pathArb(route: Route): fc.Arbitrary<string> {
  const parts = route.template.split('/');
  return fc
    .tuple(
      fc.array(segmentArb, { minLength: parts.length, maxLength: parts.length }),
      fc.array(segmentArb, { minLength: 0, maxLength: 4 }),
      fc.constantFrom('', '', '', '/', '//'),
    )
    .map(([values, wild, tail]) => {
      const out = parts.map((p, i) => (p.startsWith(':') ? (values[i] ?? 'x') : p));
      const joined = out.join('/');
      return joined.endsWith('*') ? joined.slice(0, -1) + wild.join('/') : joined + tail;
    });
}

const userIdArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...Object.values(FUZZ_USERS)) },
  { weight: 1, arbitrary: fc.constantFrom(...DEMO_IDS) },
  { weight: 1, arbitrary: fc.constantFrom('  FUZZPWD01 ', 'FuzzOtp01', 'fuzz\u0000pwd01', 'fuzzpwd01\n') },
  { weight: 2, arbitrary: fc.nat().map((n) => `fz${n}unknown`) },
  { weight: 2, arbitrary: binaryText(80) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 5000 }).map((n) => 'u'.repeat(n)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

const secretArb = fc.nat().map(secretOf);
/** A credential field: mostly a recognisable secret, sometimes garbage of any type or size. */
const credentialArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: secretArb },
  { weight: 1, arbitrary: fc.constant(FUZZ_PASSWORD) },
  { weight: 1, arbitrary: secretArb.map((s) => ` ${s}\u0000\u{1F600}`) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => `${secretOf(n)}${'p'.repeat(n)}`),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '0000', '1234', '123456', '12345678') },
);
const answerArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: secretArb },
  { weight: 1, arbitrary: fc.constant(FUZZ_ANSWER) },
  { weight: 1, arbitrary: fc.constant(` ${FUZZ_ANSWER.toUpperCase()} `) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const textFieldArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('cardportal', 'banconorte', 'en_US', 'es', 'fr_CA', 'xx', ''),
  binaryText(40),
  fc.jsonValue({ maxDepth: 2 }),
);

/** The fields the credential endpoints read, each optional, each fuzzed. */
const credentialBagArb = fc.record(
  {
    userId: userIdArb,
    username: userIdArb,
    password: credentialArb,
    'login-form-type': fc.oneof(
      fc.constantFrom('password', 'otp', 'token', 'next-token', 'PASSWORD', ''),
      binaryText(10),
    ),
    cobrandHost: textFieldArb,
    cobrandName: textFieldArb,
    locale: textFieldArb,
    securityQuestion: fc.oneof(
      fc.record(
        {
          questionId: fc.oneof(
            { weight: 3, arbitrary: fc.constant('q1') },
            fc.constantFrom('q2', 'q3', 'q99', ''),
            binaryText(30),
            fc.jsonValue(),
          ),
          questionResponse: answerArb,
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    oldCredential: credentialArb,
    newCredential: credentialArb,
    newPin: credentialArb,
    confirmPin: credentialArb,
    message: fc.oneof(binaryText(200), secretArb),
  },
  { requiredKeys: [] },
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json;charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset="utf-8"; foo=bar',
  'application/json;;;charset=',
  'APPLICATION/JSON',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'text/plain',
  'text/plain; charset=ascii',
  'text/html',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  'application/json-patch+json',
  'garbage',
  '',
  ';',
  '/',
  'application/',
];
const contentTypeArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: binaryText(40) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

interface Body {
  payload?: string | Buffer;
  contentType?: string;
  contentEncoding?: string;
  /** Plain text before any compression: scanned for the secrets it carries. */
  source?: string;
}

/**
 * Text of any generated value: JSON where it has one (objects without a prototype have no toString),
 * else its string form (a bigint has no JSON).
 */
function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function formEncode(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return asText(value);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>))
        params.append(`${k}[${k2}]`, asText(v2));
    } else params.append(k, asText(v));
  }
  return params.toString();
}

const deepNesting = fc
  .tuple(fc.integer({ min: 10, max: 5000 }), fc.constantFrom('[', '{"a":'), fc.boolean())
  .map(([depth, open, closed]): Body => {
    const close = open === '[' ? ']' : '}';
    return {
      payload: open.repeat(depth) + (closed ? `1${close.repeat(depth)}` : ''),
      contentType: 'application/json',
    };
  });

const PROTO_BODIES: Body[] = [
  { payload: '{"__proto__":{"polluted":"yes"},"userId":"fuzzpwd01"}', contentType: 'application/json' },
  { payload: '{"constructor":{"prototype":{"polluted":"yes"}}}', contentType: 'application/json' },
  { payload: '{"userId":{"__proto__":{"polluted":"yes"}}}', contentType: 'application/json' },
  { payload: '__proto__[polluted]=yes&username=fuzzpwd01', contentType: 'application/x-www-form-urlencoded' },
  {
    payload: 'constructor[prototype][polluted]=yes&__proto__=x',
    contentType: 'application/x-www-form-urlencoded',
  },
  { payload: '{"toString":"x","valueOf":1,"hasOwnProperty":null}', contentType: 'application/json' },
];

const INVALID_UTF8: number[][] = [
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xfe, 0xff, 0x00, 0x7b],
  [0x00],
];

const SIZES = [8 * 1024 - 64, 8 * 1024 + 1, 16 * 1024, 32 * 1024 - 32, 32 * 1024 + 1, 100_000, 1_100_000];

const bodyArb: fc.Arbitrary<Body> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(credentialBagArb, fc.constantFrom('json', 'form', 'json', 'form'), contentTypeArb, fc.nat(3))
      .map(([bag, encoding, otherType, mismatch]): Body => {
        const payload = encoding === 'json' ? JSON.stringify(bag) : formEncode(bag);
        const contentType =
          mismatch === 0
            ? otherType
            : encoding === 'json'
              ? 'application/json'
              : 'application/x-www-form-urlencoded';
        return { payload, contentType };
      }),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.jsonValue({ maxDepth: 5 }), contentTypeArb)
      .map(([v, contentType]) => ({ payload: JSON.stringify(v) ?? 'null', contentType })),
  },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_BODIES) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.uint8Array({ maxLength: 300 }), contentTypeArb)
      .map(([bytes, contentType]) => ({ payload: Buffer.from(bytes), contentType })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...INVALID_UTF8), secretArb, fc.constantFrom('userId', 'password', 'newPin'))
      .map(([bad, secret, field]): Body => {
        const payload = Buffer.concat([
          Buffer.from(`{"${field}":"${secret}`),
          Buffer.from(bad),
          Buffer.from('"}'),
        ]);
        return { payload, contentType: 'application/json; charset=utf-8' };
      }),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(credentialBagArb, fc.nat()).map(([bag, cut]): Body => {
      const json = JSON.stringify(bag);
      return { payload: json.slice(0, cut % (json.length + 1)), contentType: 'application/json' };
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...SIZES), fc.constantFrom('json', 'form', 'text'), secretArb)
      .map(([size, kind, secret]): Body => {
        const filler = 'x'.repeat(size);
        if (kind === 'json')
          return {
            payload: `{"password":"${secret}","message":"${filler}"}`,
            contentType: 'application/json',
          };
        if (kind === 'form')
          return {
            payload: `username=fuzzpwd01&password=${secret}&x=${filler}`,
            contentType: 'application/x-www-form-urlencoded',
          };
        return { payload: filler, contentType: 'text/plain' };
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        credentialBagArb,
        fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-garbage', 'gzip, gzip'),
      )
      .map(([bag, encoding]): Body => {
        const json = JSON.stringify(bag);
        return {
          payload: encoding === 'gzip' ? gzipSync(json) : json,
          source: json,
          contentType: 'application/json',
          contentEncoding: encoding,
        };
      }),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(secretArb, fc.boolean()).map(
      ([secret, closed]): Body => ({
        payload: `--xyz\r\nContent-Disposition: form-data; name="password"\r\n\r\n${secret}\r\n${closed ? '--xyz--\r\n' : ''}`,
        contentType: 'multipart/form-data; boundary=xyz',
      }),
    ),
  },
  { weight: 1, arbitrary: fc.constant<Body>({}) },
);

const queryValueArb = fc.oneof(
  fc.constantFrom('cardportal', 'banconorte', 'bnc', 'es', 'en_US', 'newpin', 'nexttoken', ''),
  fc.constantFrom(
    '2026-02-30',
    '2026-10-01',
    '1e309',
    '-0',
    '99999999999999999999.99',
    'JPY',
    'xau',
    '0',
    '9999999999',
  ),
  fc.constantFrom(...PERCENT_GARBAGE),
  binaryText(30).map(encodeURIComponent),
  fc.integer({ min: 100, max: 3000 }).map((n) => 'q'.repeat(n)),
);
const queryArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom('cobrandHost', 'locale', 'action', 'cobrandAbbr', 'delivery', 'cobrandAbbr[]'),
            // The Transaction Summary's filters and position.
            fc.constantFrom(
              'from',
              'to',
              'min',
              'max',
              'currency',
              'page',
              'after',
              'before',
              'account',
              'mcc',
              'q',
            ),
            fc.constantFrom('__proto__', 'constructor[prototype][polluted]', '__proto__[polluted]'),
            fc.webSegment(),
          ),
          queryValueArb,
        ),
        { maxLength: 6 },
      )
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?',
      '?&&&',
      '?=',
      '?%',
      '?a=%zz',
      '?cobrandHost=%00',
      '?cobrandHost=cardportal&cobrandHost=banconorte',
      '?action=newpin&action=nexttoken',
      '?cobrandAbbr=bnc&cobrandAbbr=bnc',
      '?locale=%ff%fe',
      '?#fragment',
    ),
  },
  // A client that puts a credential in the query string (a GET form post before the script loaded).
  {
    weight: 1,
    arbitrary: fc
      .tuple(secretArb, fc.constantFrom('password', 'newPin', 'questionResponse', 'newCredential'))
      .map(([secret, name]) => `?username=fuzzpwd01&${name}=${secret}&login-form-type=password`),
  },
);

type CsrfChoice = 'valid' | 'none' | 'garbage' | 'other-session' | 'empty' | 'duplicate' | 'split';
const csrfArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant<CsrfChoice>('valid') },
  {
    weight: 3,
    arbitrary: fc.constantFrom<CsrfChoice>('none', 'garbage', 'other-session', 'empty', 'duplicate', 'split'),
  },
);

type SessionChoice =
  | { kind: 'none' }
  | { kind: 'anonymous' }
  | { kind: 'forged' }
  | {
      kind: 'stage';
      stage: string;
      user: FuzzUserKey;
      expired: boolean;
      passcodeVerified: boolean;
      resends: number;
    };
const STAGE_USER: Record<string, FuzzUserKey> = {
  full: 'pwd',
  otp: 'otp',
  'change-password': 'expired',
  'new-pin': 'token',
  'next-token': 'token',
};
const STAGES = ['full', 'otp', 'change-password', 'new-pin', 'next-token'];
/** The stages whose sessions a route serves: the focused property mostly brings one of these. */
const ROUTE_STAGES: Record<string, string[]> = {
  '/heracles/login': ['otp', 'new-pin', 'next-token'],
  '/services/authentication-service/protected/one-time-pins': ['otp'],
  '/services/authentication-service/public/changePassword': ['change-password', 'full'],
  '/services/twofactortoken-service/protected/tokens/:ldapId': ['new-pin'],
};

function sessionArb(preferred: string[] = []): fc.Arbitrary<SessionChoice> {
  const stageArb =
    preferred.length > 0
      ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...preferred) }, fc.constantFrom(...STAGES))
      : fc.constantFrom(...STAGES);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<SessionChoice>({ kind: 'none' }) },
    { weight: 1, arbitrary: fc.constant<SessionChoice>({ kind: 'anonymous' }) },
    { weight: 1, arbitrary: fc.constant<SessionChoice>({ kind: 'forged' }) },
    {
      weight: preferred.length > 0 ? 9 : 5,
      arbitrary: fc
        .record({
          stage: stageArb,
          matching: fc.nat(4),
          other: fc.constantFrom<FuzzUserKey>('pwd', 'otp', 'token', 'expired', 'locked', 'admin'),
          expired: fc.nat(9).map((n) => n === 0),
          passcodeVerified: fc.nat(3).map((n) => n > 0),
          resends: fc.nat(7),
        })
        .map(
          (s): SessionChoice => ({
            kind: 'stage',
            stage: s.stage,
            // A full session is a cardholder's or, half the time, the system administrator's.
            user:
              s.matching > 0
                ? s.stage === 'full' && s.matching % 2 === 0
                  ? 'admin'
                  : (STAGE_USER[s.stage] ?? 'pwd')
                : s.other,
            expired: s.expired,
            passcodeVerified: s.passcodeVerified,
            resends: s.resends,
          }),
        ),
    },
  );
}

const cookieValueArb = fc.oneof(
  fc.nat().map(sessionIdOf),
  secretArb,
  fc.constantFrom(...PERCENT_GARBAGE),
  binaryText(30),
  fc.constantFrom('"unclosed', '""', '=', ';', 'a=b=c', 'en_US', 'es', 'true', 'deleted'),
  fc.integer({ min: 1000, max: 6000 }).map((n) => 'c'.repeat(n)),
);
const extraCookiesArb = fc.array(
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom(SESSION_COOKIE, CSRF_COOKIE, 'user_locale', 'ssoUserCookie', 'XSRF-TOKEN'),
        fc.webSegment(),
        fc.constantFrom('', ' ', '$Version', '__proto__', 'constructor'),
      ),
      cookieValueArb,
    )
    .map(([name, value]) => `${name}=${value}`),
  { maxLength: 4 },
);

const headerTextArb = fc.oneof(
  binaryText(60),
  fc.constantFrom('\u0000', 'a\u0000b', '\u001b[31m', 'x\r\ny: z', '\u00ff\u00fe', '\ud800'),
  fc.constantFrom(...PERCENT_GARBAGE),
  fc.integer({ min: 1000, max: 8000 }).map((n) => 'h'.repeat(n)),
);
const headersArb = fc.record(
  {
    'accept-language': fc.oneof(
      fc.constantFrom('es', 'en-US,en;q=0.9', 'zz', '*', 'de-DE;q=abc', ';;;,,,'),
      headerTextArb,
    ),
    accept: fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*', 'image/*', 'x'), headerTextArb),
    origin: fc.oneof(
      fc.constantFrom('http://127.0.0.1:8080', 'http://localhost:80', 'https://evil.example', 'null', ''),
      headerTextArb,
    ),
    referer: headerTextArb,
    'user-agent': headerTextArb,
    'if-none-match': fc.oneof(fc.constantFrom('*', '""', 'W/"x"', ',,,'), headerTextArb),
    'if-modified-since': fc.oneof(
      fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday'),
      headerTextArb,
    ),
    range: fc.constantFrom('bytes=0-10', 'bytes=-1', 'bytes=999999-', 'bytes=5-1', 'bytes=a-b', 'lines=1-2'),
    'x-forwarded-for': headerTextArb,
    'x-forwarded-proto': fc.constantFrom('https', 'http', 'gopher'),
    host: fc.oneof(fc.constantFrom('127.0.0.1:8080', 'evil.example', '[::1]', ':::', ''), headerTextArb),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'gzip, deflate, br', 'identity;q=0', '*;q=0', 'x'),
    'x-requested-with': fc.constantFrom('XMLHttpRequest', ''),
  },
  { requiredKeys: [] },
);

interface FuzzRequest {
  template: string;
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: Body;
  session: SessionChoice;
  csrf: CsrfChoice;
  cookies: string[];
  cookieSeparator: string;
}

/** The template with the values a real client puts in its parameters (the fuzz token's LDAP id). */
function naturalPath(template: string): string {
  const values: Record<string, string> = {
    ':name': 'cardportal',
    ':ldapId': LDAP,
    ':locale': 'en_US',
    ':file': 'Messages.json',
    ':userId': 'active01',
    ':number': '100001',
    ':point': 'A000',
    ':key': 'acme-idp',
  };
  return template
    .split('/')
    .map((p) => values[p] ?? p)
    .join('/')
    .replace(/\*$/, 'signin');
}

/** Headers a browser on our own origin sends: lets the focused property reach the handlers. */
const benignHeadersArb = fc.record(
  {
    'accept-language': fc.constantFrom('es', 'en-US,en;q=0.9', 'de-DE', 'zz', '*'),
    accept: fc.constantFrom('application/json', 'text/plain, */*', '*/*'),
    origin: fc.constant('http://localhost:80'),
    'user-agent': fc.constantFrom('Mozilla/5.0', 'curl/8', 'nul\u0000agent', 'esc\u001b[2J\r\nforged: line'),
    'x-requested-with': fc.constant('XMLHttpRequest'),
  },
  { requiredKeys: [] },
);

/** A structured body in the encoding the route expects (form for /heracles/login, JSON elsewhere). */
function expectedBodyArb(route: Route): fc.Arbitrary<Body> {
  const form = route.template === '/heracles/login';
  return credentialBagArb.map(
    (bag): Body =>
      form
        ? { payload: formEncode(bag), contentType: 'application/x-www-form-urlencoded' }
        : { payload: JSON.stringify(bag), contentType: 'application/json' },
  );
}

/**
 * One request on one of `routes`. `wild`: anything goes (most requests die at the CSRF check, the
 * router or the body parser, which is the point). `focused`: mostly what the portal would send —
 * the route's method, a well-formed body and a same-origin CSRF token — with fuzzed values, so the
 * requests reach the handlers; now and then a hostile header, cookie or body all the same.
 */
function requestArb(routes: Route[], mode: 'wild' | 'focused'): fc.Arbitrary<FuzzRequest> {
  const focused = mode === 'focused';
  return fc.constantFrom(...routes).chain((route) =>
    fc.record({
      template: fc.constant(route.template),
      method: focused
        ? fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...route.methods) }, fc.constantFrom(...METHODS))
        : fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...route.methods) },
            { weight: 4, arbitrary: fc.constantFrom(...METHODS) },
            { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
          ),
      path: fc.oneof(
        { weight: focused ? 8 : 2, arbitrary: fc.constant(naturalPath(route.template)) },
        { weight: 2, arbitrary: pathArb(route) },
      ),
      query: focused ? fc.oneof({ weight: 3, arbitrary: fc.constant('') }, queryArb) : queryArb,
      headers: focused ? fc.oneof({ weight: 4, arbitrary: benignHeadersArb }, headersArb) : headersArb,
      body: focused ? fc.oneof({ weight: 4, arbitrary: expectedBodyArb(route) }, bodyArb) : bodyArb,
      session: sessionArb(focused ? ROUTE_STAGES[route.template] : []),
      csrf: focused ? fc.oneof({ weight: 6, arbitrary: fc.constant<CsrfChoice>('valid') }, csrfArb) : csrfArb,
      cookies: focused
        ? fc.oneof({ weight: 4, arbitrary: fc.constant<string[]>([]) }, extraCookiesArb)
        : extraCookiesArb,
      cookieSeparator: focused ? fc.constant('; ') : fc.constantFrom('; ', ';', ' ; ', ', '),
    }),
  );
}

// ---------------------------------------------------------------------------------------------------
// Firing a request and checking the answer.

const TIMEOUT_MS = 15_000;

async function withTimeout<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`hung for ${TIMEOUT_MS} ms: ${what}`)), TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A session row straight in the database: a known id in any stage, without going through sign-in. */
async function makeSession(choice: Extract<SessionChoice, { kind: 'stage' }>): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  noteSessionId(id);
  const now = Date.now();
  await ctx.app.db.insert(sessions).values({
    idHash: createHash('sha256').update(id).digest('hex'),
    userPk: userPk[choice.user] as number,
    stage: choice.stage,
    cobrand: 'cardportal',
    locale: 'en_US',
    sso: false,
    data:
      choice.stage === 'new-pin'
        ? { passcodeVerified: choice.passcodeVerified }
        : choice.stage === 'otp'
          ? { resends: choice.resends }
          : {},
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
    expiresAt: new Date(choice.expired ? now - 1000 : now + 300_000),
  });
  return id;
}

function cookiesOf(res: LightMyRequestResponse): { name: string; value: string }[] {
  return res.cookies as { name: string; value: string }[];
}

interface Fired {
  req: FuzzRequest;
  url: string;
  res: LightMyRequestResponse;
}

/** The session id a request carries (a database row for a stage session), or none. */
async function sessionIdFor(choice: SessionChoice): Promise<string | undefined> {
  let sessionId: string | undefined;
  if (choice.kind === 'stage') sessionId = await makeSession(choice);
  else if (choice.kind === 'anonymous') sessionId = randomBytes(32).toString('base64url');
  else if (choice.kind === 'forged') sessionId = sessionIdOf(randomBytes(4).readUInt32LE());
  noteSessionId(sessionId);
  return sessionId;
}

/** A plain POST, for the checks of requests built by hand. */
const burstRequest: FuzzRequest = {
  template: '',
  method: 'POST',
  path: '',
  query: '',
  headers: {},
  body: {},
  session: { kind: 'anonymous' },
  csrf: 'valid',
  cookies: [],
  cookieSeparator: '; ',
};

interface FireOptions {
  /** One session for several requests (instead of the request's own). */
  shared?: { sessionId: string | undefined };
  /** Another app than the main one (its own database: only session-less requests). */
  app?: FastifyInstance;
  ip?: string;
}

async function fire(
  req: FuzzRequest,
  { shared, app = ctx.app, ip = '127.0.0.1' }: FireOptions = {},
): Promise<Fired> {
  const sessionId = shared ? shared.sessionId : await sessionIdFor(req.session);
  const token = sessionId ? app.sessions.csrfTokenFor(sessionId) : undefined;

  const cookieParts: string[] = [];
  if (sessionId) cookieParts.push(`${SESSION_COOKIE}=${sessionId}`);
  if (token && req.csrf !== 'none') cookieParts.push(`${CSRF_COOKIE}=${token}`);
  cookieParts.push(...req.cookies);
  for (const c of req.cookies) {
    const [name, value] = c.split(/=(.*)/s);
    if (name?.trim() === SESSION_COOKIE) noteSessionId(value);
    noteSecretsIn(value);
  }

  const headers: Record<string, string | string[]> = { ...req.headers };
  if (cookieParts.length > 0) headers.cookie = cookieParts.join(req.cookieSeparator);
  const other = app.sessions.csrfTokenFor(randomBytes(32).toString('base64url'));
  const csrfHeader: Record<CsrfChoice, string | string[] | undefined> = {
    valid: token,
    none: undefined,
    garbage: 'x'.repeat(20),
    'other-session': other,
    empty: '',
    duplicate: token ? [token, token] : undefined,
    split: token ? [token, other] : undefined,
  };
  const csrf = csrfHeader[req.csrf];
  if (csrf !== undefined) {
    headers['x-csrf-token'] = csrf;
    if (req.csrf !== 'split') headers['x-xsrf-token'] = Array.isArray(csrf) ? (csrf[0] ?? '') : csrf;
  }
  if (req.body.contentType !== undefined) headers['content-type'] = req.body.contentType;
  if (req.body.contentEncoding !== undefined) headers['content-encoding'] = req.body.contentEncoding;

  const payload = req.body.payload;
  noteSecretsIn(req.body.source);
  noteSecretsIn(typeof payload === 'string' ? payload : payload?.toString('latin1'));
  const url = (req.path.replaceAll(LDAP, tokenLdapId) || '/') + req.query;
  noteSecretsIn(url);

  const options: InjectOptions = {
    method: req.method as InjectOptions['method'],
    url,
    headers,
    remoteAddress: ip,
    ...(payload !== undefined ? { payload } : {}),
  };
  const res = await withTimeout(`${req.method} ${url}`, app.inject(options));
  for (const c of cookiesOf(res)) if (c.name === SESSION_COOKIE) noteSessionId(c.value);
  return { req, url, res };
}

/** How the fuzzed requests were answered, by route template and status: shows they reach the handlers. */
const tally = new Map<string, number>();

function check({ req, url, res }: Fired): void {
  const code = res.statusCode >= 400 ? (/"code":"([^"]{1,40})"/.exec(res.body)?.[1] ?? '') : '';
  const key = `${req.template} ${req.method} ${res.statusCode} ${code}`;
  tally.set(key, (tally.get(key) ?? 0) + 1);
  const where = `${req.method} ${url.slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeGreaterThanOrEqual(100);
  expect(res.statusCode, where).toBeLessThan(500);
  const path = url.split('?')[0] ?? '';
  if (res.statusCode >= 400 && API_PREFIXES.some((p) => path.startsWith(p))) {
    expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
    if (req.method !== 'HEAD') {
      let body: { message?: unknown } = {};
      try {
        body = JSON.parse(res.body) as { message?: unknown };
      } catch {
        expect.fail(`not JSON: ${where}`);
      }
      expect(typeof body.message, where).toBe('string');
    }
  }
}

async function fireAndCheck(req: FuzzRequest): Promise<void> {
  check(await fire(req));
}

/** fast-check's own random seed; on failure it prints the seed, the path and the shrunk counterexample. */
function fuzzOptions<T extends unknown[]>(numRuns: number): fc.Parameters<T> {
  return { numRuns, verbose: 1 };
}

// ---------------------------------------------------------------------------------------------------
// The properties.

describe('fuzzing every endpoint (issue: no 5xx, no crash, no secret in the log)', () => {
  it('fuzzes every route the router knows', () => {
    const found = routesOf(ctx.app).map((r) => r.path);
    expect(found.length).toBeGreaterThan(20);
    const known = new Set(ROUTES.map((r) => r.template));
    expect(found.filter((p) => !known.has(p))).toEqual([]);
  });

  it('answers every random request on every route below 500, JSON errors on the API', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb(ROUTES, 'wild'), async (req) => {
        await resetFuzzUsers();
        await fireAndCheck(req);
      }),
      fuzzOptions(300),
    );
  }, 120_000);

  it('drives the credential endpoints with sessions in every stage and fuzzed credentials', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb(POST_ROUTES, 'focused'), async (req) => {
        await resetFuzzUsers();
        await fireAndCheck(req);
      }),
      fuzzOptions(300),
    );
  }, 120_000);

  it('drives every route with natural parameters, sessions in every stage and fuzzed values', async () => {
    // Four focused requests on each route rather than 200 on routes drawn at random: every handler is
    // reached each run (a route drawn rarely left the coverage check below to chance).
    for (const route of ROUTES) {
      await fc.assert(
        fc.asyncProperty(requestArb([route], 'focused'), async (req) => {
          await resetFuzzUsers();
          await fireAndCheck(req);
        }),
        fuzzOptions(4),
      );
    }
  }, 120_000);

  it('answers concurrent requests of one session (double submits, racing stage changes) below 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(requestArb(POST_ROUTES, 'focused'), { minLength: 2, maxLength: 8 }),
        sessionArb(['otp', 'new-pin', 'next-token', 'change-password', 'full']),
        async (reqs, session) => {
          await resetFuzzUsers();
          const shared = { sessionId: await sessionIdFor(session) };
          const fired = await Promise.all(reqs.map((req) => fire(req, { shared })));
          for (const f of fired) check(f);
        },
      ),
      fuzzOptions(60),
    );
  }, 120_000);

  it("with the product's rate limits on, answers 429 JSON rather than 5xx (Redis-backed in server-postgres)", async () => {
    const limited = await startTestApp({ LOG_LEVEL: 'trace', RATE_LIMITS: 'on' }, { logStream });
    let rateLimited = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(requestArb(ROUTES, 'wild'), requestArb(POST_ROUTES, 'focused')),
          fc.constantFrom('127.0.0.1', '127.0.0.1', '10.1.2.3', '::1', '::ffff:198.51.100.4'),
          fc.boolean(),
          // Bursts, so that the per-route, per-user and per-address limits are all reached.
          fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, fc.integer({ min: 2, max: 40 })),
          async (req, ip, anonymous, burst) => {
            // This app has no fuzz users: an anonymous session (CSRF passes) or none.
            const shared = { sessionId: anonymous ? randomBytes(32).toString('base64url') : undefined };
            noteSessionId(shared.sessionId);
            for (let i = 0; i < burst; i++) {
              const fired = await fire(req, { shared, app: limited.app, ip });
              check(fired);
              if (fired.res.statusCode === 429 && fired.res.body.includes('rate.limited')) rateLimited++;
            }
          },
        ),
        fuzzOptions(150),
      );
      // However the dice fell, a burst on one route from one address ends in 429s, checked like the rest.
      const sessionId = randomBytes(32).toString('base64url');
      noteSessionId(sessionId);
      const token = limited.app.sessions.csrfTokenFor(sessionId);
      for (let i = 0; i < 15; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/services/authentication-service/protected/one-time-pins',
          headers: {
            cookie: `${SESSION_COOKIE}=${sessionId}; ${CSRF_COOKIE}=${token}`,
            'x-csrf-token': token,
            'content-type': 'application/json',
          },
          payload: '{}',
          remoteAddress: '192.0.2.1',
        });
        const template = '/services/authentication-service/protected/one-time-pins';
        check({ req: { ...burstRequest, template, path: template }, url: template, res });
        if (res.statusCode === 429 && res.body.includes('rate.limited')) rateLimited++;
      }
      expect(rateLimited).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  }, 120_000);

  it('survives garbage on the socket: raw request lines, headers and bodies', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const printable = (maxLength: number) => fc.string({ unit: 'grapheme-ascii', maxLength });
    // Mostly well-formed requests with one thing wrong, so that the bytes reach the parser's deeper
    // states and, often enough, the app itself (valid CSRF token included now and then).
    const rawArb = fc.record({
      method: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...METHODS, 'POST', 'POST') },
        fc.constantFrom(...ODD_METHODS, 'get', 'BREW', 'P OST'),
        binaryText(8),
      ),
      path: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...ROUTES.map((r) => naturalPath(r.template))) },
        fc.constantFrom(
          '*',
          '',
          'http://evil.example/',
          '/a b',
          '/\u0000',
          '/%00',
          '//',
          '/../../etc/passwd',
        ),
        binaryText(40),
      ),
      version: fc.oneof(
        { weight: 6, arbitrary: fc.constant('HTTP/1.1') },
        fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1x', ''),
      ),
      sessionId: fc.nat().map(sessionIdOf),
      validCsrf: fc.boolean(),
      secret: secretArb,
      headers: fc.array(
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc.tuple(
              fc.constantFrom(
                'Accept',
                'Accept-Language',
                'User-Agent',
                'X-Requested-With',
                'Origin',
                'Expect',
              ),
              printable(40),
            ),
          },
          fc.tuple(
            fc.oneof(
              fc.constantFrom(
                'Content-Type',
                'Content-Length',
                'Transfer-Encoding',
                'Cookie',
                'Host',
                'Expect',
              ),
              binaryText(12),
            ),
            fc.oneof(
              binaryText(40),
              fc.constantFrom('chunked', '-1', '99999999999', '0x10', 'gzip', 'a\rb', 'a\nb', '100-continue'),
            ),
          ),
        ),
        { maxLength: 3 },
      ),
      framing: fc.constantFrom(
        'exact',
        'exact',
        'short',
        'long',
        'none',
        'chunked',
        'chunked-bad',
        'huge-header',
      ),
      body: fc.oneof(
        binaryText(200),
        fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
      ),
    });
    try {
      await fc.assert(
        fc.asyncProperty(rawArb, async (r) => {
          noteSessionId(r.sessionId);
          noteSecretsIn(r.secret);
          const body = `username=fuzzpwd01&password=${r.secret}&${r.body}`;
          const token = r.validCsrf ? ctx.app.sessions.csrfTokenFor(r.sessionId) : 'x';
          const lines = [
            `${r.method} ${r.path} ${r.version}`.trimEnd(),
            'Host: 127.0.0.1',
            `Cookie: ${SESSION_COOKIE}=${r.sessionId}; ${CSRF_COOKIE}=${token}`,
            `X-CSRF-TOKEN: ${token}`,
            'Content-Type: application/x-www-form-urlencoded',
            ...r.headers.map(([k, v]) => `${k}: ${v}`),
          ];
          const bodyBytes = Buffer.from(body, 'latin1');
          if (r.framing === 'exact') lines.push(`Content-Length: ${bodyBytes.length}`);
          if (r.framing === 'short') lines.push(`Content-Length: ${Math.max(0, bodyBytes.length - 5)}`);
          if (r.framing === 'long') lines.push(`Content-Length: ${bodyBytes.length + 50}`);
          if (r.framing.startsWith('chunked')) lines.push('Transfer-Encoding: chunked');
          if (r.framing === 'huge-header') lines.push(`X-Big: ${'b'.repeat(20_000)}`);
          const framed =
            r.framing === 'chunked'
              ? Buffer.concat([
                  Buffer.from(`${bodyBytes.length.toString(16)}\r\n`),
                  bodyBytes,
                  Buffer.from('\r\n0\r\n\r\n'),
                ])
              : r.framing === 'chunked-bad'
                ? Buffer.concat([Buffer.from('zz\r\n'), bodyBytes])
                : bodyBytes;
          const raw = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), framed]);
          const answer = await rawExchange(Number(port), raw);
          const statuses = [...answer.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
          for (const status of statuses) {
            tally.set(`raw ${status}`, (tally.get(`raw ${status}`) ?? 0) + 1);
            expect(status, answer.slice(0, 300)).toBeLessThan(500);
          }
          if (statuses.length === 0) tally.set('raw none', (tally.get('raw none') ?? 0) + 1);
        }),
        { numRuns: 150, verbose: 1 },
      );
      // The server still answers over the socket.
      const health = await rawExchange(Number(port), Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
      expect(health).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      await new Promise<void>((resolve) => ctx.app.server.close(() => resolve()));
    }
  }, 120_000);

  it('still works afterwards: health, a real sign-in, no secret or session id in the log', async () => {
    expect(crashes).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');

    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);

    // The fuzzer may have locked demo users with wrong passwords: that is the product working.
    const active = await findUserByUserId(ctx.app.db, 'active01');
    if (active)
      await ctx.app.db.transaction((tx) =>
        unlockUser(tx, active, (user, password, inTx) =>
          composeMail(ctx.app, 'temporary-password', user, user, [password], inTx),
        ),
      );
    await resetFuzzUsers();
    const client = new TestClient(ctx.app);
    const signIn = await client.login('active01', DEMO_PASSWORD);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.body).toBe('/app/');
    noteSessionId(client.cookies.get(SESSION_COOKIE));
    expect((await client.get('/app/api/me')).statusCode).toBe(200);

    // Calls that succeed, so the success paths' log lines are checked too.
    const expired = new TestClient(ctx.app);
    expect((await expired.login(FUZZ_USERS.expired, FUZZ_PASSWORD)).body).toMatch(/change-password/);
    noteSessionId(expired.cookies.get(SESSION_COOKIE));
    const newPassword = conformingSecret('new-password');
    noteSecretsIn(newPassword);
    const changed = await expired.postJson('/services/authentication-service/public/changePassword', {
      userId: FUZZ_USERS.expired,
      oldCredential: FUZZ_PASSWORD,
      newCredential: newPassword,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    noteSessionId(expired.cookies.get(SESSION_COOKIE));

    const forgot = await new TestClient(ctx.app).postJson(
      '/services/authentication-service/public/forgotPassword',
      { userId: FUZZ_USERS.pwd, securityQuestion: { questionId: 'q1', questionResponse: FUZZ_ANSWER } },
    );
    expect(forgot.statusCode, forgot.body).toBe(200);

    const otp = new TestClient(ctx.app);
    expect((await otp.login(FUZZ_USERS.otp, FUZZ_PASSWORD)).body).toMatch(/otp/);
    noteSessionId(otp.cookies.get(SESSION_COOKIE));
    const wrongCode = secretOf('otp');
    noteSecretsIn(wrongCode);
    const wrong = await otp.login('', wrongCode, { 'login-form-type': 'otp' });
    // A wrong code sends the portal back to the OTP screen with its error shown.
    expect(wrong.statusCode, wrong.body).toBe(200);
    expect(wrong.body).toMatch(/otp\?.*error=true/);

    expect((await client.get('/heracles/logout')).statusCode).toBe(200);

    // The log: not empty (so this check can fail), and free of everything the fuzzer sent as a secret.
    expect(log.length).toBeGreaterThan(0);
    expect(log).toMatch(/"msg":"incoming request"/);
    expect(log).toMatch(/"msg":"request completed"/);
    // Buffers are logged as byte arrays: decode them, so bytes of a raw request count as text too.
    const decoded = [...log.matchAll(/"data":\[([\d,]+)\]/g)]
      .map((m) => Buffer.from((m[1] ?? '').split(',').map(Number)).toString('latin1'))
      .join('\n');
    const haystack = `${log}\n${decoded}`.toLowerCase();
    const lines = `${log}\n${decoded}`.split('\n');
    const leaks: string[] = [];
    for (const value of [...sentSecrets, ...sentSessionIds]) {
      if (haystack.includes(value.toLowerCase())) {
        const line = lines.find((l) => l.toLowerCase().includes(value.toLowerCase())) ?? '';
        leaks.push(`${value} in: ${line.slice(0, 400)}`);
      }
    }
    expect(sentSecrets.size).toBeGreaterThan(100);
    expect(sentSessionIds.size).toBeGreaterThan(100);
    expect(leaks.slice(0, 10)).toEqual([]);
    // The fuzzed requests reached the handlers, not only the CSRF check, the router and the parsers.
    const reached = (pattern: RegExp) => [...tally.keys()].some((k) => pattern.test(k));
    for (const pattern of [
      /^\/heracles\/login POST 401/,
      /^\/sdportal\/rest\/user\/loginSignin POST 200/,
      /^\/cpae\/public\/users\/securityquestions POST 200/,
      /^\/services\/authentication-service\/public\/forgotPassword POST 400 (question|answer)/,
      /^\/services\/authentication-service\/public\/changePassword POST 400 [a-z]/,
      /^\/services\/authentication-service\/protected\/one-time-pins POST 200/,
      /^\/services\/twofactortoken-service\/protected\/tokens\/:ldapId POST 400 pin\.invalid/,
      /^\/sdportal\/rest\/log\/logErrorStatement\.json PUT 204/,
      /^\/app\/api\/me (GET|HEAD) (200|401)/,
      /^\/sdportal\/rest\/cobrand\/:name (GET|HEAD) (200|304)/,
      /^\/sdportal\/portalstatic\/\* (GET|HEAD) 200/,
      /^raw (200|301|302|401|403|404)/,
      /^raw 400/,
    ]) {
      expect(reached(pattern), String(pattern)).toBe(true);
    }
    // FUZZ_STATS=1 prints how every route answered (template, method, status, error code: count).
    if (process.env.FUZZ_STATS)
      console.log(
        [...tally]
          .sort()
          .map(([k, n]) => `${k}\t${n}`)
          .join('\n'),
      );
  }, 60_000);
});

/** Writes raw bytes to the server and collects whatever comes back until it closes (or 3 s pass). */
function rawExchange(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1');
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, 3000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => {
      socket.write(bytes);
      socket.end();
    });
  });
}
