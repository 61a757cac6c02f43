/**
 * The authorization matrix (issue 7; STYLE "tested as a matrix"): every /app/api endpoint, read from
 * the router, against no session, a partial session and every user type (the README's demo users),
 * with the expected status. Cross-tenant rows: bncadmin01 (a company administrator of another issuer)
 * gets 404 on Acme's users, never 403, so nothing says they exist. A new endpoint without a row fails.
 *
 * Writes are chosen so that the authorised answer changes nothing (an invalid body → 400, a no-op
 * status → 200, unlocking an unlocked user → 409): the matrix can run every cell in any order.
 *
 * The matrix reads the permission each route declares (the API document's `x-permission`, from its
 * contract) and holds it against the hand-written statuses: a principal the policy refuses that action
 * must be expected — and answered — 403 with the rule's code, before anything about the target is
 * looked at; a principal the policy allows may still be refused by the target's scope or type (404,
 * or 403 for a read-only record), which only the hand-written row says.
 */
import {
  type Action,
  authorize,
  isAction,
  type Permission,
  type Subject,
  type UserType,
} from '@cardportal/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';
import { endpointsUnder } from './support/routes.ts';

const PRINCIPALS = ['none', 'partial', 'A', 'C', 'G', 'H', 'I', 'O', 'S', 'Z', 'otherIssuerC'] as const;
type Principal = (typeof PRINCIPALS)[number];

/** Who signs in as each principal (README demo users). */
const SIGN_IN: Record<Exclude<Principal, 'none'>, string> = {
  partial: 'firstlog01', // first login: a partial session (stage change-password)
  A: 'active01',
  C: 'admin01',
  G: 'cgadmin01',
  H: 'isgadmin01',
  I: 'issadmin01',
  O: 'lvlmgr01',
  S: 'agmgr01',
  Z: 'sysadmin01',
  otherIssuerC: 'bncadmin01',
};

type Expect = Record<Principal, number>;
/** Statuses for the signed-in principals; no session and a partial session always get 401. */
const row = (
  A: number,
  C: number,
  G: number,
  H: number,
  I: number,
  O: number,
  S: number,
  Z: number,
  otherIssuerC: number,
): Expect => ({ none: 401, partial: 401, A, C, G, H, I, O, S, Z, otherIssuerC });

interface Cell {
  /** `METHOD /pattern` as the router names it. */
  endpoint: string;
  /** What this row tries. */
  label: string;
  url: string;
  body?: unknown;
  /** A body of another type than JSON (the reporting-structure upload). */
  raw?: { type: string; payload: Buffer };
  expect: Expect;
}

