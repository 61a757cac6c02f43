import type {
  AccountCoding,
  AccountingCodeList,
  AccountingScheme,
  AccountingSchemeList,
  AccountingSubset,
  AccountList,
  GroupSchemeList,
} from '@cardportal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * Accounting schemes and subsets (issue 16 item 2): which codes apply to which accounts (own scheme,
 * else the group's, else the company default), each line required or not with its override level and
 * an optional subset; an account's default coding checked against the scheme; a scheme or subset in use
 * cannot be deleted, nor a code or value a scheme, subset or default refers to.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);
const COMPANY = '/app/api/org/companies/100001';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const codes = async () => (await get('admin01', `${COMPANY}/accounting-codes`)).json() as AccountingCodeList;
const codeId = async (name: string) => {
  const code = (await codes()).rows.find((c) => c.name === name);
  if (!code) throw new Error(`no code ${name}`);
  return code.id;
};
const schemes = async () =>
  (await get('admin01', `${COMPANY}/accounting-schemes`)).json() as AccountingSchemeList;

describe('accounting schemes and subsets', () => {
  it('lists the demo schemes: Standard is the default, Travel uses the subset and codes the Travel group', async () => {
    const list = await schemes();
    const standard = list.rows.find((s) => s.name === 'Standard');
    const travel = list.rows.find((s) => s.name === 'Travel');
    expect(standard?.isDefault).toBe(true);
    expect(standard?.lines.map((l) => [l.code.name, l.required, l.override])).toEqual([
      ['Cost centre', true, 'cardholder'],
      ['GL account', true, 'manager'],
      ['Sub-account', false, 'cardholder'],
      ['Project', false, 'cardholder'],
    ]);
    expect(travel?.lines[1]?.subset?.name).toBe('Travel costs');
    expect(travel?.groups).toBe(1);
    const groups = (await get('admin01', `${COMPANY}/accounting-groups`)).json() as GroupSchemeList;
    expect(groups.rows.find((g) => g.name === 'Travel')?.scheme?.name).toBe('Travel');
  });

  it('checks a scheme: known, active codes once each, a dependent code with its parent, a subset of its own code', async () => {
    const gl = await codeId('GL account');
    const sub = await codeId('Sub-account');
    const cost = await codeId('Cost centre');
    const subset = (
      (await get('admin01', `${COMPANY}/accounting-subsets`)).json() as { rows: AccountingSubset[] }
    ).rows[0] as AccountingSubset;
    const create = (body: unknown) => send('admin01', 'POST', `${COMPANY}/accounting-schemes`, body);
    const refused = async (body: unknown) => {
      const res = await create(body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().fieldErrors;
    };
    expect(await refused({ name: 'Empty', lines: [] })).toEqual({ lines: 'accountingScheme.codes.required' });
    expect(await refused({ name: 'Orphan', lines: [{ codeId: sub }] })).toEqual({
      'lines.0.codeId': 'accountingScheme.code.parentMissing',
    });
    expect(await refused({ name: 'Twice', lines: [{ codeId: cost }, { codeId: cost }] })).toEqual({
      'lines.1.codeId': 'accountingScheme.code.duplicate',
    });
    expect(await refused({ name: 'Wrong subset', lines: [{ codeId: cost, subsetId: subset.id }] })).toEqual({
      'lines.0.subsetId': 'accountingScheme.subset.otherCode',
    });
    expect(await refused({ name: 'standard', lines: [{ codeId: cost }] })).toEqual({
      name: 'accountingScheme.name.duplicate',
    });
    const res = await create({
      name: 'Projects',
      isDefault: true,
      lines: [
        { codeId: gl, required: true, override: 'administrator' },
        { codeId: sub, override: 'none' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as AccountingScheme;
    expect(created.lines.map((l) => l.override)).toEqual(['administrator', 'none']);
    // One default at a time: Standard stops being it.
    const after = await schemes();
    expect(after.rows.filter((s) => s.isDefault).map((s) => s.name)).toEqual(['Projects']);
    // The default cannot be deleted; make Standard the default again, then Projects goes.
    expect((await send('admin01', 'DELETE', `${COMPANY}/accounting-schemes/${created.id}`)).json().code).toBe(
      'accountingScheme.inUse',
    );
    const standard = after.rows.find((s) => s.name === 'Standard') as AccountingScheme;
    const put = await send('admin01', 'PUT', `${COMPANY}/accounting-schemes/${standard.id}`, {
      name: 'Standard',
      isDefault: true,
      lines: standard.lines.map((l) => ({ codeId: l.code.id, required: l.required, override: l.override })),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await send('admin01', 'DELETE', `${COMPANY}/accounting-schemes/${created.id}`)).statusCode).toBe(
      204,
    );
  });

  it('keeps subsets to one code’s known values and refuses deleting what is in use', async () => {
    const gl = await codeId('GL account');
    const res = await send('admin01', 'POST', `${COMPANY}/accounting-subsets`, {
      name: 'Office',
      codeId: gl,
      values: ['6300', ' 6400 ', '6300', '9999'],
    });
    expect(res.json().fieldErrors).toEqual({ values: 'accountingSubset.values.unknown' });
    expect(res.json().message).toContain('9999');
    const ok = await send('admin01', 'POST', `${COMPANY}/accounting-subsets`, {
      name: 'Office',
      codeId: gl,
      values: ['6300', ' 6400 ', '6300'],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect((ok.json() as AccountingSubset).values.map((v) => v.value)).toEqual(['6300', '6400']);
    const travelCosts = (
      (await get('admin01', `${COMPANY}/accounting-subsets`)).json() as { rows: AccountingSubset[] }
    ).rows.find((s) => s.name === 'Travel costs') as AccountingSubset;
    expect(travelCosts.usedBy).toEqual(['Travel']);
    const inUse = await send('admin01', 'DELETE', `${COMPANY}/accounting-subsets/${travelCosts.id}`);
    expect(inUse.json().code).toBe('accountingSubset.inUse');
    expect(
      (await send('admin01', 'DELETE', `${COMPANY}/accounting-subsets/${(ok.json() as AccountingSubset).id}`))
        .statusCode,
    ).toBe(204);
    // A code in a scheme and a value in a subset are in use too.
    expect((await send('admin01', 'DELETE', `${COMPANY}/accounting-codes/${gl}`)).json().code).toBe(
      'accountingCode.inUse',
    );
    const value6100 = travelCosts.values.find((v) => v.value === '6100');
    expect(
      (await send('admin01', 'DELETE', `${COMPANY}/accounting-codes/${gl}/values/${value6100?.id}`)).json()
        .code,
    ).toBe('accountingValue.inUse');
  });

  it("codes an account by its own scheme, else its group's, else the default, and checks its defaults", async () => {
    const accounts = ((await get('admin01', `${COMPANY}/accounts`)).json() as AccountList).rows;
    const travelAccount = accounts.find((a) => a.group?.name === 'Travel' && a.status !== 'Closed');
    if (!travelAccount) throw new Error('demo: an open Travel account');
    const coding = async () =>
      (await get('admin01', `${COMPANY}/accounts/${travelAccount.id}/coding`)).json() as AccountCoding;
    const before = await coding();
    expect(before).toMatchObject({ source: 'group', scheme: { name: 'Travel' }, ownScheme: null });
    const [cost, gl, sub] = before.defaults.map((d) => d.code.id) as [number, number, number];
    const put = (body: unknown) =>
      send('admin01', 'PUT', `${COMPANY}/accounts/${travelAccount.id}/coding`, body);

    // GL 6300 is outside the Travel subset; HOTEL belongs to 6100, not 6200; the project is not in Travel.
    const bad = await put({
      schemeId: null,
      defaults: { [cost]: '9999', [gl]: '6300', [String(await codeId('Project'))]: 'P1' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toMatchObject({
      [`defaults.${cost}`]: 'accountCoding.value.unknown',
      [`defaults.${gl}`]: 'accountCoding.value.notInSubset',
    });
    expect(bad.json().fieldErrors[`defaults.${await codeId('Project')}`]).toBe(
      'accountCoding.code.notInScheme',
    );
    const otherParent = await put({ schemeId: null, defaults: { [gl]: '6200', [sub]: 'hotel' } });
    expect(otherParent.json().fieldErrors).toEqual({
      [`defaults.${sub}`]: 'accountCoding.value.otherParent',
    });
    const good = await put({ schemeId: null, defaults: { [cost]: '4200', [gl]: '6100', [sub]: 'hotel' } });
    expect(good.statusCode, good.body).toBe(200);
    expect((good.json() as AccountCoding).defaults.map((d) => d.value)).toEqual(['4200', '6100', 'HOTEL']);

    // Its own scheme wins over the group's; the defaults outside it are dropped.
    const standard = (await schemes()).rows.find((s) => s.name === 'Standard') as AccountingScheme;
    const own = await put({
      schemeId: standard.id,
      defaults: { [cost]: '4200', [String(await codeId('Project'))]: 'PRJ-7' },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ source: 'account', scheme: { name: 'Standard' } });
    expect((own.json() as AccountCoding).defaults.map((d) => d.value)).toEqual(['4200', null, null, 'PRJ-7']);
    // A scheme assigned to an account cannot be deleted; a value a default names cannot either.
    const inUse = await send('admin01', 'DELETE', `${COMPANY}/accounting-schemes/${standard.id}`);
    expect(inUse.json().code).toBe('accountingScheme.inUse');
    const value4200 = (
      (await get('admin01', `${COMPANY}/accounting-codes/${cost}/values?q=4200`)).json() as {
        rows: { id: number }[];
      }
    ).rows[0];
    expect(
      (await send('admin01', 'DELETE', `${COMPANY}/accounting-codes/${cost}/values/${value4200?.id}`)).json()
        .code,
    ).toBe('accountingValue.inUse');
    // Another company's account is not found.
    expect(
      (await get('admin01', `/app/api/org/companies/100002/accounts/${travelAccount.id}/coding`)).statusCode,
    ).toBe(404);
    expect((await get('admin01', `${COMPANY}/accounts/999999/coding`)).statusCode).toBe(404);
  });

  it("changes a group's scheme and names an unknown one", async () => {
    const groups = (await get('admin01', `${COMPANY}/accounting-groups`)).json() as GroupSchemeList;
    const purchasing = groups.rows.find((g) => g.name === 'Purchasing');
    if (!purchasing) throw new Error('demo: Purchasing group');
    const standard = (await schemes()).rows.find((s) => s.name === 'Standard') as AccountingScheme;
    const unknown = await send('admin01', 'PUT', `${COMPANY}/accounting-groups/${purchasing.groupId}`, {
      schemeId: 999_999,
    });
    expect(unknown.json().fieldErrors).toEqual({ schemeId: 'accountingScheme.notFound' });
    const set = await send('admin01', 'PUT', `${COMPANY}/accounting-groups/${purchasing.groupId}`, {
      schemeId: standard.id,
    });
    expect(set.json()).toMatchObject({ name: 'Purchasing', scheme: { name: 'Standard' } });
    expect((await schemes()).rows.find((s) => s.name === 'Standard')?.groups).toBe(1);
    const cleared = await send('admin01', 'PUT', `${COMPANY}/accounting-groups/${purchasing.groupId}`, {
      schemeId: null,
    });
    expect(cleared.json().scheme).toBeNull();
  });
});
