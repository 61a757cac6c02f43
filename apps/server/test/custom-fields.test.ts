import type { CustomField, CustomFieldList, TransactionCustomFields } from '@cardportal/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, transactions, users } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * Custom data fields (issue 16 item 4): a company's own fields — text 1–80, number 1–255 digits with
 * 0–4 decimals, date in a chosen format, list (at most 3) — captured on its transactions, checked by
 * type, required ones filled, carried into the export; a field in use is not deleted or retyped.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);
const FIELDS = '/app/api/org/companies/100001/custom-fields';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

async function create(body: Record<string, unknown>): Promise<CustomField> {
  const res = await send('admin01', 'POST', FIELDS, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CustomField;
}

describe('custom data fields', () => {
  it('defines fields by the catalogue’s limits, captures values on a transaction, exports them', async () => {
    const purpose = await create({ label: 'Purpose', type: 'text', length: 40, required: true });
    const km = await create({ label: 'Kilometres', type: 'number', length: 6, decimals: 1 });
    const trip = await create({ label: 'Trip date', type: 'date', dateFormat: 'DD.MM.YYYY' });
    const kind = await create({
      label: 'Meeting kind',
      type: 'list',
      values: ['Client', 'Internal', ' Training '],
    });
    expect(kind.values).toEqual(['Client', 'Internal', 'Training']);
    const refused = async (body: unknown) => (await send('admin01', 'POST', FIELDS, body)).json().fieldErrors;
    expect(await refused({ label: 'purpose', type: 'text' })).toEqual({
      label: 'customField.label.duplicate',
    });
    expect(await refused({ label: 'Long', type: 'text', length: 81 })).toEqual({
      length: 'customField.length.textRange',
    });
    expect(await refused({ label: 'Digits', type: 'number', length: 10, decimals: 5 })).toEqual({
      decimals: 'customField.decimals.range',
    });
    expect(await refused({ label: 'Empty list', type: 'list', values: [] })).toEqual({
      values: 'customField.values.required',
    });
    await create({ label: 'List 2', type: 'list', values: ['A'] });
    await create({ label: 'List 3', type: 'list', values: ['B'] });
    expect(await refused({ label: 'List 4', type: 'list', values: ['C'] })).toEqual({
      type: 'customField.type.tooManyLists',
    });

    const [tx] = await ctx.app.db
      .select({ id: transactions.id, reference: transactions.reference, date: transactions.transactionDate })
      .from(transactions)
      .innerJoin(accounts, eq(accounts.id, transactions.accountId))
      .innerJoin(users, eq(users.cardholderId, accounts.cardholderId))
      .where(
        and(
          eq(users.userId, 'active01'),
          eq(transactions.status, 'Approved'),
          sql`${transactions.exportedAt} is null`,
        ),
      )
      .orderBy(transactions.id)
      .limit(1);
    if (!tx) throw new Error('demo: an approved, unexported transaction of active01');
    const url = `/app/api/transactions/${tx.id}/custom-fields`;
    const shown = (await get('active01', url)).json() as TransactionCustomFields;
    expect(shown.fields.map((f) => f.label).slice(0, 4)).toEqual([
      'Purpose',
      'Kilometres',
      'Trip date',
      'Meeting kind',
    ]);
    expect(shown.canEdit).toBe(true);

    const bad = await send('active01', 'PUT', url, {
      values: { [km.id]: '12.34', [trip.id]: '31.02.2026', [kind.id]: 'Bus', 999999: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({
      [`values.${purpose.id}`]: 'customField.value.required',
      [`values.${km.id}`]: 'customField.value.decimals',
      [`values.${trip.id}`]: 'customField.value.date',
      [`values.${kind.id}`]: 'customField.value.notInList',
      'values.999999': 'customField.notFound',
    });
    const ok = await send('active01', 'PUT', url, {
      values: {
        [purpose.id]: 'Client visit',
        [km.id]: '012.5',
        [trip.id]: '03.11.2026',
        [kind.id]: 'client',
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const values = Object.fromEntries(
      (ok.json() as TransactionCustomFields).fields.map((f) => [f.label, f.value]),
    );
    expect(values).toMatchObject({
      Purpose: 'Client visit',
      Kilometres: '12.5',
      'Trip date': '2026-11-03',
      'Meeting kind': 'Client',
    });

    // In use: no delete, no new type; deactivating hides it from the transaction.
    expect((await send('admin01', 'DELETE', `${FIELDS}/${km.id}`)).json().code).toBe('customField.inUse');
    const retype = await send('admin01', 'PUT', `${FIELDS}/${km.id}`, {
      label: 'Kilometres',
      type: 'text',
      length: 10,
    });
    expect(retype.json().fieldErrors).toEqual({ type: 'customField.type.inUse' });
    const list = (await get('admin01', FIELDS)).json() as CustomFieldList;
    expect(list.rows.find((f) => f.id === km.id)?.inUse).toBe(true);

    // The export carries the fields, the date in the field's format.
    const made = await send('admin01', 'POST', '/app/api/transactions/exports', {
      from: tx.date,
      to: tx.date,
      format: 'csv',
    });
    expect(made.statusCode, made.body).toBe(200);
    const file = await get('admin01', `/app/api/transactions/exports/${made.json().id}/file`);
    const { parse } = await import('csv-parse/sync');
    const records = parse(file.body, { columns: true, bom: true }) as Record<string, string>[];
    const mine = records.find((r) => r.reference === tx.reference);
    expect(mine).toMatchObject({
      Purpose: 'Client visit',
      Kilometres: '12.5',
      'Trip date': '03.11.2026',
      'Meeting kind': 'Client',
    });
    // Exported: the values cannot change any more.
    expect((await send('active01', 'PUT', url, { values: {} })).json().code).toBe(
      'transactions.edit.exported',
    );
  });

  it('is set up by the company administrators, read by the administrators in scope', async () => {
    expect((await get('sysadmin01', FIELDS)).json()).toMatchObject({ canModify: false, readOnly: true });
    expect((await send('sysadmin01', 'POST', FIELDS, { label: 'No', type: 'text' })).statusCode).toBe(403);
    expect((await get('active01', FIELDS)).statusCode).toBe(403);
    expect((await get('bncadmin01', FIELDS)).statusCode).toBe(404);
    expect((await send('admin01', 'DELETE', `${FIELDS}/999999`)).statusCode).toBe(404);
  });
});