// active01: Acme cardholder (org point A110 under lvlmgr01's A100, card account in agmgr01's Travel group).
// bncuser01: cardholder of Norte Logística (issuer Banco Norte Demo, same issuer group as Acme's issuer).
const MATRIX: Cell[] = [
  {
    endpoint: 'GET /app/api/openapi.json',
    label: 'the API contract, public (no secret in it: openapi.pglite.test.ts)',
    url: '/app/api/openapi.json',
    expect: { ...row(200, 200, 200, 200, 200, 200, 200, 200, 200), none: 200, partial: 200 },
  },
  {
    endpoint: 'GET /app/api/me',
    label: 'own profile',
    url: '/app/api/me',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'GET /app/api/users',
    label: 'search',
    url: '/app/api/users?q=ada',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'GET /app/api/users.csv',
    label: 'export the search as CSV',
    url: '/app/api/users.csv?q=ada',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'POST /app/api/users/bulk',
    label: 'unlock unknown users (each refused in the answer)',
    url: '/app/api/users/bulk',
    body: { action: 'unlock', userIds: ['nosuch01'] },
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 200),
  },
  {
    endpoint: 'GET /app/api/users/:userId',
    label: 'view an Acme cardholder',
    url: '/app/api/users/active01',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/users/:userId',
    label: 'view a Norte cardholder',
    url: '/app/api/users/bncuser01',
    expect: row(403, 404, 404, 200, 404, 404, 404, 200, 200),
  },
  {
    endpoint: 'GET /app/api/users/:userId',
    label: 'view an unknown user',
    url: '/app/api/users/nobody99',
    expect: row(403, 404, 404, 404, 404, 404, 404, 404, 404),
  },
  {
    endpoint: 'POST /app/api/users',
    label: 'create (invalid user ID: authorised callers get 400)',
    url: '/app/api/users',
    body: {
      userId: 'x',
      email: 'x@example.com',
      emailConfirm: 'x@example.com',
      firstName: 'X',
      lastName: 'Y',
      userType: 'A',
    },
    expect: row(403, 400, 400, 400, 400, 403, 403, 400, 400),
  },
  {
    endpoint: 'PATCH /app/api/users/:userId',
    label: 'edit an Acme cardholder (empty first name: authorised callers get 400)',
    url: '/app/api/users/active01',
    body: { firstName: '' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PATCH /app/api/users/:userId',
    label: 'edit a Norte cardholder',
    url: '/app/api/users/bncuser01',
    body: { firstName: '' },
    expect: row(403, 404, 404, 400, 404, 403, 403, 403, 400),
  },
  {
    endpoint: 'PUT /app/api/users/:userId/status',
    label: 'set an active Acme cardholder Active (no-op)',
    url: '/app/api/users/active01/status',
    body: { status: 'Active' },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/users/:userId/unlock',
    label: 'unlock an Acme cardholder that is not locked',
    url: '/app/api/users/active01/unlock',
    expect: row(403, 409, 409, 409, 409, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/audit',
    label: 'audit trail',
    url: '/app/api/audit',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 200),
  },
  {
    endpoint: 'GET /app/api/audit/export',
    label: 'audit export',
    url: '/app/api/audit/export',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 200),
  },

  // Organisations (docs/organisations.md). Acme = 100001 (issuer 1001, group of cgadmin01), Norte = 200001.
  {
    endpoint: 'GET /app/api/org/companies',
    label: 'list companies in scope',
    url: '/app/api/org/companies',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'GET /app/api/org/companies.csv',
    label: 'export companies in scope as CSV',
    url: '/app/api/org/companies.csv',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'POST /app/api/org/companies',
    label: 'create a company (invalid number: authorised callers get 400)',
    url: '/app/api/org/companies',
    body: { issuerNumber: '1001', number: 'x', name1: 'X' },
    expect: row(403, 403, 403, 400, 400, 403, 403, 400, 403),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number',
    label: 'view Acme',
    url: '/app/api/org/companies/100001',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number',
    label: 'view Norte (another issuer)',
    url: '/app/api/org/companies/200001',
    expect: row(403, 404, 404, 200, 404, 404, 404, 200, 200),
  },
  {
    endpoint: 'PATCH /app/api/org/companies/:number',
    label: 'edit Acme (empty name: authorised callers get 400)',
    url: '/app/api/org/companies/100001',
    body: { name1: '' },
    expect: row(403, 403, 400, 400, 400, 403, 403, 400, 403),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/status',
    label: 'set Acme active (no-op)',
    url: '/app/api/org/companies/100001/status',
    body: { active: true },
    expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number',
    label: 'delete Acme (in use: 409)',
    url: '/app/api/org/companies/100001',
    expect: row(403, 403, 403, 409, 409, 403, 403, 409, 403),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/org-points',
    label: "Acme's reporting structure",
    url: '/app/api/org/companies/100001/org-points',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/org-points.xlsx',
    label: "Acme's reporting structure as a workbook",
    url: '/app/api/org/companies/100001/org-points.xlsx',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/org-points',
    label: 'create an org point that exists (409)',
    url: '/app/api/org/companies/100001/org-points',
    body: { number: 'A000', name1: 'Acme', reportingLevel: 1 },
    expect: row(403, 409, 409, 409, 409, 403, 403, 409, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/org-points/upload',
    label: 'upload bytes that are not a workbook (415)',
    url: '/app/api/org/companies/100001/org-points/upload',
    raw: {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      payload: Buffer.from('not a workbook'),
    },
    expect: row(403, 415, 415, 415, 415, 403, 403, 415, 404),
  },
  {
    endpoint: 'PATCH /app/api/org/companies/:number/org-points/:point',
    label: 'edit an org point (empty name: 400)',
    url: '/app/api/org/companies/100001/org-points/A000',
    body: { name1: '' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 400, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/org-points/:point/status',
    label: 'set an org point active (no-op)',
    url: '/app/api/org/companies/100001/org-points/A000/status',
    body: { active: true },
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number/org-points/:point',
    label: 'delete an org point in use (409)',
    url: '/app/api/org/companies/100001/org-points/A000',
    expect: row(403, 409, 409, 409, 409, 403, 403, 409, 404),
  },
  // Issuers, issuer groups, company groups, program options (docs/authorization.md, "Issuers and
  // program options"). Issuer 1001 = Acme's; an unknown group id answers 404 to those allowed.
  {
    endpoint: 'GET /app/api/org/issuers',
    label: 'list issuers in scope',
    url: '/app/api/org/issuers',
    expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'GET /app/api/org/issuers.csv',
    label: 'export issuers in scope as CSV',
    url: '/app/api/org/issuers.csv',
    expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'POST /app/api/org/issuers',
    label: 'create an issuer (invalid number: authorised callers get 400)',
    url: '/app/api/org/issuers',
    body: { number: 'x', name1: 'X' },
    expect: row(403, 403, 403, 403, 403, 403, 403, 400, 403),
  },
  {
    endpoint: 'GET /app/api/org/issuers/:number',
    label: 'view issuer 1001',
    url: '/app/api/org/issuers/1001',
    expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'GET /app/api/org/issuers/:number',
    label: 'view issuer 2001 (another issuer)',
    url: '/app/api/org/issuers/2001',
    expect: row(403, 403, 403, 200, 404, 403, 403, 200, 403),
  },
  {
    endpoint: 'PATCH /app/api/org/issuers/:number',
    label: 'edit issuer 1001 (empty name: authorised callers get 400)',
    url: '/app/api/org/issuers/1001',
    body: { name1: '' },
    expect: row(403, 403, 403, 400, 403, 403, 403, 400, 403),
  },
  {
    endpoint: 'PUT /app/api/org/issuers/:number/status',
    label: 'set issuer 1001 active (no-op)',
    url: '/app/api/org/issuers/1001/status',
    body: { active: true },
    expect: row(403, 403, 403, 403, 403, 403, 403, 200, 403),
  },
  {
    endpoint: 'DELETE /app/api/org/issuers/:number',
    label: 'delete issuer 1001 (in use: 409)',
    url: '/app/api/org/issuers/1001',
    expect: row(403, 403, 403, 403, 403, 403, 403, 409, 403),
  },
  {
    endpoint: 'GET /app/api/org/issuers/:number/company-groups',
    label: "issuer 1001's company groups",
    url: '/app/api/org/issuers/1001/company-groups',
    expect: row(403, 403, 200, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'POST /app/api/org/issuers/:number/company-groups',
    label: 'create a company group (empty name: 400)',
    url: '/app/api/org/issuers/1001/company-groups',
    body: { name: '' },
    expect: row(403, 403, 403, 400, 400, 403, 403, 400, 403),
  },
  {
    endpoint: 'PATCH /app/api/org/issuers/:number/company-groups/:id',
    label: 'rename a company group (empty name: 400)',
    url: '/app/api/org/issuers/1001/company-groups/999999',
    body: { name: '' },
    expect: row(403, 403, 403, 400, 400, 403, 403, 400, 403),
  },
  {
    endpoint: 'PUT /app/api/org/issuers/:number/company-groups/:id/status',
    label: 'set an unknown company group active (404)',
    url: '/app/api/org/issuers/1001/company-groups/999999/status',
    body: { active: true },
    expect: row(403, 403, 403, 404, 404, 403, 403, 404, 403),
  },
  {
    endpoint: 'GET /app/api/org/issuers/:number/program-options',
    label: "issuer 1001's program options",
    url: '/app/api/org/issuers/1001/program-options',
    expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'PUT /app/api/org/issuers/:number/program-options',
    label: "set issuer 1001's program options (nothing: no-op)",
    url: '/app/api/org/issuers/1001/program-options',
    body: { options: {} },
    expect: row(403, 403, 403, 200, 403, 403, 403, 200, 403),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/program-options',
    label: "Acme's program options",
    url: '/app/api/org/companies/100001/program-options',
    expect: row(403, 403, 200, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/program-options',
    label: "set Acme's program options (nothing: no-op)",
    url: '/app/api/org/companies/100001/program-options',
    body: { options: {} },
    expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'GET /app/api/org/issuer-groups',
    label: 'list issuer groups',
    url: '/app/api/org/issuer-groups',
    expect: row(403, 403, 403, 200, 403, 403, 403, 200, 403),
  },
  {
    endpoint: 'POST /app/api/org/issuer-groups',
    label: 'create an issuer group (empty name: 400)',
    url: '/app/api/org/issuer-groups',
    body: { name: '' },
    expect: row(403, 403, 403, 403, 403, 403, 403, 400, 403),
  },
  {
    endpoint: 'PATCH /app/api/org/issuer-groups/:id',
    label: 'rename an issuer group (empty name: 400)',
    url: '/app/api/org/issuer-groups/999999',
    body: { name: '' },
    expect: row(403, 403, 403, 403, 403, 403, 403, 400, 403),
  },
  {
    endpoint: 'PUT /app/api/org/issuer-groups/:id/status',
    label: 'set an unknown issuer group active (404)',
    url: '/app/api/org/issuer-groups/999999/status',
    body: { active: true },
    expect: row(403, 403, 403, 403, 403, 403, 403, 404, 403),
  },
  // Cardholders, accounts and account groups of a company (docs/authorization.md "Accounts and
  // cardholders"): Z H I G C O S A view inside their scope (O its subtree, S its group, A itself), H I G
  // C maintain, Z is read-only (403), another tenant's company is 404. Ids of the demo rows: ACME_IDS.
  {
    endpoint: 'GET /app/api/org/companies/:number/cardholders',
    label: 'list cardholders',
    url: '/app/api/org/companies/100001/cardholders',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/cardholders.csv',
    label: 'export cardholders as CSV',
    url: '/app/api/org/companies/100001/cardholders.csv',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/cardholders/:id',
    label: "view active01's cardholder",
    url: '/app/api/org/companies/100001/cardholders/{active01}',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/cardholders/:id',
    label: 'view Edsger Dijkstra (A210, outside O; Travel account for S)',
    url: '/app/api/org/companies/100001/cardholders/{dijkstra}',
    expect: row(404, 200, 200, 200, 200, 404, 200, 200, 404),
  },
  {
    endpoint: 'PATCH /app/api/org/companies/:number/cardholders/:id',
    label: 'edit a cardholder (empty name: 400)',
    url: '/app/api/org/companies/100001/cardholders/{active01}',
    body: { name1: '' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/cardholders/:id/status',
    label: 'set a cardholder active (no-op)',
    url: '/app/api/org/companies/100001/cardholders/{active01}/status',
    body: { active: true },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounts',
    label: 'list accounts',
    url: '/app/api/org/companies/100001/accounts',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounts.csv',
    label: 'export accounts as CSV',
    url: '/app/api/org/companies/100001/accounts.csv',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounts/:id',
    label: "view active01's account",
    url: '/app/api/org/companies/100001/accounts/{active01Account}',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounts/:id',
    label: "view Alan Turing's Purchasing account (outside S, inside O)",
    url: '/app/api/org/companies/100001/accounts/{turingAccount}',
    expect: row(404, 200, 200, 200, 200, 200, 404, 200, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/accounts/:id/status',
    label: 'account status unknown (400)',
    url: '/app/api/org/companies/100001/accounts/{active01Account}/status',
    body: { status: 'Open' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 400),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/accounts/:id/status',
    label: 'account status unchanged (no-op)',
    url: '/app/api/org/companies/100001/accounts/{active01Account}/status',
    body: { status: 'Active' },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/accounts/:id/group',
    label: 'move to its own group (no-op)',
    url: '/app/api/org/companies/100001/accounts/{active01Account}/group',
    body: { groupId: '{travel}' },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/accounts/bulk-move',
    label: 'move its account to its own group (unchanged)',
    url: '/app/api/org/companies/100001/accounts/bulk-move',
    body: { groupId: '{travel}', accountIds: ['{active01Account}'] },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/accounts',
    label: 'issue a card account with a number of a wrong check digit (400)',
    url: '/app/api/org/companies/100001/accounts',
    body: { cardholderId: '{active01}', number: '5424180000000016' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/account-groups',
    label: 'list account groups',
    url: '/app/api/org/companies/100001/account-groups',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/account-groups',
    label: 'create a group that exists (409)',
    url: '/app/api/org/companies/100001/account-groups',
    body: { name: 'Travel' },
    expect: row(403, 409, 409, 409, 409, 403, 403, 403, 404),
  },
  {
    endpoint: 'PATCH /app/api/org/companies/:number/account-groups/:id',
    label: 'rename a group to an empty name (400)',
    url: '/app/api/org/companies/100001/account-groups/{travel}',
    body: { name: '' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/account-groups/:id/status',
    label: 'set a group active (no-op)',
    url: '/app/api/org/companies/100001/account-groups/{travel}/status',
    body: { active: true },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  // Real cards (company card accounts without a cardholder, known by alias): the company's
  // administrators; Z reads them; O, S and A have none to see.
  {
    endpoint: 'GET /app/api/org/companies/:number/real-cards',
    label: 'list real cards',
    url: '/app/api/org/companies/100001/real-cards',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/real-cards.csv',
    label: 'export real cards as CSV',
    url: '/app/api/org/companies/100001/real-cards.csv',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/real-cards/:id',
    label: 'view the Travel lodge card',
    url: '/app/api/org/companies/100001/real-cards/{realCard}',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/real-cards',
    label: 'add a real card whose alias is taken (409)',
    url: '/app/api/org/companies/100001/real-cards',
    body: { number: '4111111111111111', alias: 'Travel Lodge Card' },
    expect: row(403, 409, 409, 409, 409, 403, 403, 403, 404),
  },
  {
    endpoint: 'PATCH /app/api/org/companies/:number/real-cards/:id',
    label: 'rename a real card to an empty alias (400)',
    url: '/app/api/org/companies/100001/real-cards/{realCard}',
    body: { alias: ' ' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/real-cards/:id/status',
    label: 'set a real card active (no-op)',
    url: '/app/api/org/companies/100001/real-cards/{realCard}/status',
    body: { active: true },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number/real-cards/:id',
    label: 'delete an unknown real card (404)',
    url: '/app/api/org/companies/100001/real-cards/999999',
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  // Accounting codes (issue 16): the administrators in scope see them, the company's change them; Z reads.
  {
    endpoint: 'GET /app/api/org/companies/:number/accounting-codes',
    label: 'list accounting codes',
    url: '/app/api/org/companies/100001/accounting-codes',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/accounting-codes',
    label: 'create a code whose name exists (400)',
    url: '/app/api/org/companies/100001/accounting-codes',
    body: { name: 'Cost centre', kind: 'list' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PATCH /app/api/org/companies/:number/accounting-codes/:id',
    label: 'rename a code to an empty name (400)',
    url: '/app/api/org/companies/100001/accounting-codes/{costCentre}',
    body: { name: ' ' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number/accounting-codes/:id',
    label: 'delete an unknown code (404)',
    url: '/app/api/org/companies/100001/accounting-codes/999999',
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounting-codes/:id/values',
    label: "list the cost centre's values",
    url: '/app/api/org/companies/100001/accounting-codes/{costCentre}/values',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/accounting-codes/:id/values',
    label: 'add a value that exists (400)',
    url: '/app/api/org/companies/100001/accounting-codes/{costCentre}/values',
    body: { value: '4100' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PATCH /app/api/org/companies/:number/accounting-codes/:id/values/:valueId',
    label: 'describe a value with markup (400)',
    url: '/app/api/org/companies/100001/accounting-codes/{costCentre}/values/{salesValue}',
    body: { description: '<b>Sales</b>' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number/accounting-codes/:id/values/:valueId',
    label: 'delete an unknown value (404)',
    url: '/app/api/org/companies/100001/accounting-codes/{costCentre}/values/999999',
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounting-codes/:id/values.csv',
    label: "the cost centre's values as CSV",
    url: '/app/api/org/companies/100001/accounting-codes/{costCentre}/values.csv',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounting-codes/:id/values.xlsx',
    label: "the cost centre's values as .xlsx",
    url: '/app/api/org/companies/100001/accounting-codes/{costCentre}/values.xlsx',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/accounting-codes/:id/values/upload',
    label: 'upload values without the value column (400)',
    url: '/app/api/org/companies/100001/accounting-codes/{costCentre}/values/upload',
    raw: { type: 'application/octet-stream', payload: Buffer.from('code\n4100\n') },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounting-subsets',
    label: 'list accounting subsets',
    url: '/app/api/org/companies/100001/accounting-subsets',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/accounting-subsets',
    label: 'create a subset whose name exists (400)',
    url: '/app/api/org/companies/100001/accounting-subsets',
    body: { name: 'Travel costs', codeId: '{costCentre}', values: ['4100'] },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/accounting-subsets/:id',
    label: 'change an unknown subset (404)',
    url: '/app/api/org/companies/100001/accounting-subsets/999999',
    body: { name: 'Nothing', codeId: '{costCentre}', values: ['4100'] },
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number/accounting-subsets/:id',
    label: 'delete an unknown subset (404)',
    url: '/app/api/org/companies/100001/accounting-subsets/999999',
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounting-schemes',
    label: 'list accounting schemes',
    url: '/app/api/org/companies/100001/accounting-schemes',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/accounting-schemes',
    label: 'create a scheme without codes (400)',
    url: '/app/api/org/companies/100001/accounting-schemes',
    body: { name: 'Empty', lines: [] },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/accounting-schemes/:id',
    label: 'change an unknown scheme (404)',
    url: '/app/api/org/companies/100001/accounting-schemes/999999',
    body: { name: 'Nothing', lines: [] },
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number/accounting-schemes/:id',
    label: 'delete an unknown scheme (404)',
    url: '/app/api/org/companies/100001/accounting-schemes/999999',
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounting-groups',
    label: "list account groups' schemes",
    url: '/app/api/org/companies/100001/accounting-groups',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/accounting-groups/:id',
    label: 'give the Travel group an unknown scheme (400)',
    url: '/app/api/org/companies/100001/accounting-groups/{travel}',
    body: { schemeId: 999999 },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/accounts/:id/coding',
    label: "active01's card account's coding",
    url: '/app/api/org/companies/100001/accounts/{active01Account}/coding',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/accounts/:id/coding',
    label: "active01's card account: a default for a code outside its scheme (400)",
    url: '/app/api/org/companies/100001/accounts/{active01Account}/coding',
    body: { schemeId: null, defaults: { '999999': '4100' } },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  // Cost allocation (issue 16 item 3): seen by everyone in scope, coded by those who review it; mass
  // allocation by the company's administrators.
  {
    endpoint: 'GET /app/api/transactions/:id/allocation',
    label: "active01's transaction's allocation",
    url: '/app/api/transactions/{active01New}/allocation',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'PUT /app/api/transactions/:id/allocation',
    label: 'allocate by percents not totalling 100 (400)',
    url: '/app/api/transactions/{active01New}/allocation',
    body: { mode: 'percent', lines: [{ percent: 60 }] },
    expect: row(400, 400, 400, 403, 403, 400, 400, 403, 404),
  },
  {
    endpoint: 'GET /app/api/transactions/:id/allocation/values',
    label: 'cost centres offered for the transaction',
    url: '/app/api/transactions/{active01New}/allocation/values?code={costCentre}',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'GET /app/api/transactions/mass-allocations',
    label: "the company's mass allocations",
    url: '/app/api/transactions/mass-allocations?company=100001',
    expect: row(403, 200, 200, 403, 403, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/transactions/mass-allocations',
    label: 'mass-allocate without choosing transactions (400)',
    url: '/app/api/transactions/mass-allocations',
    body: { company: '100001', lines: [{ percent: 100 }] },
    expect: row(403, 400, 400, 403, 403, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/transactions/mass-allocations/:id/undo',
    label: 'undo an unknown mass allocation (404)',
    url: '/app/api/transactions/mass-allocations/999999/undo',
    expect: row(403, 404, 404, 403, 403, 403, 403, 403, 404),
  },
  // Cardholder self-registration (issue 18 item 2): the company's corporate code and a card's unlock.
  {
    endpoint: 'GET /app/api/org/companies/:number/self-registration',
    label: "the company's self-registration",
    url: '/app/api/org/companies/100001/self-registration',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/self-registration',
    label: 'a corporate code of 2 digits (400)',
    url: '/app/api/org/companies/100001/self-registration',
    body: { code: '12' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 400),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/self-registration',
    label: 'remove a code it does not have (no-op)',
    url: '/app/api/org/companies/100001/self-registration',
    body: { code: null },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/accounts/:id/registration-unlock',
    label: "unlock active01's card, not locked (409)",
    url: '/app/api/org/companies/100001/accounts/{active01Account}/registration-unlock',
    expect: row(403, 409, 409, 409, 409, 403, 403, 403, 404),
  },
  // Company self-registration (issue 18 item 1): Banco Norte's invitations, seen and decided by its
  // issuer's administrators (isgadmin01's issuer group holds both demo issuers; issadmin01 only 1001).
  {
    endpoint: 'GET /app/api/org/issuers/:number/company-registrations',
    label: "the demo bank's company registrations",
    url: '/app/api/org/issuers/1001/company-registrations',
    expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'POST /app/api/org/issuers/:number/company-registrations',
    label: 'invite a company without a name (400)',
    url: '/app/api/org/issuers/1001/company-registrations',
    body: { companyName: '' },
    expect: row(403, 403, 403, 400, 400, 403, 403, 403, 403),
  },
  {
    endpoint: 'GET /app/api/org/issuers/:number/company-registrations/:id',
    label: 'an unknown company registration (404)',
    url: '/app/api/org/issuers/1001/company-registrations/999999',
    expect: row(403, 403, 403, 404, 404, 403, 403, 404, 403),
  },
  {
    endpoint: 'DELETE /app/api/org/issuers/:number/company-registrations/:id',
    label: 'withdraw an unknown invitation (404)',
    url: '/app/api/org/issuers/1001/company-registrations/999999',
    expect: row(403, 403, 403, 404, 404, 403, 403, 403, 403),
  },
  ...(['approve', 'decline', 'unlock'] as const).map((action) => ({
    endpoint: `POST /app/api/org/issuers/:number/company-registrations/:id/${action}`,
    label: `${action} an unknown company registration (404)`,
    url: `/app/api/org/issuers/1001/company-registrations/999999/${action}`,
    body: action === 'approve' ? { companyNumber: '300001' } : action === 'decline' ? { reason: 'No' } : {},
    expect: row(403, 403, 403, 404, 404, 403, 403, 403, 403),
  })),
  // New card account applications (issue 18 item 3): the company's queue and its decisions.
  {
    endpoint: 'GET /app/api/org/companies/:number/card-applications',
    label: "Acme's card applications",
    url: '/app/api/org/companies/100001/card-applications',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/card-applications/:id',
    label: 'an unknown card application (404)',
    url: '/app/api/org/companies/100001/card-applications/999999',
    expect: row(403, 404, 404, 404, 404, 403, 403, 404, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/card-applications/:id/approve',
    label: 'approve an unknown card application (404)',
    url: '/app/api/org/companies/100001/card-applications/999999/approve',
    body: { cardNumber: '5424180000000017', expiry: '09/30' },
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/card-applications/:id/decline',
    label: 'decline an unknown card application (404)',
    url: '/app/api/org/companies/100001/card-applications/999999/decline',
    body: { reason: 'No' },
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  // Expense set-up (issue 17 item 1): seen like the accounting codes, changed by the company's administrators.
  {
    endpoint: 'GET /app/api/org/companies/:number/expense-settings',
    label: 'the expense set-up',
    url: '/app/api/org/companies/100001/expense-settings',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/expense-settings/policy',
    label: 'save a policy in no currency (400)',
    url: '/app/api/org/companies/100001/expense-settings/policy',
    body: { currency: 'XXY' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  ...(
    [
      ['types', { name: '' }, { name: 'Unknown' }],
      [
        'mileage-rates',
        { name: '', unit: 'km', currency: 'EUR', rate: '0' },
        { name: 'U', unit: 'km', currency: 'EUR', rate: '1' },
      ],
      ['tax-rates', { name: '', rate: '0' }, { name: 'U', rate: '1' }],
      [
        'approval-profiles',
        { name: '', limit: '', currency: 'EUR' },
        { name: 'U', limit: '1', currency: 'EUR' },
      ],
    ] as const
  ).flatMap(([part, invalid, valid]) => [
    {
      endpoint: `POST /app/api/org/companies/:number/expense-settings/${part}`,
      label: `add an invalid ${part} record (400)`,
      url: `/app/api/org/companies/100001/expense-settings/${part}`,
      body: invalid,
      expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
    },
    {
      endpoint: `PUT /app/api/org/companies/:number/expense-settings/${part}/:id`,
      label: `change an unknown ${part} record (404)`,
      url: `/app/api/org/companies/100001/expense-settings/${part}/999999`,
      body: valid,
      expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
    },
    {
      endpoint: `DELETE /app/api/org/companies/:number/expense-settings/${part}/:id`,
      label: `delete an unknown ${part} record (404)`,
      url: `/app/api/org/companies/100001/expense-settings/${part}/999999`,
      expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
    },
  ]),
  {
    endpoint: 'POST /app/api/org/companies/:number/expense-settings/approval-thresholds',
    label: 'add a threshold for an unknown profile (400)',
    url: '/app/api/org/companies/100001/expense-settings/approval-thresholds',
    body: { amount: '1', currency: 'EUR', profileId: 999999 },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number/expense-settings/approval-thresholds/:id',
    label: 'delete an unknown threshold (404)',
    url: '/app/api/org/companies/100001/expense-settings/approval-thresholds/999999',
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  // Expense reports (issue 17 items 2-4): a cardholder's own; anyone on a route approves; the company's
  // administrators list and reroute. An unknown report is not found to everyone who may act on one.
  {
    endpoint: 'GET /app/api/my/expense-reports',
    label: "the cardholder's expense reports",
    url: '/app/api/my/expense-reports',
    expect: row(200, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'POST /app/api/my/expense-reports',
    label: 'create a report without a name (400)',
    url: '/app/api/my/expense-reports',
    body: { name: '' },
    expect: row(400, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'GET /app/api/my/expense-transactions',
    label: 'card transactions not on a report',
    url: '/app/api/my/expense-transactions',
    expect: row(200, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'GET /app/api/expense-approvals',
    label: "the approver's queue",
    url: '/app/api/expense-approvals',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'GET /app/api/org/companies/:number/expense-reports',
    label: "a company's expense reports",
    url: '/app/api/org/companies/100001/expense-reports',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'GET /app/api/expense-reports/:id',
    label: 'an unknown expense report (404)',
    url: '/app/api/expense-reports/999999',
    expect: row(404, 404, 404, 404, 404, 404, 404, 404, 404),
  },
  {
    endpoint: 'PUT /app/api/expense-reports/:id',
    label: 'rename an unknown report (404)',
    url: '/app/api/expense-reports/999999',
    body: { name: 'Trip' },
    expect: row(404, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'DELETE /app/api/expense-reports/:id',
    label: 'delete an unknown report (404)',
    url: '/app/api/expense-reports/999999',
    expect: row(404, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'POST /app/api/expense-reports/:id/lines',
    label: 'add a line to an unknown report (404)',
    url: '/app/api/expense-reports/999999/lines',
    body: { kind: 'cash', typeId: 1, description: 'Taxi', date: '2026-10-01', amount: '10' },
    expect: row(404, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'PUT /app/api/expense-reports/:id/lines/:line',
    label: 'change a line of an unknown report (404)',
    url: '/app/api/expense-reports/999999/lines/1',
    body: { kind: 'cash', typeId: 1, description: 'Taxi', date: '2026-10-01', amount: '10' },
    expect: row(404, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'DELETE /app/api/expense-reports/:id/lines/:line',
    label: 'remove a line of an unknown report (404)',
    url: '/app/api/expense-reports/999999/lines/1',
    expect: row(404, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'PUT /app/api/expense-reports/:id/lines/:line/receipt',
    label: 'attach a receipt to an unknown report (404)',
    url: '/app/api/expense-reports/999999/lines/1/receipt',
    raw: { type: 'application/octet-stream', payload: Buffer.from('%PDF-1.4\n') },
    expect: row(404, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'GET /app/api/expense-reports/:id/lines/:line/receipt',
    label: 'the receipt of an unknown report (404)',
    url: '/app/api/expense-reports/999999/lines/1/receipt',
    expect: row(404, 404, 404, 404, 404, 404, 404, 404, 404),
  },
  {
    endpoint: 'DELETE /app/api/expense-reports/:id/lines/:line/receipt',
    label: 'remove the receipt of an unknown report (404)',
    url: '/app/api/expense-reports/999999/lines/1/receipt',
    expect: row(404, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'POST /app/api/expense-reports/:id/submit',
    label: 'submit an unknown report (404)',
    url: '/app/api/expense-reports/999999/submit',
    expect: row(404, 403, 403, 403, 403, 403, 403, 403, 403),
  },
  {
    endpoint: 'POST /app/api/expense-reports/:id/approve',
    label: 'approve an unknown report (404)',
    url: '/app/api/expense-reports/999999/approve',
    expect: row(404, 404, 404, 404, 404, 404, 404, 404, 404),
  },
  {
    endpoint: 'POST /app/api/expense-reports/:id/send-back',
    label: 'send back an unknown report (404)',
    url: '/app/api/expense-reports/999999/send-back',
    body: { note: 'Receipt missing' },
    expect: row(404, 404, 404, 404, 404, 404, 404, 404, 404),
  },
  {
    endpoint: 'POST /app/api/expense-reports/:id/reroute',
    label: 'reroute an unknown report (404)',
    url: '/app/api/expense-reports/999999/reroute',
    body: { userId: 'agmgr01' },
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  // Custom data fields (issue 16 item 4): set up like the accounting codes; captured like the coding.
  {
    endpoint: 'GET /app/api/org/companies/:number/custom-fields',
    label: 'list custom fields',
    url: '/app/api/org/companies/100001/custom-fields',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'POST /app/api/org/companies/:number/custom-fields',
    label: 'create a field without a label (400)',
    url: '/app/api/org/companies/100001/custom-fields',
    body: { label: '', type: 'text' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'PUT /app/api/org/companies/:number/custom-fields/:id',
    label: 'change an unknown field (404)',
    url: '/app/api/org/companies/100001/custom-fields/999999',
    body: { label: 'Unknown', type: 'text' },
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'DELETE /app/api/org/companies/:number/custom-fields/:id',
    label: 'delete an unknown field (404)',
    url: '/app/api/org/companies/100001/custom-fields/999999',
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/transactions/:id/custom-fields',
    label: "active01's transaction's custom fields",
    url: '/app/api/transactions/{active01New}/custom-fields',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'PUT /app/api/transactions/:id/custom-fields',
    label: 'a value of an unknown field (400)',
    url: '/app/api/transactions/{active01New}/custom-fields',
    body: { values: { 999999: 'x' } },
    expect: row(400, 400, 400, 403, 403, 400, 400, 403, 404),
  },
  // The Transaction Summary: everyone within its scope; another issuer's administrator finds nothing.
  {
    endpoint: 'GET /app/api/transactions',
    label: 'transactions in scope',
    url: '/app/api/transactions',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'GET /app/api/transactions/spend',
    label: 'spend picture of the scope',
    url: '/app/api/transactions/spend',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'GET /app/api/transactions/:id',
    label: "a transaction on active01's card",
    url: '/app/api/transactions/{active01Transaction}',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  // Review, approve, lock a Locked transaction on active01's card: whoever may take the step gets 409
  // (it is past every step: nothing changes), the rest 403 by type or role permission, another issuer 404.
  {
    endpoint: 'POST /app/api/transactions/import',
    label: 'upload an empty transaction file (importers get 400)',
    url: '/app/api/transactions/import',
    raw: { type: 'application/octet-stream', payload: Buffer.alloc(0) },
    expect: row(403, 403, 403, 400, 400, 403, 403, 400, 403),
  },
  {
    endpoint: 'POST /app/api/transactions/:id/review',
    label: 'review a locked transaction',
    url: '/app/api/transactions/{active01Locked}/review',
    expect: row(409, 409, 409, 403, 403, 409, 409, 403, 404),
  },
  {
    endpoint: 'POST /app/api/transactions/:id/approve',
    label: 'approve a locked transaction (approvers: role permission)',
    url: '/app/api/transactions/{active01Locked}/approve',
    expect: row(403, 409, 409, 403, 403, 409, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/transactions/:id/lock',
    label: 'lock a locked transaction',
    url: '/app/api/transactions/{active01Locked}/lock',
    expect: row(403, 409, 409, 409, 409, 403, 403, 403, 404),
  },
  // Split and unsplit a locked transaction: whoever may split gets 409 (locked: nothing changes).
  {
    endpoint: 'POST /app/api/transactions/:id/split',
    label: 'split a locked transaction',
    url: '/app/api/transactions/{active01Locked}/split',
    body: { lines: [{ amount: '0.01' }, { amount: '0.01' }] },
    expect: row(409, 409, 409, 403, 403, 409, 409, 403, 404),
  },
  {
    endpoint: 'POST /app/api/transactions/:id/unsplit',
    label: 'unsplit a locked transaction',
    url: '/app/api/transactions/{active01Locked}/unsplit',
    expect: row(409, 409, 409, 403, 403, 409, 409, 403, 404),
  },
  {
    endpoint: 'GET /app/api/transactions/:id/dispute-reasons',
    label: "the dispute reasons for a transaction on active01's card",
    url: '/app/api/transactions/{active01Transaction}/dispute-reasons',
    expect: row(200, 200, 200, 403, 403, 200, 200, 403, 404),
  },
  {
    endpoint: 'POST /app/api/transactions/:id/dispute',
    label: 'an empty dispute form (400)',
    url: '/app/api/transactions/{active01Transaction}/dispute',
    body: { reason: '', explanation: '' },
    expect: row(400, 400, 400, 403, 403, 400, 400, 403, 404),
  },
  // The general-ledger export: program administrators (an invalid range changes nothing).
  {
    endpoint: 'POST /app/api/transactions/exports',
    label: 'an export with invalid dates (400)',
    url: '/app/api/transactions/exports',
    body: { from: 'x', to: 'y', format: 'csv' },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 400),
  },
  {
    endpoint: 'GET /app/api/transactions/exports',
    label: 'exports of the scope',
    url: '/app/api/transactions/exports',
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 200),
  },
  {
    endpoint: 'GET /app/api/transactions/exports/:id/file',
    label: 'the file of an export that does not exist',
    url: '/app/api/transactions/exports/999999/file',
    expect: row(403, 404, 404, 404, 404, 403, 403, 403, 404),
  },
  // An issuer's code lists (dispute reasons, account status codes, maintenance reasons): the issuer side.
  ...(['dispute-reasons', 'account-status-codes', 'maintenance-reasons'] as const).flatMap((list): Cell[] => [
    {
      endpoint: `GET /app/api/org/issuers/:number/${list}`,
      label: `issuer 1001's ${list}`,
      url: `/app/api/org/issuers/1001/${list}`,
      expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
    },
    {
      endpoint: `POST /app/api/org/issuers/:number/${list}`,
      label: 'an empty code (400)',
      url: `/app/api/org/issuers/1001/${list}`,
      body: { code: '', description: '' },
      expect: row(403, 403, 403, 400, 400, 403, 403, 400, 403),
    },
    {
      endpoint: `PUT /app/api/org/issuers/:number/${list}/:code`,
      label: 'an empty description (400)',
      url: `/app/api/org/issuers/1001/${list}/DP`,
      body: { description: '' },
      expect: row(403, 403, 403, 400, 400, 403, 403, 400, 403),
    },
    {
      endpoint: `DELETE /app/api/org/issuers/:number/${list}/:code`,
      label: 'delete a code that does not exist (404)',
      url: `/app/api/org/issuers/1001/${list}/QQ`,
      expect: row(403, 403, 403, 404, 404, 403, 403, 404, 403),
    },
  ]),
  {
    endpoint: 'PUT /app/api/org/companies/:number/cardholders/:id/reasons',
    label: "active01's maintenance reasons: an unknown code (400)",
    url: '/app/api/org/companies/100001/cardholders/{active01}/reasons',
    body: { codes: ['QQ'] },
    expect: row(403, 400, 400, 400, 400, 403, 403, 403, 404),
  },
  {
    endpoint: 'GET /app/api/my/cards',
    label: 'own cards (empty for non-cardholders)',
    url: '/app/api/my/cards',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  // My Profile: every signed-in user has its own; invalid bodies answer 400 to each.
  {
    endpoint: 'GET /app/api/profile',
    label: 'own profile',
    url: '/app/api/profile',
    expect: row(200, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    endpoint: 'PUT /app/api/profile/language',
    label: 'a language the co-brand does not offer',
    url: '/app/api/profile/language',
    body: { locale: 'xx_YY' },
    expect: row(400, 400, 400, 400, 400, 400, 400, 400, 400),
  },
  {
    endpoint: 'PUT /app/api/profile/challenge-question',
    label: 'challenge question without fields',
    url: '/app/api/profile/challenge-question',
    body: {},
    expect: row(400, 400, 400, 400, 400, 400, 400, 400, 400),
  },
  {
    endpoint: 'PUT /app/api/profile/two-factor',
    label: 'two-factor without fields',
    url: '/app/api/profile/two-factor',
    body: {},
    expect: row(400, 400, 400, 400, 400, 400, 400, 400, 400),
  },
  {
    endpoint: 'POST /app/api/profile/soft-token',
    label: 'soft token without the current password',
    url: '/app/api/profile/soft-token',
    body: {},
    expect: row(400, 400, 400, 400, 400, 400, 400, 400, 400),
  },
  // Roles (demo: role 1 "Program administrator" of issuer 1001, held by admin01 and cgadmin01, and by
  // bncadmin01's issuer's own role; issadmin01, isgadmin01 and sysadmin01 hold none).
  {
    endpoint: 'GET /app/api/roles',
    label: 'list roles',
    url: '/app/api/roles',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 200),
  },
  {
    endpoint: 'POST /app/api/roles',
    label: 'define a role for an unknown issuer (definers get 400)',
    url: '/app/api/roles',
    body: { issuerNumber: '9999', name: 'Matrix', permissions: [] },
    expect: row(403, 403, 403, 400, 400, 403, 403, 400, 403),
  },
  {
    endpoint: 'PATCH /app/api/roles/:id',
    label: 'empty change to an issuer 1001 role',
    url: '/app/api/roles/1',
    body: {},
    expect: row(403, 403, 403, 200, 200, 403, 403, 200, 403),
  },
  {
    endpoint: 'GET /app/api/users/:userId/roles',
    label: "an Acme cardholder's roles",
    url: '/app/api/users/active01/roles',
    expect: row(403, 200, 200, 200, 200, 403, 403, 200, 404),
  },
  {
    endpoint: 'PUT /app/api/users/:userId/roles',
    label: "an Acme cardholder's roles unchanged (none)",
    url: '/app/api/users/active01/roles',
    body: { roleIds: [] },
    expect: row(403, 200, 200, 200, 200, 403, 403, 403, 404),
  },
  // Multi-user (demo: multi01 and multi02 linked; admin01, cgadmin01 and bncadmin01 may link).
  {
    endpoint: 'GET /app/api/users/:userId/link',
    label: "an Acme cardholder's link",
    url: '/app/api/users/active01/link',
    expect: row(403, 200, 200, 200, 200, 200, 200, 200, 404),
  },
  {
    endpoint: 'DELETE /app/api/users/:userId/link',
    label: 'unlink a user that is not linked (linkers get 409)',
    url: '/app/api/users/active01/link',
    expect: row(403, 409, 409, 403, 403, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/multi-user/links',
    label: 'link one user with itself (linkers get 409)',
    url: '/app/api/multi-user/links',
    body: { userIds: ['active01', 'ACTIVE01'] },
    expect: row(403, 409, 409, 403, 403, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/multi-user/confirm',
    label: 'confirm without a pending link',
    url: '/app/api/multi-user/confirm',
    body: { accept: true, userIds: ['multi01'] },
    expect: row(409, 409, 409, 409, 409, 409, 409, 409, 409),
  },
  {
    endpoint: 'POST /app/api/multi-user/choose',
    label: 'choose an ID without a link',
    url: '/app/api/multi-user/choose',
    body: { userId: 'multi01' },
    expect: row(404, 404, 404, 404, 404, 404, 404, 404, 404),
  },
  // Access as user (admin01 and cgadmin01 are super users of Acme; locked01 is locked).
  {
    endpoint: 'POST /app/api/access-as',
    label: 'access as a locked cardholder (super users get 409)',
    url: '/app/api/access-as',
    body: { userId: 'locked01' },
    expect: row(403, 409, 409, 403, 403, 403, 403, 403, 404),
  },
  {
    endpoint: 'POST /app/api/access-as/return',
    label: 'return without accessing as anyone',
    url: '/app/api/access-as/return',
    expect: row(409, 409, 409, 409, 409, 409, 409, 409, 409),
  },
];

let ctx: TestContext;
const clients = new Map<Principal, TestClient>();
/** Who each signed-in principal is to the policy, as GET /app/api/me tells it. */
const subjects = new Map<Principal, Subject>();
/** The permission each endpoint declares (`METHOD /pattern` → the document's `x-permission`). */
const declared = new Map<string, string | undefined>();
/** Ids of demo rows named `{name}` in a cell's url or body (cardholders, accounts, account groups). */
const ACME_IDS = new Map<string, number>();

async function loadAcmeIds(): Promise<void> {
  const one = async (name: string, query: ReturnType<typeof sql>) => {
    const result = await ctx.services.database.db.execute<{ id: number }>(query);
    const rows =
      (result as unknown as { rows?: { id: number }[] }).rows ?? (result as unknown as { id: number }[]);
    ACME_IDS.set(name, Number(rows[0]?.id));
  };
  await one('active01', sql`select cardholder_id as id from users where user_id = 'active01'`);
  await one('dijkstra', sql`select id from cardholders where name1 = 'Edsger' and name2 = 'Dijkstra'`);
  await one(
    'active01Account',
    sql`select a.id from accounts a join users u on u.cardholder_id = a.cardholder_id where u.user_id = 'active01' order by a.id limit 1`,
  );
  await one(
    'turingAccount',
    sql`select a.id from accounts a join cardholders c on c.id = a.cardholder_id where c.name2 = 'Turing' order by a.id limit 1`,
  );
  await one(
    'realCard',
    sql`select r.id from real_cards r join companies c on c.id = r.company_id where c.number = '100001' and r.alias = 'Travel lodge card'`,
  );
  await one(
    'costCentre',
    sql`select k.id from accounting_codes k join companies c on c.id = k.company_id where c.number = '100001' and k.name = 'Cost centre'`,
  );
  await one(
    'salesValue',
    sql`select v.id from accounting_values v join accounting_codes k on k.id = v.code_id join companies c on c.id = k.company_id
      where c.number = '100001' and k.name = 'Cost centre' and v.value = '4100'`,
  );
  await one(
    'travel',
    sql`select g.id from account_groups g join companies c on c.id = g.company_id where c.number = '100001' and g.name = 'Travel'`,
  );
  await one(
    'active01Locked',
    sql`select t.id from transactions t join accounts a on a.id = t.account_id
      join users u on u.cardholder_id = a.cardholder_id where u.user_id = 'active01' and t.status = 'Locked'
      order by t.id limit 1`,
  );
  await one(
    'active01New',
    sql`select t.id from transactions t join accounts a on a.id = t.account_id
      join users u on u.cardholder_id = a.cardholder_id where u.user_id = 'active01' and t.status = 'New'
      and t.exported_at is null and t.split_lines = 0 order by t.id limit 1`,
  );
  await one(
    'active01Transaction',
    sql`select t.id from transactions t join accounts a on a.id = t.account_id
      join users u on u.cardholder_id = a.cardholder_id where u.user_id = 'active01' order by t.id limit 1`,
  );
}

/** A cell's url or body with `{name}` replaced by the demo row's id (a number in a body, also in a list). */
const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => String(ACME_IDS.get(name)));
const fillValue = (v: unknown): unknown =>
  typeof v === 'string' && /^\{\w+\}$/.test(v) ? Number(fill(v)) : Array.isArray(v) ? v.map(fillValue) : v;
const fillBody = (body: unknown): unknown =>
  body && typeof body === 'object'
    ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fillValue(v)]))
    : body;

beforeAll(async () => {
  ctx = await startTestApp();
  await loadAcmeIds();
  clients.set('none', new TestClient(ctx.app, '10.77.0.1'));
  let i = 2;
  for (const [principal, userId] of Object.entries(SIGN_IN) as [Principal, string][]) {
    const client = new TestClient(ctx.app, `10.77.0.${i++}`);
    const res = await client.login(userId, DEMO_PASSWORD);
    expect(res.statusCode, `${userId} signs in`).toBe(200);
    if (principal === 'partial') expect(res.body).toContain('change-password');
    clients.set(principal, client);
    if (principal === 'partial') continue;
    const me = JSON.parse((await client.request({ method: 'GET', url: '/app/api/me' })).body) as {
      userType: UserType;
      permissions: Permission[];
      accessedBy: object | null;
    };
    subjects.set(principal, { type: me.userType, permissions: me.permissions, accessedBy: me.accessedBy });
  }
  const document = JSON.parse(
    (await clients.get('none')?.request({ method: 'GET', url: '/app/api/openapi.json' }))?.body ?? '{}',
  ) as { paths: Record<string, Record<string, { 'x-permission'?: string }>> };
  for (const [path, operations] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(operations))
      declared.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, operation['x-permission']);
});
afterAll(() => ctx?.close());

const call = (client: TestClient, cell: Cell) => {
  const [method] = cell.endpoint.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'];
  return client.request({
    method,
    url: fill(cell.url),
    ...(cell.raw
      ? { payload: cell.raw.payload as unknown as string, headers: { 'content-type': cell.raw.type } }
      : cell.body !== undefined
        ? { payload: JSON.stringify(fillBody(cell.body)), headers: { 'content-type': 'application/json' } }
        : {}),
  });
};

describe('authorization matrix: every /app/api endpoint × every user type', () => {
  it('has a row for every endpoint the router serves under /app/api, and none for a missing one', () => {
    const served = endpointsUnder(ctx.app, '/app/api/').filter((e) => !e.endsWith('/app/api/*'));
    const listed = new Set(MATRIX.map((c) => c.endpoint));
    const unlisted = served.filter((e) => !listed.has(e));
    expect(unlisted, 'endpoints without a matrix row').toEqual([]);
    const missing = MATRIX.map((c) => c.endpoint).filter((e) => !served.includes(e));
    expect(missing, 'matrix rows for endpoints the router does not serve').toEqual([]);
  });

  it('reads a declared permission of the policy for every endpoint but the public document', () => {
    const problems: string[] = [];
    for (const endpoint of new Set(MATRIX.map((c) => c.endpoint))) {
      const permission = declared.get(endpoint);
      if (endpoint === 'GET /app/api/openapi.json') {
        if (permission !== undefined) problems.push(`${endpoint} declares ${permission}`);
      } else if (!isAction(permission)) problems.push(`${endpoint} declares no action of the policy`);
    }
    expect(problems).toEqual([]);
  });

  it('expects 403 wherever the declared permission refuses the principal, and nowhere else by type alone', () => {
    const problems: string[] = [];
    for (const cell of MATRIX) {
      const permission = declared.get(cell.endpoint);
      if (!isAction(permission)) continue;
      for (const [principal, subject] of subjects) {
        const refused = authorize(subject, permission as Action) !== undefined;
        if (refused && cell.expect[principal] !== 403)
          problems.push(
            `${cell.endpoint} [${cell.label}] as ${principal}: ${permission} refuses, the row expects ${cell.expect[principal]}`,
          );
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers every cell with the expected status', async () => {
    const differences: string[] = [];
    for (const cell of MATRIX) {
      for (const principal of PRINCIPALS) {
        const res = await call(clients.get(principal) as TestClient, cell);
        if (res.statusCode !== cell.expect[principal]) {
          differences.push(
            `${cell.endpoint} [${cell.label}] as ${principal}: expected ${cell.expect[principal]}, got ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
        if (res.statusCode >= 400) {
          const body = JSON.parse(res.body) as { code?: unknown; message?: unknown };
          if (typeof body.code !== 'string' || typeof body.message !== 'string')
            differences.push(`${cell.endpoint} as ${principal}: ${res.statusCode} without the error shape`);
          // Refused by the declared permission: the rule's own code, whatever the target.
          const subject = subjects.get(principal);
          const permission = declared.get(cell.endpoint);
          const refusal = subject && isAction(permission) ? authorize(subject, permission) : undefined;
          if (refusal && body.code !== refusal.code)
            differences.push(
              `${cell.endpoint} as ${principal}: ${body.code as string}, the policy says ${refusal.code}`,
            );
        }
      }
    }
    expect(differences).toEqual([]);
    // ~200 endpoints × 11 principals, one request each: sized to the work on a loaded two-core machine.
  }, 180_000);
});
