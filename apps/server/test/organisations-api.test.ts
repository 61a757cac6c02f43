/**
 * Organisation endpoints (issue 7): companies and the reporting structure under /app/api/org, on the
 * real database (PGlite and PostgreSQL), signed in as the demo users of each type.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPORTING_UPLOAD_HEADERS } from '@cardportal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, orgPoints } from '../src/db/schema.ts';
import { readFirstSheet, writeSheet, XLSX_CONTENT_TYPE } from '../src/kernel/xlsx.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
const clients = new Map<string, TestClient>();

async function as(userId: string): Promise<TestClient> {
  const cached = clients.get(userId);
  if (cached) return cached;
  const client = new TestClient(ctx.app);
  const res = await client.login(userId, DEMO_PASSWORD);
  expect(res.body, `${userId} signs in`).toBe('/app/');
  clients.set(userId, client);
  return client;
}

const json = (client: TestClient, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  client.request({
    method,
    url,
    ...(body === undefined
      ? {}
      : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

const upload = (client: TestClient, company: string, bytes: Uint8Array | Buffer, type = XLSX_CONTENT_TYPE) =>
  client.request({
    method: 'POST',
    url: `/app/api/org/companies/${company}/org-points/upload`,
    payload: Buffer.from(bytes) as unknown as string,
    headers: { 'content-type': type },
  });

const HEADERS = [...REPORTING_UPLOAD_HEADERS];
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
});
afterAll(async () => {
  await ctx?.close();
});

describe('companies', () => {
  it('lists only the companies in the caller scope', async () => {
    const numbers = async (userId: string) =>
      (
        (await (await as(userId)).get('/app/api/org/companies')).json() as { rows: { number: string }[] }
      ).rows.map((r) => r.number);
    expect(await numbers('issadmin01')).toEqual(['100001', '100002']);
    expect(await numbers('isgadmin01')).toEqual(['100001', '100002', '200001']);
    expect(await numbers('sysadmin01')).toEqual(expect.arrayContaining(['100001', '100002', '200001']));
    expect(await numbers('admin01')).toEqual(['100001']);
    expect(await numbers('bncadmin01')).toEqual(['200001']);
    expect(await numbers('lvlmgr01')).toEqual(['100001']);
  });

  it('refuses cardholders (403) and visitors without a session (401)', async () => {
    expect((await (await as('active01')).get('/app/api/org/companies')).statusCode).toBe(403);
    expect((await new TestClient(ctx.app).get('/app/api/org/companies')).statusCode).toBe(401);
  });

  it('answers another tenant company as not found', async () => {
    const res = await (await as('bncadmin01')).get('/app/api/org/companies/100001');
    expect(res.statusCode).toBe(404);
    expect((await (await as('bncadmin01')).get('/app/api/org/companies/100001/org-points')).statusCode).toBe(
      404,
    );
  });

  it('checks search criteria and pages by key', async () => {
    const admin = await as('issadmin01');
    const short = await admin.get('/app/api/org/companies?q=A');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'search.tooShort', fieldErrors: { q: 'search.tooShort' } });
    const found = await admin.get('/app/api/org/companies?q=acme');
    expect(found.json()).toMatchObject({
      total: 1,
      pageCount: 1,
      nextCursor: null,
      prevCursor: null,
      rows: [{ number: '100001' }],
    });
    const bad = await admin.get('/app/api/org/companies?after=eyJsIjoiY29tcGFuaWVzIiwiayI6WzFdfQ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'page.cursorInvalid',
      fieldErrors: { after: 'page.cursorInvalid' },
    });
    const all = (await admin.get('/app/api/org/companies')).json();
    const after = encodeURIComponent(
      Buffer.from(JSON.stringify({ l: 'companies', k: [all.rows[0].number] })).toString('base64url'),
    );
    const rest = (await admin.get(`/app/api/org/companies?after=${after}`)).json();
    expect(rest.rows).toEqual(all.rows.slice(1));
  });

  it('lets an issuer administrator create a company in its issuer, with every field checked', async () => {
    const admin = await as('issadmin01');
    const made = await json(admin, 'POST', '/app/api/org/companies', {
      issuerNumber: '1001',
      number: '100077',
      name1: 'Castor Foods',
      name2: 'EMEA',
      groupName: 'Food Division',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({
      number: '100077',
      name1: 'Castor Foods',
      groupName: 'Food Division',
      active: true,
    });

    const duplicate = await json(admin, 'POST', '/app/api/org/companies', {
      issuerNumber: '1001',
      number: '100077',
      name1: 'Again',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'company.number.duplicate' });

    const bad = await json(admin, 'POST', '/app/api/org/companies', {
      issuerNumber: '1001',
      number: '12ab',
      name1: '<b>x</b>',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fieldErrors)).toEqual(expect.arrayContaining(['number', 'name1']));

    // Another issuer (Banco Norte Demo) is outside this administrator's scope.
    const foreign = await json(admin, 'POST', '/app/api/org/companies', {
      issuerNumber: '2001',
      number: '200077',
      name1: 'Elsewhere',
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ fieldErrors: { issuerNumber: 'company.issuerNumber.unknown' } });

    // A company administrator may not create companies.
    const refused = await json(await as('admin01'), 'POST', '/app/api/org/companies', {
      issuerNumber: '1001',
      number: '100078',
      name1: 'Nope',
    });
    expect(refused.statusCode).toBe(403);

    const [row] = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'company.created'));
    expect(row).toMatchObject({ actorUserId: 'issadmin01', entity: 'company', entityId: '100077' });
  });

  it('turns multi-user on and never off; deletes only what nothing refers to', async () => {
    const admin = await as('issadmin01');
    // Seed 001 §6: not while single sign-on is in effect (issuer 1001 has it on, the company inherits).
    const withSso = await json(admin, 'PATCH', '/app/api/org/companies/100077', { multiUser: true });
    expect(withSso.statusCode).toBe(409);
    expect(withSso.json()).toMatchObject({
      code: 'programOption.ssoWithMultiUser',
      message: 'Single sign-on cannot be combined with multi-user.',
      fieldErrors: { multiUser: 'programOption.ssoWithMultiUser' },
    });
    const issuerOptions = '/app/api/org/issuers/1001/program-options';
    const z = await as('sysadmin01');
    const ssoOff = await json(z, 'PUT', issuerOptions, { options: { singleSignOn: false } });
    expect(ssoOff.statusCode, ssoOff.body).toBe(200);
    expect(
      (await json(admin, 'PATCH', '/app/api/org/companies/100077', { multiUser: true })).json(),
    ).toMatchObject({
      multiUser: true,
    });
    const off = await json(admin, 'PATCH', '/app/api/org/companies/100077', { multiUser: false });
    expect(off.statusCode).toBe(409);
    expect(off.json()).toMatchObject({ code: 'company.multiUserCannotBeTurnedOff' });
    // Nor single sign-on back on while the multi-user company would inherit it, or by its own setting.
    const back = await json(z, 'PUT', issuerOptions, { options: { singleSignOn: true } });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({ code: 'programOption.ssoWithMultiUser' });
    const own = await json(admin, 'PUT', '/app/api/org/companies/100077/program-options', {
      options: { singleSignOn: true },
    });
    expect(own.statusCode).toBe(409);

    const inUse = await json(admin, 'DELETE', '/app/api/org/companies/100001');
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({
      code: 'company.inUse',
      message: 'Cannot delete as there is data associated with this company.',
    });
    const deactivated = await json(admin, 'PUT', '/app/api/org/companies/100077/status', { active: false });
    expect(deactivated.json()).toMatchObject({ active: false });
    expect((await json(admin, 'DELETE', '/app/api/org/companies/100077')).statusCode).toBe(204);
    const gone = await ctx.services.database.db
      .select()
      .from(companies)
      .where(eq(companies.number, '100077'));
    expect(gone).toHaveLength(0);
    // With the multi-user company gone, the issuer may switch single sign-on on again (Acme has it off).
    expect((await json(z, 'PUT', issuerOptions, { options: { singleSignOn: true } })).statusCode).toBe(200);
  });

  it('lets a company group administrator rename, and not a company administrator', async () => {
    const renamed = await json(await as('cgadmin01'), 'PATCH', '/app/api/org/companies/100002', {
      name2: 'Nordic',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name2: 'Nordic' });
    expect(
      (await json(await as('admin01'), 'PATCH', '/app/api/org/companies/100001', { name2: 'x' })).statusCode,
    ).toBe(403);
  });
});

describe('reporting structure', () => {
  it('answers the tree of a company', async () => {
    const res = await (await as('admin01')).get('/app/api/org/companies/100001/org-points');
    expect(res.statusCode).toBe(200);
    const tree = res.json();
    expect(tree).toMatchObject({ canModify: true, roots: [{ number: 'A000' }] });
    expect(tree.roots[0].children.map((c: { number: string }) => c.number)).toEqual(['A100', 'A200']);
    expect(
      (await (await as('lvlmgr01')).get('/app/api/org/companies/100001/org-points')).json().canModify,
    ).toBe(false);
  });

  it('creates, moves and refuses a loop or a level not below the parent', async () => {
    const admin = await as('admin01');
    const url = '/app/api/org/companies/100001/org-points';
    const made = await json(admin, 'POST', url, {
      number: 'A130',
      name1: 'Plant West',
      reportingLevel: 3,
      reportsTo: 'A100',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(
      (
        await json(admin, 'POST', url, {
          number: 'a130',
          name1: 'Again',
          reportingLevel: 3,
          reportsTo: 'A100',
        })
      ).json(),
    ).toMatchObject({
      code: 'orgPoint.number.duplicate',
    });
    const loop = await json(admin, 'PATCH', `${url}/A100`, { reportsTo: 'A110', reportingLevel: 4 });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().code).toMatch(/^orgPoint\./);
    const level = await json(admin, 'POST', url, {
      number: 'A140',
      name1: 'Too high',
      reportingLevel: 2,
      reportsTo: 'A100',
    });
    expect(level.json()).toMatchObject({ code: 'orgPoint.reportingLevel.notBelowParent' });
    const moved = await json(admin, 'PATCH', `${url}/A130`, { reportsTo: 'A200' });
    expect(moved.statusCode, moved.body).toBe(200);
    const inUse = await json(admin, 'DELETE', `${url}/A100`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({
      code: 'orgPoint.inUse',
      message: 'Cannot delete as there is data associated with this org point.',
    });
    expect((await json(admin, 'PUT', `${url}/A200/status`, { active: false })).json()).toMatchObject({
      code: 'orgPoint.hasActiveChildren',
    });
    expect((await json(admin, 'DELETE', `${url}/A130`)).statusCode).toBe(204);
  });

  it('does not let another tenant or a manager change it', async () => {
    const body = { number: 'X1', name1: 'Intruder', reportingLevel: 2, reportsTo: 'A000' };
    expect(
      (await json(await as('bncadmin01'), 'POST', '/app/api/org/companies/100001/org-points', body))
        .statusCode,
    ).toBe(404);
    expect(
      (await json(await as('lvlmgr01'), 'POST', '/app/api/org/companies/100001/org-points', body)).statusCode,
    ).toBe(403);
  });
});

describe('reporting structure upload (.xlsx)', () => {
  const url = '/app/api/org/companies/100002/org-points';

  it('downloads the structure as a workbook that uploads back unchanged', async () => {
    const admin = await as('cgadmin01');
    const res = await admin.get(`${url}.xlsx`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(XLSX_CONTENT_TYPE);
    const rows = readFirstSheet(res.rawPayload);
    expect(rows[0]).toEqual(HEADERS);
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(['B000', 'B100', 'B110']));
    const again = await upload(admin, '100002', res.rawPayload);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ created: 0, updated: rows.length - 1 });
  });

  it('creates and updates every row in one go, parents further down the file included', async () => {
    const admin = await as('cgadmin01');
    const file = writeSheet([
      HEADERS,
      ['B111', 'Depot East Annex', '', '4', 'B110'],
      ['B200', 'Finance', 'HQ', '2', 'B000'],
      ['', '', '', '', ''],
      ['B110', 'Depot East', 'renamed', '3', 'B100'],
    ]);
    const res = await upload(admin, '100002', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: 2, updated: 1 });
    const tree = (await admin.get(url)).json();
    expect(JSON.stringify(tree)).toContain('"number":"B111"');
  });

  it('reads a workbook saved by a spreadsheet program (LibreOffice Calc: shared strings, numbers, columns in another order)', async () => {
    const file = readFileSync(
      path.join(import.meta.dirname, 'fixtures/reporting-structure-libreoffice.xlsx'),
    );
    expect(readFirstSheet(file)[1]).toEqual(['', 'L000', 'Lumen Holdings', 'Zürich & Co', '1']);
    const admin = await as('sysadmin01');
    const made = await json(admin, 'POST', '/app/api/org/companies', {
      issuerNumber: '2001',
      number: '200050',
      name1: 'Lumen',
    });
    expect(made.statusCode, made.body).toBe(200);
    const res = await upload(admin, '200050', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: 4, updated: 0 });
    const tree = (await admin.get('/app/api/org/companies/200050/org-points')).json();
    expect(tree.roots).toHaveLength(1);
    expect(tree.roots[0]).toMatchObject({ number: 'L000', name2: 'Zürich & Co' });
    expect(tree.roots[0].children.map((c: { number: string }) => c.number).sort()).toEqual(['42', 'L100']);
  });

  it('refuses the whole file with a per-row report when one row is wrong or closes a loop', async () => {
    const admin = await as('cgadmin01');
    const db = ctx.services.database.db;
    const before = await db.select().from(orgPoints);
    const file = writeSheet([
      HEADERS,
      ['B300', 'Fine row', '', '2', 'B000'],
      ['B301', '', '', '3', 'B300'],
      ['B100', 'Fleet', '', '4', 'B111'],
      ['B302', 'Orphan', '', '3', 'NOPE'],
      ['B303', 'Bad level', '', 'x', 'B000'],
    ]);
    const res = await upload(admin, '100002', file);
    expect(res.statusCode).toBe(422);
    const body = res.json() as { code: string; rows: { row: number; field: string; problem: string }[] };
    expect(body.code).toBe('upload.rows');
    expect(body.rows).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'name1', problem: 'orgPoint.name1.required' },
        expect.objectContaining({ row: 4, problem: 'orgPoint.reportsTo.cycle' }),
        expect.objectContaining({ row: 5, problem: 'orgPoint.reportsTo.unknown' }),
        expect.objectContaining({ row: 6, field: 'reportingLevel' }),
      ]),
    );
    expect(await db.select().from(orgPoints)).toEqual(before);
  });

  it('refuses missing headers, a virus signature, a file that is not a workbook, the wrong type and more than 4 MB', async () => {
    const admin = await as('cgadmin01');
    const headers = await upload(
      admin,
      '100002',
      writeSheet([
        ['Org Point Number', 'Name 1'],
        ['B9', 'x'],
      ]),
    );
    expect(headers.statusCode).toBe(400);
    expect(headers.json()).toMatchObject({ code: 'upload.missingHeaders' });
    expect(headers.json().message).toContain('Reporting Level');

    const infected = await upload(admin, '100002', writeSheet([HEADERS, ['B9', EICAR, '', '2', 'B000']]));
    expect(infected.statusCode).toBe(422);
    expect(infected.json()).toMatchObject({ code: 'upload.virus' });
    const rawVirus = await upload(admin, '100002', Buffer.from(`PK\u0003\u0004${EICAR}`));
    expect(rawVirus.json()).toMatchObject({ code: 'upload.virus' });

    const notXlsx = await upload(admin, '100002', Buffer.from('number,name\n1,x\n'));
    expect(notXlsx.statusCode).toBe(415);
    expect(notXlsx.json()).toMatchObject({ code: 'upload.unsupportedFormat' });

    const wrongType = await upload(admin, '100002', Buffer.from('{}'), 'application/json');
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toMatchObject({ code: 'upload.unsupportedFormat' });

    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 1);
    big.write('PK\u0003\u0004', 0, 'latin1');
    const tooBig = await upload(admin, '100002', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({
      code: 'upload.tooLarge',
      message: 'File size limit of 4 megabytes exceeded.',
    });
  });

  it('is not open to a level manager or another tenant', async () => {
    const file = writeSheet([HEADERS, ['B400', 'x', '', '2', 'B000']]);
    expect((await upload(await as('lvlmgr01'), '100002', file)).statusCode).toBe(403);
    expect((await upload(await as('bncadmin01'), '100002', file)).statusCode).toBe(404);
  });
});
