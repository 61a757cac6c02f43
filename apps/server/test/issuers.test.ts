/**
 * Issuers, issuer groups, company groups and program options (issue 7) under /app/api/org, on the real
 * database (PGlite and PostgreSQL), signed in as the demo users of each type; and the two features the
 * options gate (reporting-structure upload, two-factor in My Profile).
 */

import { OFFERED_PROGRAM_OPTION_KEYS, REPORTING_UPLOAD_HEADERS } from '@cardportal/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, programOptions } from '../src/db/schema.ts';
import { writeSheet, XLSX_CONTENT_TYPE } from '../src/kernel/xlsx.ts';
import { isFeatureOn } from '../src/modules/issuers/program-options.ts';
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

const send = (client: TestClient, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  client.request({
    method,
    url,
    ...(body === undefined
      ? {}
      : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

const auditRows = (entity: string, entityId: string) =>
  ctx.services.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity, entity), eq(auditEvents.entityId, entityId)));

const companyId = async (number: string) =>
  (await ctx.services.database.db.select().from(companies).where(eq(companies.number, number)))[0]!.id;

beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
});
afterAll(async () => {
  await ctx?.close();
});

describe('issuers', () => {
  const numbers = async (userId: string) => {
    const res = await (await as(userId)).get('/app/api/org/issuers');
    expect(res.statusCode).toBe(200);
    return (res.json() as { rows: { number: string }[] }).rows.map((r) => r.number);
  };

  it('lists the issuers of the caller scope: Z all, H its group, I its own', async () => {
    expect(await numbers('sysadmin01')).toEqual(expect.arrayContaining(['1001', '2001']));
    expect(await numbers('isgadmin01')).toEqual(['1001', '2001']);
    expect(await numbers('issadmin01')).toEqual(['1001']);
    const found = await (await as('sysadmin01')).get('/app/api/org/issuers?q=norte');
    expect((found.json() as { rows: { number: string }[] }).rows.map((r) => r.number)).toEqual(['2001']);
    const short = await (await as('sysadmin01')).get('/app/api/org/issuers?q=x');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'search.tooShort' });
  });

  it('refuses the types without access and answers another tenant issuer as not found', async () => {
    for (const userId of ['admin01', 'cgadmin01', 'active01', 'lvlmgr01', 'agmgr01']) {
      expect((await (await as(userId)).get('/app/api/org/issuers')).statusCode, userId).toBe(403);
    }
    expect((await (await as('issadmin01')).get('/app/api/org/issuers/2001')).statusCode).toBe(404);
    expect((await (await as('issadmin01')).get('/app/api/org/issuers/9999')).statusCode).toBe(404);
    const own = await (await as('issadmin01')).get('/app/api/org/issuers/1001');
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      number: '1001',
      name1: 'Cardportal Demo Bank',
      companyCount: 2,
      allowed: { modify: false, changeStatus: false, maintainCompanyGroups: true, modifyOptions: false },
    });
    expect(own.headers['cache-control']).toBe('no-store');
  });

  it('lets a system administrator create, edit, deactivate and delete an issuer, audited', async () => {
    const z = await as('sysadmin01');
    const groups = (await z.get('/app/api/org/issuer-groups')).json() as { rows: { id: number }[] };
    const created = await send(z, 'POST', '/app/api/org/issuers', {
      number: '7001',
      name1: 'Test Bank',
      ica: '777',
      bankNumber: '0007',
      issuerGroupId: groups.rows[0]!.id,
      cobrand: 'cardportal',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ number: '7001', name2: '', cobrand: 'cardportal', active: true });

    const dup = await send(z, 'POST', '/app/api/org/issuers', {
      number: '7001',
      name1: 'Again',
      ica: '1',
      bankNumber: '1',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'issuer.number.duplicate',
      fieldErrors: { number: 'issuer.number.duplicate' },
    });

    const bad = await send(z, 'POST', '/app/api/org/issuers', {
      number: '12a',
      name1: '<b>',
      ica: '123456789012',
      bankNumber: '',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      fieldErrors: {
        number: 'issuer.number.format',
        name1: 'issuer.name1.invalidCharacters',
        ica: 'issuer.ica.tooLong',
        bankNumber: 'issuer.bankNumber.required',
      },
    });
    const noCobrand = await send(z, 'POST', '/app/api/org/issuers', {
      number: '7002',
      name1: 'X',
      ica: '1',
      bankNumber: '1',
      cobrand: 'nope',
    });
    expect(noCobrand.json()).toMatchObject({ fieldErrors: { cobrand: 'issuer.cobrand.unknown' } });

    const edited = await send(z, 'PATCH', '/app/api/org/issuers/7001', { name2: 'Cards', ica: '778' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name1: 'Test Bank', name2: 'Cards', ica: '778' });

    expect(
      (await send(z, 'PUT', '/app/api/org/issuers/7001/status', { active: false })).json(),
    ).toMatchObject({ active: false });
    expect((await send(z, 'DELETE', '/app/api/org/issuers/7001')).statusCode).toBe(204);
    expect((await z.get('/app/api/org/issuers/7001')).statusCode).toBe(404);

    const events = (await auditRows('issuer', '7001')).map((r) => r.event).sort();
    // The duplicate number refused above is recorded too (a system-wide key: docs/security.md, item 4).
    expect(events).toEqual([
      'issuer.created',
      'issuer.deactivated',
      'issuer.deleted',
      'issuer.updated',
      'uniqueKey.refused',
    ]);
    const update = (await auditRows('issuer', '7001')).find((r) => r.event === 'issuer.updated');
    expect(update?.changes).toEqual({
      name2: { before: '', after: 'Cards' },
      ica: { before: '777', after: '778' },
    });
  });

  it('refuses to delete an issuer in use with the catalogue message', async () => {
    const res = await send(await as('sysadmin01'), 'DELETE', '/app/api/org/issuers/1001');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'issuer.inUse',
      message: 'Cannot delete as there is data associated with this issuer.',
    });
  });

  it('lets H edit the issuers of its group but not move them; I may not edit', async () => {
    const h = await as('isgadmin01');
    const res = await send(h, 'PATCH', '/app/api/org/issuers/2001', { name2: 'Tarjetas' });
    expect(res.statusCode).toBe(200);
    const move = await send(h, 'PATCH', '/app/api/org/issuers/2001', { issuerGroupId: null });
    expect(move.statusCode).toBe(403);
    expect((await send(h, 'POST', '/app/api/org/issuers', { number: '1' })).statusCode).toBe(403);
    expect((await send(h, 'PUT', '/app/api/org/issuers/2001/status', { active: false })).statusCode).toBe(
      403,
    );
    const i = await as('issadmin01');
    expect((await send(i, 'PATCH', '/app/api/org/issuers/1001', { name2: 'x' })).statusCode).toBe(403);
    await send(h, 'PATCH', '/app/api/org/issuers/2001', { name2: 'Tarjetas Corporativas' });
  });
});

