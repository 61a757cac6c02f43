import type { AccountingCodeList, AccountingValueList } from '@cardportal/domain';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingValues, auditEvents } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * A code's values as a file (issue 16 item 5): downloaded as CSV or .xlsx, uploaded back (CSV or .xlsx
 * by content), all or nothing with a report by row and field; the download uploads back unchanged.
 */
let ctx: TestContext;
const { as, get } = signedInClients(() => ctx);
const ACME = '/app/api/org/companies/100001/accounting-codes';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const codeId = async (name: string) =>
  ((await get('admin01', ACME)).json() as AccountingCodeList).rows.find((c) => c.name === name)?.id as number;
const upload = async (
  id: number,
  body: Buffer | string,
  type = 'application/octet-stream',
  userId = 'admin01',
) =>
  (await as(userId)).request({
    method: 'POST',
    url: `${ACME}/${id}/values/upload`,
    payload: (typeof body === 'string' ? Buffer.from(body) : body) as unknown as string,
    headers: { 'content-type': type },
  });
const valuesOf = async (id: number) =>
  ((await get('admin01', `${ACME}/${id}/values`)).json() as AccountingValueList).rows.map((v) => [
    v.value,
    v.description,
    v.parent?.value ?? '',
    v.active,
  ]);

describe('accounting code values as a file', () => {
  it('downloads the values as CSV and uploads them back unchanged; then adds and changes by file', async () => {
    const sub = await codeId('Sub-account');
    const csv = await get('admin01', `${ACME}/${sub}/values.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="accounting-100001-Sub-account\.csv"$/,
    );
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('value,description,parent,active');
    expect(csv.body).toContain('AIR,Air fares,6100,yes');

    const back = await upload(sub, csv.rawPayload);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toEqual({ created: 0, updated: 0, unchanged: 7 });

    const before = await valuesOf(sub);
    const changed = [
      'Value,Description,Parent,Active',
      'AIR,Air fares and rail,6100,yes',
      'TAXI,Taxis,6100,',
      'LICENCE,,,no',
    ].join('\n');
    const res = await upload(sub, changed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: 1, updated: 2, unchanged: 0 });
    const after = await valuesOf(sub);
    expect(after).toContainEqual(['AIR', 'Air fares and rail', '6100', true]);
    expect(after).toContainEqual(['TAXI', 'Taxis', '6100', true]);
    // An empty description cell clears it; no parent keeps the value's own.
    expect(after).toContainEqual(['LICENCE', '', '6400', false]);
    expect(after).toHaveLength(before.length + 1);
    const [event] = await ctx.app.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(eq(auditEvents.event, 'accountingValue.uploaded'))
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    expect(event?.detail).toMatchObject({ code: 'Sub-account', created: 1, updated: 2, unchanged: 0 });
  });

  it('refuses the whole file with a report by row and field; nothing changes', async () => {
    const sub = await codeId('Sub-account');
    const before = await valuesOf(sub);
    const file = [
      'value,description,parent,active',
      'NEW1,Fine,6100,yes',
      '000,All zeros,6100,',
      'NEW2,Fine,9999,',
      'new1,Twice,6100,',
      'NEW3,<b>markup</b>,6100,maybe',
      'NEW4,No parent,,',
    ].join('\r\n');
    const res = await upload(sub, file);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('upload.rows');
    expect(res.json().rows).toEqual([
      { row: 3, field: 'value', problem: 'accountingValue.value.allZeros' },
      { row: 4, field: 'parent', problem: 'accountingValue.parent.unknown' },
      { row: 5, field: 'value', problem: 'accountingValue.value.duplicate' },
      { row: 6, field: 'description', problem: 'accountingValue.description.invalidCharacters' },
      { row: 6, field: 'active', problem: 'accountingValue.active.invalid' },
      { row: 7, field: 'parent', problem: 'accountingValue.parent.required' },
    ]);
    expect(await valuesOf(sub)).toEqual(before);
    const noHeader = await upload(sub, 'code,text\nX1,Y\n');
    expect([noHeader.statusCode, noHeader.json().code]).toEqual([400, 'upload.missingHeaders']);
    const notDependent = await upload(await codeId('Cost centre'), 'value,parent\n4900,6100\n');
    expect(notDependent.json().rows).toEqual([
      { row: 2, field: 'parent', problem: 'accountingValue.parent.notDependent' },
    ]);
  });

  it('takes .xlsx by content, refuses viruses, binary files, other media types and files over 4 MB', async () => {
    const cost = await codeId('Cost centre');
    const xlsx = await get('admin01', `${ACME}/${cost}/values.xlsx`);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, 'value', 'description', 'parent', 'active']);
    sheet?.addRow(['4600', 'Legal', '', 'yes']);
    sheet?.addRow(['=1+1', 'formula', '', '']);
    const edited = Buffer.from(await workbook.xlsx.writeBuffer());
    const refused = await upload(cost, edited);
    expect(refused.json().rows).toEqual([
      { row: sheet?.rowCount ?? 0, field: 'value', problem: 'accountingValue.value.format' },
    ]);
    sheet?.spliceRows(sheet.rowCount, 1);
    const ok = await upload(cost, Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ created: 1, updated: 0 });
    const count = await ctx.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(accountingValues)
      .where(eq(accountingValues.codeId, cost));
    expect(
      (await get('admin01', ACME)).json().rows.find((c: { id: number }) => c.id === cost).valueCount,
    ).toBe(count[0]?.n);

    const eicar = 'value\nX5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*\n';
    expect((await upload(cost, eicar)).json().code).toBe('upload.virus');
    expect((await upload(cost, Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]))).json().code).toBe(
      'upload.unsupportedFormat',
    );
    expect((await upload(cost, Buffer.from('PK\u0003\u0004garbage'))).json().code).toBe(
      'upload.unsupportedFormat',
    );
    expect((await upload(cost, 'value\n4700\n', 'text/plain')).statusCode).toBe(415);
    const big = await upload(cost, Buffer.alloc(4 * 1024 * 1024 + 10, 'a'));
    expect([big.statusCode, big.json().code]).toEqual([413, 'upload.tooLarge']);
    expect((await upload(cost, 'value\n4700\n', 'application/octet-stream', 'sysadmin01')).statusCode).toBe(
      403,
    );
    const text = await upload(await codeId('Project'), 'value\nX\n');
    expect(text.json().code).toBe('accountingCode.textHasNoValues');
  });
});
