import type { ApprovalProfile, ExpenseSettings, ExpenseType, MileageRate, TaxRate } from '@cardportal/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, expenseTypes } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * A company's expense configuration (issue 17 item 1): expense types (≤ 50, ≤ 10 properties), the policy
 * (limits per type, receipts above an amount, descriptions 10–255, instructions ≤ 900), mileage rates
 * (≤ 50, > 0, no rate twice per unit), tax rates (≤ 10), approval profiles (a required limit, approval
 * percentage 1–100, approvers of the company) and thresholds; each change audited, each refusal named.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);
const BASE = '/app/api/org/companies/100001/expense-settings';
/** Borealis (no demo expense set-up), administered by the company group administrator. */
const BOREALIS = '/app/api/org/companies/100002/expense-settings';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const settings = async (user = 'admin01', base = BASE) => (await get(user, base)).json() as ExpenseSettings;

async function created<T>(path: string, body: unknown, user = 'admin01', base = BASE): Promise<T> {
  const res = await send(user, 'POST', `${base}/${path}`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as T;
}

const refusal = async (
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  user = 'admin01',
  base = BASE,
) => {
  const res = await send(user, method, `${base}/${path}`, body);
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, res.body).toBeLessThan(500);
  return res.json() as { code: string; fieldErrors?: Record<string, string> };
};

async function lastAudit(event: string) {
  const [row] = await ctx.app.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.event, event))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row;
}

describe('expense types', () => {
  it('keeps names unique in any case, at most 10 properties with labels of at most 25, and audits each change', async () => {
    const hotel = await created<ExpenseType>('types', {
      name: ' Hotel stay ',
      properties: [
        { label: 'Nights', kind: 'number', required: true },
        { label: 'Guest', kind: 'text' },
      ],
    });
    expect(hotel).toMatchObject({ name: 'Hotel stay', category: 'general', active: true, limit: null });
    expect(hotel.properties).toEqual([
      { label: 'Nights', kind: 'number', required: true },
      { label: 'Guest', kind: 'text', required: false },
    ]);
    expect((await refusal('POST', 'types', { name: 'HOTEL STAY' })).fieldErrors).toEqual({
      name: 'expenseType.name.duplicate',
    });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ label: `P${i}`, kind: 'text' }));
    expect((await refusal('POST', 'types', { name: 'Many', properties: eleven })).fieldErrors).toEqual({
      properties: 'expenseType.properties.tooMany',
    });
    expect(
      (
        await refusal('POST', 'types', {
          name: 'Long',
          properties: [{ label: 'x'.repeat(26), kind: 'text' }],
        })
      ).fieldErrors,
    ).toEqual({ properties: 'expenseType.properties.labelTooLong' });
    expect((await refusal('POST', 'types', { name: 'x'.repeat(51) })).fieldErrors).toEqual({
      name: 'expenseType.name.tooLong',
    });
    expect((await refusal('POST', 'types', { name: '<b>Meals</b>' })).fieldErrors).toEqual({
      name: 'expenseType.name.invalidCharacters',
    });

    const changed = await send('admin01', 'PUT', `${BASE}/types/${hotel.id}`, {
      name: 'Lodging',
      category: 'general',
      properties: [],
      active: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Lodging', active: false, properties: [] });
    // The demo's "Hotel" is taken: a change may not take another type's name either.
    expect((await refusal('PUT', `types/${hotel.id}`, { name: 'hotel' })).fieldErrors).toEqual({
      name: 'expenseType.name.duplicate',
    });
    const audit = await lastAudit('expenseType.updated');
    expect(audit?.changes).toMatchObject({
      name: { before: 'Hotel stay', after: 'Lodging' },
      active: { before: true, after: false },
    });
  });
});