describe('issuer groups', () => {
  it('lets Z create, rename and deactivate a group; duplicates refused; H sees only its own', async () => {
    const z = await as('sysadmin01');
    const made = await send(z, 'POST', '/app/api/org/issuer-groups', { name: 'Nordic Banks' });
    expect(made.statusCode, made.body).toBe(200);
    const group = made.json() as { id: number; name: string; active: boolean; issuerCount: number };
    expect(group).toMatchObject({ name: 'Nordic Banks', active: true, issuerCount: 0 });

    const dup = await send(z, 'POST', '/app/api/org/issuer-groups', { name: 'nordic banks' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ fieldErrors: { name: 'issuerGroup.name.duplicate' } });
    const empty = await send(z, 'POST', '/app/api/org/issuer-groups', { name: ' ' });
    expect(empty.json()).toMatchObject({ fieldErrors: { name: 'issuerGroup.name.required' } });

    const renamed = await send(z, 'PATCH', `/app/api/org/issuer-groups/${group.id}`, { name: 'Nordic' });
    expect(renamed.json()).toMatchObject({ name: 'Nordic' });
    const off = await send(z, 'PUT', `/app/api/org/issuer-groups/${group.id}/status`, { active: false });
    expect(off.json()).toMatchObject({ active: false });
    expect((await auditRows('issuerGroup', String(group.id))).map((r) => r.event).sort()).toEqual([
      'issuerGroup.created',
      'issuerGroup.deactivated',
      'issuerGroup.updated',
    ]);

    const h = await as('isgadmin01');
    const seen = (await h.get('/app/api/org/issuer-groups')).json() as { rows: { name: string }[] };
    expect(seen.rows.map((r) => r.name)).toEqual(['Cardportal Demo Banking Group']);
    expect((await send(h, 'PATCH', `/app/api/org/issuer-groups/${group.id}`, { name: 'x' })).statusCode).toBe(
      403,
    );
    expect((await (await as('issadmin01')).get('/app/api/org/issuer-groups')).statusCode).toBe(403);
  });

  it('refuses to deactivate a group that holds active issuers', async () => {
    const z = await as('sysadmin01');
    const groups = (await z.get('/app/api/org/issuer-groups')).json() as {
      rows: { id: number; name: string }[];
    };
    const demo = groups.rows.find((g) => g.name === 'Cardportal Demo Banking Group')!;
    const res = await send(z, 'PUT', `/app/api/org/issuer-groups/${demo.id}/status`, { active: false });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'issuerGroup.hasActiveIssuers' });
  });
});

describe('company groups', () => {
  it('lets I list, create, rename and deactivate the company groups of its issuer', async () => {
    const i = await as('issadmin01');
    const list = (await i.get('/app/api/org/issuers/1001/company-groups')).json() as {
      rows: { name: string; activeCompanyCount: number }[];
      canMaintain: boolean;
    };
    expect(list.canMaintain).toBe(true);
    expect(list.rows).toEqual([
      expect.objectContaining({ name: 'Demo Manufacturing Group', activeCompanyCount: 2 }),
    ]);

    const made = await send(i, 'POST', '/app/api/org/issuers/1001/company-groups', { name: 'Retail' });
    expect(made.statusCode, made.body).toBe(200);
    const id = (made.json() as { id: number }).id;
    const dup = await send(i, 'POST', '/app/api/org/issuers/1001/company-groups', { name: 'RETAIL' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ fieldErrors: { name: 'companyGroup.name.duplicate' } });
    const tooLong = await send(i, 'POST', '/app/api/org/issuers/1001/company-groups', {
      name: 'x'.repeat(41),
    });
    expect(tooLong.json()).toMatchObject({ fieldErrors: { name: 'companyGroup.name.tooLong' } });

    expect(
      (await send(i, 'PATCH', `/app/api/org/issuers/1001/company-groups/${id}`, { name: 'Shops' })).json(),
    ).toMatchObject({ name: 'Shops' });
    expect(
      (
        await send(i, 'PUT', `/app/api/org/issuers/1001/company-groups/${id}/status`, { active: false })
      ).json(),
    ).toMatchObject({ active: false });
    expect((await auditRows('companyGroup', `1001/${id}`)).map((r) => r.event).sort()).toEqual([
      'companyGroup.created',
      'companyGroup.deactivated',
      'companyGroup.updated',
    ]);
    // Another issuer's group through this issuer's path, and another issuer: not found.
    expect((await i.get('/app/api/org/issuers/2001/company-groups')).statusCode).toBe(404);
    const norte = (await (await as('sysadmin01')).get('/app/api/org/issuers/2001/company-groups')).json() as {
      rows: { id: number }[];
    };
    const foreign = await send(i, 'PATCH', `/app/api/org/issuers/1001/company-groups/${norte.rows[0]!.id}`, {
      name: 'Mine',
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses to deactivate a company group that still holds active companies', async () => {
    const i = await as('issadmin01');
    const list = (await i.get('/app/api/org/issuers/1001/company-groups')).json() as {
      rows: { id: number; name: string }[];
    };
    const demo = list.rows.find((g) => g.name === 'Demo Manufacturing Group')!;
    const res = await send(i, 'PUT', `/app/api/org/issuers/1001/company-groups/${demo.id}/status`, {
      active: false,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'companyGroup.hasActiveCompanies' });
  });

  it('shows G its own company group only, read-only; H may create one', async () => {
    const g = (await (await as('cgadmin01')).get('/app/api/org/issuers/1001/company-groups')).json() as {
      rows: { name: string }[];
      canMaintain: boolean;
    };
    expect(g).toMatchObject({ canMaintain: false, rows: [{ name: 'Demo Manufacturing Group' }] });
    expect((await (await as('cgadmin01')).get('/app/api/org/issuers/2001/company-groups')).statusCode).toBe(
      404,
    );
    const h = await send(await as('isgadmin01'), 'POST', '/app/api/org/issuers/2001/company-groups', {
      name: 'Grupo Sur',
    });
    expect(h.statusCode).toBe(200);
  });
});

describe('program options', () => {
  type View = {
    canModify: boolean;
    options: { key: string; issuer: boolean | null; company: boolean | null; effective: boolean }[];
  };
  const option = (view: View, key: string) => view.options.find((o) => o.key === key);

  it('answers each level and the effective value (isFeatureEnabled)', async () => {
    const i = await as('issadmin01');
    const acme = (await i.get('/app/api/org/companies/100001/program-options')).json() as View;
    expect(acme.canModify).toBe(true);
    // Acme is multi-user, so single sign-on is switched off for it (demo data).
    expect(option(acme, 'singleSignOn')).toEqual({
      key: 'singleSignOn',
      issuer: true,
      company: false,
      effective: false,
    });
    expect(option(acme, 'twoFactor')).toEqual({
      key: 'twoFactor',
      issuer: true,
      company: null,
      effective: true,
    });
    const norte = (
      await (await as('isgadmin01')).get('/app/api/org/companies/200001/program-options')
    ).json() as View;
    expect(option(norte, 'twoFactor')).toEqual({
      key: 'twoFactor',
      issuer: false,
      company: null,
      effective: false,
    });
    const issuer = (await i.get('/app/api/org/issuers/1001/program-options')).json() as View;
    expect(issuer.canModify).toBe(false);
    expect(option(issuer, 'twoFactor')).toMatchObject({ issuer: true, effective: true });
    expect((await i.get('/app/api/org/companies/200001/program-options')).statusCode).toBe(404);
    expect(
      (await (await as('admin01')).get('/app/api/org/companies/100001/program-options')).statusCode,
    ).toBe(403);
  });

  it('offers only the options whose feature exists; stored rows of the others change nothing', async () => {
    const i = await as('issadmin01');
    for (const url of [
      '/app/api/org/companies/100001/program-options',
      '/app/api/org/issuers/1001/program-options',
    ]) {
      const view = (await i.get(url)).json() as View;
      expect(view.options.map((o) => o.key)).toEqual([...OFFERED_PROGRAM_OPTION_KEYS]);
    }
    // The demo issuer 1001 has a stored "on" row for expense reports (a feature still to come): off.
    const [stored] = await ctx.services.database.db
      .select()
      .from(programOptions)
      .where(and(eq(programOptions.key, 'expenseReports'), eq(programOptions.level, 'issuer')));
    expect(stored?.enabled).toBe(true);
    expect(await isFeatureOn(ctx.services.database.db, await companyId('100002'), 'expenseReports')).toBe(
      false,
    );
    // Setting one is refused, naming the option, at either level; nothing is written.
    const z = await as('sysadmin01');
    for (const [url, key] of [
      ['/app/api/org/issuers/1001/program-options', 'wallet'],
      ['/app/api/org/companies/100002/program-options', 'expenseReports'],
      ['/app/api/org/companies/100002/program-options', 'virtualCards'],
    ] as const) {
      const res = await send(z, 'PUT', url, { options: { [key]: false } });
      expect(res.statusCode, `${url} ${key}`).toBe(400);
      expect(res.json().fieldErrors).toEqual({ [`options.${key}`]: 'programOption.notOffered' });
    }
    expect((await auditRows('company', '100002')).filter((r) => r.event === 'programOption.updated')).toEqual(
      [],
    );
  });

  it('lets a company switch off and back (inherit) what its issuer has on, audited', async () => {
    const i = await as('issadmin01');
    const off = await send(i, 'PUT', '/app/api/org/companies/100002/program-options', {
      options: { accessAsUser: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(option(off.json() as View, 'accessAsUser')).toMatchObject({ company: false, effective: false });
    expect(await isFeatureOn(ctx.services.database.db, await companyId('100002'), 'accessAsUser')).toBe(
      false,
    );
    const inherit = await send(i, 'PUT', '/app/api/org/companies/100002/program-options', {
      options: { accessAsUser: null },
    });
    expect(option(inherit.json() as View, 'accessAsUser')).toMatchObject({
      company: null,
      effective: true,
    });
    const rows = await auditRows('company', '100002');
    expect(rows.filter((r) => r.event === 'programOption.updated').map((r) => r.changes)).toEqual([
      { accessAsUser: { before: null, after: false } },
      { accessAsUser: { before: false, after: null } },
    ]);
  });

  it('refuses a company-level "on" for an option its issuer has off', async () => {
    const res = await send(await as('isgadmin01'), 'PUT', '/app/api/org/companies/200001/program-options', {
      options: { twoFactor: true, accessAsUser: false },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'programOption.issuerOff',
      fieldErrors: { twoFactor: 'programOption.issuerOff' },
    });
    // Nothing was written: access as user is still on for Norte.
    expect(await isFeatureOn(ctx.services.database.db, await companyId('200001'), 'accessAsUser')).toBe(true);
  });

  it('validates the body: unknown keys and non-booleans are 400', async () => {
    const z = await as('sysadmin01');
    const unknown = await send(z, 'PUT', '/app/api/org/issuers/1001/program-options', {
      options: { teleport: true },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fieldErrors).toEqual({ options: 'programOption.unknown' });
    const notBool = await send(z, 'PUT', '/app/api/org/issuers/1001/program-options', {
      options: { twoFactor: 'yes' },
    });
    expect(notBool.statusCode).toBe(400);
    const nullAtIssuer = await send(z, 'PUT', '/app/api/org/issuers/1001/program-options', {
      options: { twoFactor: null },
    });
    expect(nullAtIssuer.statusCode).toBe(400);
  });

  it('lets Z and H set issuer-level options (an issuer "off" turns the feature off for its companies)', async () => {
    const h = await as('isgadmin01');
    const on = await send(h, 'PUT', '/app/api/org/issuers/2001/program-options', {
      options: { twoFactor: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(option(on.json() as View, 'twoFactor')).toMatchObject({ issuer: true, effective: true });
    expect(await isFeatureOn(ctx.services.database.db, await companyId('200001'), 'twoFactor')).toBe(true);
    await send(h, 'PUT', '/app/api/org/issuers/2001/program-options', { options: { twoFactor: false } });
    expect(await isFeatureOn(ctx.services.database.db, await companyId('200001'), 'twoFactor')).toBe(false);
    expect((await auditRows('issuer', '2001')).some((r) => r.event === 'programOption.updated')).toBe(true);
    const i = await send(await as('issadmin01'), 'PUT', '/app/api/org/issuers/1001/program-options', {
      options: { twoFactor: true },
    });
    expect(i.statusCode).toBe(403);
  });

  it('never lets single sign-on be in effect for a multi-user company (seed 001 §6)', async () => {
    const z = await as('sysadmin01');
    const conflict = {
      code: 'programOption.ssoWithMultiUser',
      message: 'Single sign-on cannot be combined with multi-user.',
    };
    const company = { issuerNumber: '1001', number: '100088', name1: 'Sur Viajes' };
    // Issuer 1001 has single sign-on on: a new multi-user company would inherit it.
    const made = await send(z, 'POST', '/app/api/org/companies', { ...company, multiUser: true });
    expect(made.statusCode).toBe(409);
    expect(made.json()).toMatchObject({ ...conflict, fieldErrors: { multiUser: conflict.code } });
    expect((await z.get('/app/api/org/companies/100088')).statusCode).toBe(404);
    expect((await send(z, 'POST', '/app/api/org/companies', company)).statusCode).toBe(200);

    const issuerOptions = '/app/api/org/issuers/1001/program-options';
    const companyOptions = '/app/api/org/companies/100088/program-options';
    expect((await send(z, 'PUT', issuerOptions, { options: { singleSignOn: false } })).statusCode).toBe(200);
    const multi = await send(z, 'PATCH', '/app/api/org/companies/100088', { multiUser: true });
    expect(multi.statusCode, multi.body).toBe(200);
    // The issuer may not switch it back on while the multi-user company would inherit it...
    const back = await send(z, 'PUT', issuerOptions, { options: { singleSignOn: true } });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({ ...conflict, fieldErrors: { singleSignOn: conflict.code } });
    expect(option((await z.get(issuerOptions)).json() as View, 'singleSignOn')).toMatchObject({
      issuer: false,
    });
    // ...but may once that company has it switched off for itself, which it then cannot undo.
    expect((await send(z, 'PUT', companyOptions, { options: { singleSignOn: false } })).statusCode).toBe(200);
    expect((await send(z, 'PUT', issuerOptions, { options: { singleSignOn: true } })).statusCode).toBe(200);
    for (const singleSignOn of [true, null]) {
      const undo = await send(z, 'PUT', companyOptions, { options: { singleSignOn } });
      expect(undo.statusCode, String(singleSignOn)).toBe(409);
      expect(undo.json()).toMatchObject(conflict);
    }
    expect(await isFeatureOn(ctx.services.database.db, await companyId('100088'), 'singleSignOn')).toBe(
      false,
    );
  });
});

describe('features gated by program options', () => {
  const workbook = () => writeSheet([[...REPORTING_UPLOAD_HEADERS], ['B200', 'Warehouse', '', '2', 'B000']]);
  const upload = (client: TestClient, company: string) =>
    client.request({
      method: 'POST',
      url: `/app/api/org/companies/${company}/org-points/upload`,
      payload: Buffer.from(workbook()) as unknown as string,
      headers: { 'content-type': XLSX_CONTENT_TYPE },
    });

  it('refuses the reporting-structure upload when its option is off for the company', async () => {
    const i = await as('issadmin01');
    await send(i, 'PUT', '/app/api/org/companies/100002/program-options', {
      options: { reportingStructureUpload: false },
    });
    const refused = await upload(i, '100002');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'programOption.disabled' });
    await send(i, 'PUT', '/app/api/org/companies/100002/program-options', {
      options: { reportingStructureUpload: null },
    });
    const accepted = await upload(i, '100002');
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('refuses turning two-factor on when its option is off for the user company', async () => {
    // Banco Norte has two-factor off at issuer level (demo data).
    const refused = await send(await as('bncuser01'), 'PUT', '/app/api/profile/two-factor', {
      enabled: true,
      currentPassword: DEMO_PASSWORD,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'programOption.disabled' });
    // Switching it off is always allowed; a user above company level is not gated.
    const off = await send(await as('bncuser01'), 'PUT', '/app/api/profile/two-factor', {
      enabled: false,
      currentPassword: DEMO_PASSWORD,
    });
    expect(off.statusCode).toBe(200);
    const issuerAdmin = await as('issadmin01');
    const above = await send(issuerAdmin, 'PUT', '/app/api/profile/two-factor', {
      enabled: true,
      currentPassword: DEMO_PASSWORD,
    });
    expect(above.statusCode, above.body).toBe(200);
    await send(issuerAdmin, 'PUT', '/app/api/profile/two-factor', {
      enabled: false,
      currentPassword: DEMO_PASSWORD,
    });
  });

  it('isFeatureOn reads one company: its issuer off wins, no rows at all is off', async () => {
    const db = ctx.services.database.db;
    expect(await isFeatureOn(db, await companyId('200001'), 'twoFactor')).toBe(false);
    expect(await isFeatureOn(db, await companyId('100001'), 'twoFactor')).toBe(true);
    expect(await isFeatureOn(db, -1, 'twoFactor')).toBe(false);
    const rows = await db.select().from(programOptions).where(eq(programOptions.key, 'twoFactor'));
    expect(rows.length).toBeGreaterThan(0);
  });
});