describe('the expense policy', () => {
  it('sets the currency, receipts and limits per type in minor units, refusing bad amounts by field', async () => {
    const meals = await created<ExpenseType>('types', { name: 'Meals' }, 'cgadmin01', BOREALIS);
    expect(
      (
        await refusal(
          'PUT',
          'policy',
          {
            currency: 'EUR',
            receiptAbove: '25.005',
            descriptionMaxLength: 9,
            workflowInstructions: 'x'.repeat(901),
            limits: [
              { typeId: meals.id, limit: '-5' },
              { typeId: 999999, limit: '1' },
            ],
          },
          'cgadmin01',
          BOREALIS,
        )
      ).fieldErrors,
    ).toEqual({
      receiptAbove: 'money.amount.decimals',
      descriptionMaxLength: 'expensePolicy.descriptionMaxLength.range',
      workflowInstructions: 'expensePolicy.workflowInstructions.tooLong',
      'limits.0.limit': 'expense.amount.positive',
      'limits.1.typeId': 'expensePolicy.limits.type',
    });
    expect((await refusal('PUT', 'policy', { currency: 'XXY' }, 'cgadmin01', BOREALIS)).fieldErrors).toEqual({
      currency: 'expensePolicy.currency.invalid',
    });
    expect((await settings('cgadmin01', BOREALIS)).policy).toBeNull();

    const res = await send('cgadmin01', 'PUT', `${BOREALIS}/policy`, {
      currency: 'eur',
      receiptAbove: '25',
      descriptionMaxLength: 120,
      workflowInstructions: 'Attach every receipt.\nSubmit within 30 days.',
      limits: [{ typeId: meals.id, limit: '60.50', receiptAbove: '10' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      currency: 'EUR',
      exponent: 2,
      receiptAbove: { minor: '2500', currency: 'EUR', exponent: 2 },
      descriptionMaxLength: 120,
      limits: [{ typeId: meals.id, limit: { minor: '6050' }, receiptAbove: { minor: '1000' } }],
    });
    const type = (await settings('cgadmin01', BOREALIS)).types.find((x) => x.id === meals.id);
    expect(type?.limit).toEqual({ minor: '6050', currency: 'EUR', exponent: 2 });
    expect(type?.receiptAbove?.minor).toBe('1000');
    expect((await lastAudit('expensePolicy.saved'))?.changes).toMatchObject({
      currency: { before: null, after: 'EUR' },
      receiptAbove: { before: null, after: '25.00' },
    });
    // A type's deletion takes its limit with it.
    expect((await send('cgadmin01', 'DELETE', `${BOREALIS}/types/${meals.id}`)).statusCode).toBe(204);
    expect((await settings('cgadmin01', BOREALIS)).policy?.limits).toEqual([]);
  });
});

describe('mileage and tax rates', () => {
  it('takes rates above zero with up to four decimals, no rate twice for a unit and currency', async () => {
    const car = await created<MileageRate>('mileage-rates', {
      name: 'Car',
      unit: 'mi',
      currency: 'usd',
      rate: '0.655',
    });
    expect(car).toMatchObject({ name: 'Car', unit: 'mi', currency: 'USD', rate: '0.655', active: true });
    const field = async (body: unknown) => (await refusal('POST', 'mileage-rates', body)).fieldErrors;
    expect(await field({ name: 'Van', unit: 'mi', currency: 'USD', rate: '0.6550' })).toEqual({
      rate: 'mileageRate.rate.duplicate',
    });
    expect(await field({ name: 'Zero', unit: 'km', currency: 'EUR', rate: '0' })).toEqual({
      rate: 'mileageRate.rate.positive',
    });
    expect(await field({ name: 'Neg', unit: 'km', currency: 'EUR', rate: '-1' })).toEqual({
      rate: 'mileageRate.rate.format',
    });
    expect(await field({ name: 'Fine', unit: 'km', currency: 'EUR', rate: '0.12345' })).toEqual({
      rate: 'mileageRate.rate.format',
    });
    expect(await field({ name: 'car', unit: 'km', currency: 'EUR', rate: '0.3' })).toEqual({
      name: 'mileageRate.name.duplicate',
    });
    // The same rate per kilometre is another rate.
    await created<MileageRate>('mileage-rates', {
      name: 'Car (km)',
      unit: 'km',
      currency: 'USD',
      rate: '0.655',
    });
  });

  it('takes at most 10 tax rates above 0 and at most 100 percent', async () => {
    const vat = await created<TaxRate>('tax-rates', { name: 'VAT standard', rate: '19' });
    expect(vat.rate).toBe('19');
    const field = async (body: unknown) => (await refusal('POST', 'tax-rates', body)).fieldErrors;
    expect(await field({ name: 'Too high', rate: '100.001' })).toEqual({ rate: 'taxRate.rate.range' });
    expect(await field({ name: 'None', rate: '0' })).toEqual({ rate: 'taxRate.rate.range' });
    expect(await field({ name: 'Odd', rate: '8.8755' })).toEqual({ rate: 'taxRate.rate.format' });
    const existing = (await settings()).taxRates.length;
    for (let i = existing; i < 10; i++)
      await created<TaxRate>('tax-rates', { name: `Rate ${i}`, rate: `${i + 1}.5` });
    const full = await send('admin01', 'POST', `${BASE}/tax-rates`, { name: 'Eleventh', rate: '7' });
    expect(full.statusCode).toBe(409);
    expect(full.json().code).toBe('taxRate.tooMany');
  });
});

describe('approval profiles and thresholds', () => {
  it('needs an approval limit, a percentage of 1–100, approvers of the company in one profile each', async () => {
    const field = async (body: unknown) => (await refusal('POST', 'approval-profiles', body)).fieldErrors;
    expect(await field({ name: 'Managers', limit: '', currency: 'EUR' })).toEqual({
      limit: 'approvalProfile.limit.required',
    });
    expect(await field({ name: 'Managers', limit: '1000', currency: 'EUR', approvalPercentage: 0 })).toEqual({
      approvalPercentage: 'approvalProfile.percentage.range',
    });
    expect(
      await field({ name: 'Managers', limit: '1000', currency: 'EUR', approvalPercentage: 101 }),
    ).toEqual({
      approvalPercentage: 'approvalProfile.percentage.range',
    });
    // bncadmin01 belongs to another company: not an approver here, and not told apart from an unknown ID.
    expect(
      await field({ name: 'Managers', limit: '1000', currency: 'EUR', approvers: ['bncadmin01'] }),
    ).toEqual({
      approvers: 'approvalProfile.approvers.unknown',
    });
    const managers = await created<ApprovalProfile>('approval-profiles', {
      name: 'Managers',
      limit: '1000',
      currency: 'EUR',
      approvalPercentage: 50,
      approvers: ['TOKEN01', 'multi01'],
    });
    expect(managers).toMatchObject({
      limit: { minor: '100000', currency: 'EUR' },
      approvalPercentage: 50,
      inUse: false,
    });
    expect(managers.approvers.map((a) => a.userId).sort()).toEqual(['multi01', 'token01']);
    // lvlmgr01 approves in the demo's "Line managers": one profile (one approval limit) a person.
    expect(await field({ name: 'Others', limit: '5000', currency: 'EUR', approvers: ['lvlmgr01'] })).toEqual({
      approvers: 'approvalProfile.approvers.taken',
    });

    const threshold = await send('admin01', 'POST', `${BASE}/approval-thresholds`, {
      amount: '2500',
      currency: 'EUR',
      profileId: managers.id,
    });
    expect(threshold.statusCode, threshold.body).toBe(201);
    expect(threshold.json()).toMatchObject({ amount: { minor: '250000' }, profileName: 'Managers' });
    const again = await refusal('POST', 'approval-thresholds', {
      amount: '2500.00',
      currency: 'EUR',
      profileId: managers.id,
    });
    expect(again.fieldErrors).toEqual({ amount: 'approvalThreshold.amount.duplicate' });
    const elsewhere = await refusal('POST', 'approval-thresholds', {
      amount: '10',
      currency: 'EUR',
      profileId: 999999,
    });
    expect(elsewhere.fieldErrors).toEqual({ profileId: 'approvalThreshold.profile.unknown' });

    // A profile thresholds route to is not deleted; once they are gone, it is.
    const inUse = await send('admin01', 'DELETE', `${BASE}/approval-profiles/${managers.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().code).toBe('approvalProfile.inUse');
    expect((await settings()).approvalProfiles.find((p) => p.id === managers.id)?.inUse).toBe(true);
    const id = threshold.json().id as number;
    expect((await send('admin01', 'DELETE', `${BASE}/approval-thresholds/${id}`)).statusCode).toBe(204);
    expect((await send('admin01', 'DELETE', `${BASE}/approval-profiles/${managers.id}`)).statusCode).toBe(
      204,
    );
    expect(await lastAudit('approvalProfile.deleted')).toMatchObject({ entityId: String(managers.id) });
  });

  it('shows the system administrator the set-up read-only and keeps other companies out', async () => {
    const seen = await get('sysadmin01', BASE);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ canModify: false, readOnly: true });
    const write = await send('sysadmin01', 'POST', `${BASE}/tax-rates`, { name: 'Nope', rate: '5' });
    expect(write.statusCode).toBe(403);
    // Another issuer's administrator: the company does not exist for them (404, not 403).
    expect((await get('bncadmin01', BASE)).statusCode).toBe(404);
  });
});

describe('limits under concurrency', () => {
  it('allows at most 50 types a company, counted under the company lock', async () => {
    const [company] = await ctx.app.db.select().from(companies).where(eq(companies.number, '100002'));
    if (!company) throw new Error('demo company 100002');
    const existing = await ctx.app.db
      .select()
      .from(expenseTypes)
      .where(eq(expenseTypes.companyId, company.id));
    await ctx.app.db.insert(expenseTypes).values(
      Array.from({ length: 49 - existing.length }, (_, i) => ({
        companyId: company.id,
        name: `Type ${i}`,
        nameKey: `TYPE ${i}`,
      })),
    );
    // Two at once for the last place: one gets it, the other is told the company is full.
    const answers = await Promise.all(
      ['Last A', 'Last B'].map((name) => send('cgadmin01', 'POST', `${BOREALIS}/types`, { name })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json().code).toBe('expenseType.tooMany');
    // A record of another company is unknown under this one.
    const [other] = await ctx.app.db
      .select({ id: expenseTypes.id })
      .from(expenseTypes)
      .innerJoin(companies, eq(companies.id, expenseTypes.companyId))
      .where(and(eq(companies.number, '100002')))
      .limit(1);
    if (!other) throw new Error('types of company 100002 (made here)');
    expect((await send('admin01', 'DELETE', `${BASE}/types/${other.id}`)).statusCode).toBe(404);
  });
});
