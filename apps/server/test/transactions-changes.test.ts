/**
 * What happens to a transaction after its import (issue 15 items 5–7): split and unsplit (2–100 lines
 * totalling it exactly, not while locked or exported), disputes (the issuer's reasons, once, mailed to
 * the company's administrators, never changed), the issuer's dispute reasons, and the general-ledger
 * export (approved transactions over at most 30 days, marked exported, a file that reads the same every
 * time, CSV and .xlsx, cards masked). Both databases.
 */
import { type Dispute, TRANSACTION_EXPORT_COLUMNS, type TransactionDetail } from '@cardportal/domain';

/** Acme's accounting codes (the demo's), the export's coding columns. */
const ACME_CODES = ['Cost centre', 'GL account', 'Sub-account', 'Project'];

import { parse } from 'csv-parse/sync';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import {
  auditEvents,
  companies,
  mailOutbox,
  programOptions,
  transactionSplits,
  transactions,
} from '../src/db/schema.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
const clients = new Map<string, TestClient>();

async function as(userId: string): Promise<TestClient> {
  let client = clients.get(userId);
  if (!client) {
    client = new TestClient(ctx.app);
    const res = await client.login(userId, DEMO_PASSWORD);
    expect(res.body, `${userId} signs in`).toBe('/app/');
    clients.set(userId, client);
  }
  return client;
}
const db = () => ctx.services.database.db;
const post = async (userId: string, url: string, body?: unknown) =>
  body === undefined
    ? (await as(userId)).request({ method: 'POST', url })
    : (await as(userId)).postJson(url, body);
const detail = async (userId: string, id: number) =>
  JSON.parse((await (await as(userId)).get(`/app/api/transactions/${id}`)).body) as TransactionDetail;

/** Transactions of active01's card (Acme) in a status, by currency when asked. */
async function ofActive01(n: number, status: string, currency?: string): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db(),
    sql`select t.id from transactions t join accounts a on a.id = t.account_id
      join users u on u.cardholder_id = a.cardholder_id
      where u.user_id = 'active01' and t.status = ${status} and t.split_lines = 0 and t.amount > 100 and t.disputed_at is null
        and t.exported_at is null ${currency ? sql`and t.currency = ${currency}` : sql``}
      order by t.id limit ${n}`,
  );
  expect(rows.length, `${n} ${status} transactions of active01`).toBe(n);
  return rows.map((r) => Number(r.id));
}

async function row(id: number) {
  const [found] = await db().select().from(transactions).where(eq(transactions.id, id));
  if (!found) throw new Error(`no transaction ${id}`);
  return found;
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('split and unsplit', () => {
  it('splits into lines that total exactly, shows them, and unsplits back to the original', async () => {
    const [id] = await ofActive01(1, 'New', 'USD');
    if (id === undefined) throw new Error('no transaction');
    const before = await row(id);
    const exponent = 2;
    const major = (minor: bigint) => {
      const s = minor.toString().padStart(exponent + 1, '0');
      return `${s.slice(0, -exponent)}.${s.slice(-exponent)}`;
    };
    const first = before.amount / 3n;
    const firstTax = before.tax / 3n;
    const lines = [
      { amount: major(first), tax: major(firstTax), description: 'Client dinner' },
      { amount: major(first), tax: major(firstTax), description: 'Team' },
      {
        amount: major(before.amount - 2n * first),
        tax: major(before.tax - 2n * firstTax),
        description: '=HYPERLINK("x")',
      },
    ];
    const res = await post('active01', `/app/api/transactions/${id}/split`, { lines });
    expect(res.statusCode, res.body).toBe(200);
    const split = res.json() as TransactionDetail;
    expect(split.split).toBe(true);
    expect(split.splits.map((l) => [l.line, l.amount.minor, l.tax.minor])).toEqual([
      [1, first.toString(), firstTax.toString()],
      [2, first.toString(), firstTax.toString()],
      [3, (before.amount - 2n * first).toString(), (before.tax - 2n * firstTax).toString()],
    ]);
    expect(split.canSplit).toBe(true);
    // The list marks it; the manager above sees the same lines.
    expect((await detail('lvlmgr01', id)).splits).toHaveLength(3);
    const stored = await db().select().from(transactionSplits).where(eq(transactionSplits.transactionId, id));
    expect(stored.reduce((sum, l) => sum + l.amount, 0n)).toBe(before.amount);

    // Changing the split replaces it; unsplit restores the transaction as it came.
    const two = await post('admin01', `/app/api/transactions/${id}/split`, {
      lines: [
        { amount: major(before.amount - 1n), tax: major(before.tax) },
        { amount: '0.01', tax: '' },
      ],
    });
    expect(two.statusCode, two.body).toBe(200);
    expect((two.json() as TransactionDetail).splits).toHaveLength(2);
    const back = await post('active01', `/app/api/transactions/${id}/unsplit`);
    expect(back.statusCode, back.body).toBe(200);
    expect((back.json() as TransactionDetail).splits).toEqual([]);
    const after = await row(id);
    expect([after.amount, after.tax, after.splitLines, after.status]).toEqual([
      before.amount,
      before.tax,
      0,
      before.status,
    ]);
    expect((await post('active01', `/app/api/transactions/${id}/unsplit`)).json().code).toBe(
      'transactions.split.notSplit',
    );
    const trail = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'transaction'), eq(auditEvents.entityId, before.reference)))
      .orderBy(auditEvents.id);
    expect(trail.map((e) => [e.event, e.actorUserId, e.changes])).toEqual([
      ['transaction.split', 'active01', { lines: { before: 0, after: 3 } }],
      ['transaction.split', 'admin01', { lines: { before: 3, after: 2 } }],
      ['transaction.unsplit', 'active01', { lines: { before: 2, after: 0 } }],
    ]);
  });

  it('names what is wrong with a split and writes nothing', async () => {
    const [id] = await ofActive01(1, 'New', 'USD');
    if (id === undefined) throw new Error('no transaction');
    const t = await row(id);
    const url = `/app/api/transactions/${id}/split`;
    const cases: [unknown, number, string, Record<string, string>?][] = [
      [{ lines: [{ amount: '1.00' }] }, 400, 'transactions.split.count'],
      [{ lines: Array.from({ length: 101 }, () => ({ amount: '0.01' })) }, 400, 'form.invalid'],
      [
        { lines: [{ amount: '0.01' }, { amount: '0.01' }] },
        400,
        'transactions.split.total',
        { lines: 'transactions.split.total' },
      ],
      [
        { lines: [{ amount: '1.001' }, { amount: 'abc' }] },
        400,
        'money.amount.decimals',
        { 'lines.0.amount': 'money.amount.decimals', 'lines.1.amount': 'money.amount.format' },
      ],
      [
        { lines: [{ amount: '-1.00' }, { amount: '0' }] },
        400,
        'transactions.split.sign',
        { 'lines.0.amount': 'transactions.split.sign', 'lines.1.amount': 'money.amount.zero' },
      ],
      [
        {
          lines: [
            { amount: '1.00', tax: '2.00' },
            { amount: '1.00', description: 'x'.repeat(1025) },
          ],
        },
        400,
        'transaction.tax.exceedsAmount',
        {
          'lines.0.tax': 'transaction.tax.exceedsAmount',
          'lines.1.description': 'transactions.split.descriptionTooLong',
        },
      ],
      [{ lines: 'two' }, 400, 'form.invalid'],
      [{}, 400, 'form.invalid'],
    ];
    for (const [body, status, code, fields] of cases) {
      const res = await post('active01', url, body);
      expect([res.statusCode, res.json().code], JSON.stringify(body).slice(0, 80)).toEqual([status, code]);
      if (fields) expect(res.json().fieldErrors).toEqual(fields);
    }
    expect(
      (await post('active01', url, { lines: [{ amount: '0.01' }, { amount: '0.01' }] })).json().message,
    ).toBe('Split amount does not total up');
    expect((await row(id)).splitLines).toBe(0);
    expect(
      await db().select().from(transactionSplits).where(eq(transactionSplits.transactionId, id)),
    ).toEqual([]);
    // Who may not: the system administrator (type), another company's administrator (scope).
    const valid = { lines: [{ amount: '0.01' }, { amount: '0.01' }] };
    expect((await post('sysadmin01', url, valid)).statusCode).toBe(403);
    expect((await post('bncadmin01', url, valid)).statusCode).toBe(404);
    expect((await post('active01', '/app/api/transactions/999999999/split', valid)).statusCode).toBe(404);
    expect(t.splitLines).toBe(0);
  });

  it('refuses to split a locked transaction and an exported one', async () => {
    const [locked] = await ofActive01(1, 'Locked');
    if (locked === undefined) throw new Error('no transaction');
    const body = { lines: [{ amount: '0.01' }, { amount: '0.01' }] };
    const res = await post('admin01', `/app/api/transactions/${locked}/split`, body);
    expect([res.statusCode, res.json().code]).toEqual([409, 'transactions.edit.locked']);
    const view = await detail('admin01', locked);
    expect([view.canSplit, view.editBlocked]).toEqual([false, 'transactions.edit.locked']);
    const [approved] = await ofActive01(1, 'Approved');
    if (approved === undefined) throw new Error('no transaction');
    await db().update(transactions).set({ exportedAt: new Date() }).where(eq(transactions.id, approved));
    try {
      const refused = await post('admin01', `/app/api/transactions/${approved}/split`, body);
      expect([refused.statusCode, refused.json().code]).toEqual([409, 'transactions.edit.exported']);
    } finally {
      await db().update(transactions).set({ exportedAt: null }).where(eq(transactions.id, approved));
    }
  });
});

describe('disputes', () => {
  it('files a dispute once, from the issuer reasons, mails the administrators, and never changes it', async () => {
    const [id] = await ofActive01(1, 'Reviewed', 'USD');
    if (id === undefined) throw new Error('no transaction');
    const t = await row(id);
    const view = await detail('active01', id);
    expect([view.canDispute, view.dispute]).toEqual([true, null]);
    const reasons = (await (await as('active01')).get(`/app/api/transactions/${id}/dispute-reasons`)).json();
    expect(reasons.rows.map((r: { code: string }) => r.code)).toContain('DP');
    const url = `/app/api/transactions/${id}/dispute`;

    // Wrong forms: named, nothing written.
    const abs = t.amount < 0n ? -t.amount : t.amount;
    const tooMuch = `${((abs + 1n) / 100n).toString()}.${((abs + 1n) % 100n).toString().padStart(2, '0')}`;
    for (const [body, fields] of [
      [
        { reason: '', explanation: '' },
        { reason: 'dispute.reason.required', explanation: 'dispute.explanation.required' },
      ],
      [{ reason: 'ZZ', explanation: 'x' }, { reason: 'dispute.reason.unknown' }],
      [{ reason: 'DP', amount: tooMuch, explanation: 'x' }, { amount: 'dispute.amount.exceedsTransaction' }],
      [{ reason: 'DP', amount: '0', explanation: 'x' }, { amount: 'dispute.amount.positive' }],
      [{ reason: 'DP', amount: '1.234', explanation: 'x' }, { amount: 'money.amount.decimals' }],
      [{ reason: 'DP', explanation: 'y'.repeat(1025) }, { explanation: 'dispute.explanation.tooLong' }],
      [
        { reason: 'DP', explanation: 'It is my card 5424 1800 0000 0015' },
        { explanation: 'text.cardNumber' },
      ],
    ] as const) {
      const res = await post('active01', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fieldErrors).toEqual(fields);
    }
    expect((await row(id)).disputedAt).toBeNull();

    const mailsBefore = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'dispute-filed'));
    const filed = await post('active01', url, {
      reason: 'dp',
      amount: '',
      explanation: 'Charged twice for one night.',
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const dispute = (filed.json() as TransactionDetail).dispute as Dispute;
    expect(dispute).toMatchObject({
      status: 'Submitted',
      reasonCode: 'DP',
      reasonDescription: 'Duplicate charge',
      amount: { minor: abs.toString(), currency: 'USD', exponent: 2 },
      explanation: 'Charged twice for one night.',
      submittedBy: 'active01',
    });
    expect((filed.json() as TransactionDetail).canDispute).toBe(false);
    expect((filed.json() as TransactionDetail).disputed).toBe(true);

    // Never twice, never changed — not even by its administrator; the reason's later change leaves it.
    const again = await post('admin01', url, { reason: 'NR', explanation: 'Other' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'dispute.alreadyFiled']);
    const changed = await (await as('issadmin01')).request({
      method: 'PUT',
      url: '/app/api/org/issuers/1001/dispute-reasons/DP',
      payload: JSON.stringify({ description: 'Paid twice' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await detail('admin01', id)).dispute?.reasonDescription).toBe('Duplicate charge');
    await (await as('issadmin01')).request({
      method: 'PUT',
      url: '/app/api/org/issuers/1001/dispute-reasons/DP',
      payload: JSON.stringify({ description: 'Duplicate charge' }),
      headers: { 'content-type': 'application/json' },
    });

    // The company's program administrators hear of it (the outbox, in the same transaction).
    const mails = (await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'dispute-filed'))).slice(
      mailsBefore.length,
    );
    expect(mails.length).toBeGreaterThan(0);
    const [admin] = await queryRows<{ email: string }>(
      db(),
      sql`select email from users where user_id = 'admin01'`,
    );
    expect(mails.map((m) => m.recipient)).toContain(admin?.email);
    const mail = mails[0];
    expect(mail?.body).toContain(t.reference);
    expect(mail?.body).toContain('DP Duplicate charge');
    expect(mail?.body).not.toContain('Charged twice');
    expect(mail?.body).not.toMatch(/\d{12,}/);

    const [audit] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'transaction.disputed'), eq(auditEvents.entityId, t.reference)));
    expect(audit?.actorUserId).toBe('active01');
  });

  it('files two disputes at once as one', async () => {
    const [id] = await ofActive01(1, 'New', 'USD');
    if (id === undefined) throw new Error('no transaction');
    const url = `/app/api/transactions/${id}/dispute`;
    const [a, b] = await Promise.all([
      post('active01', url, { reason: 'IA', explanation: 'Wrong amount' }),
      post('admin01', url, { reason: 'NR', explanation: 'Not received' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
  });

  it('is refused by type, by scope, and while the company has disputes off', async () => {
    const [id] = await ofActive01(1, 'New', 'USD');
    if (id === undefined) throw new Error('no transaction');
    const body = { reason: 'DP', explanation: 'x' };
    const url = `/app/api/transactions/${id}/dispute`;
    expect((await post('sysadmin01', url, body)).statusCode).toBe(403);
    expect((await post('issadmin01', url, body)).statusCode).toBe(403);
    expect((await post('bncadmin01', url, body)).statusCode).toBe(404);
    const [acme] = await db()
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.number, '100001'));
    await db()
      .insert(programOptions)
      .values({ level: 'company', companyId: acme?.id ?? 0, key: 'disputes', enabled: false });
    try {
      expect((await detail('active01', id)).canDispute).toBe(false);
      const refused = await post('active01', url, body);
      expect([refused.statusCode, refused.json().code]).toEqual([403, 'programOption.disabled']);
    } finally {
      await db()
        .delete(programOptions)
        .where(and(eq(programOptions.companyId, acme?.id ?? 0), eq(programOptions.key, 'disputes')));
    }
    expect((await row(id)).disputedAt).toBeNull();
  });
});

describe('dispute reasons', () => {
  const base = '/app/api/org/issuers/2001/dispute-reasons';
  const send = async (userId: string, method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    (await as(userId)).request({
      method,
      url,
      ...(body === undefined
        ? {}
        : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });

  it('are kept by the issuer: add, change, delete, no duplicates, the catalogue limits, audited', async () => {
    const list = (await (await as('sysadmin01')).get(base)).json();
    expect(list).toMatchObject({ list: 'dispute-reasons', canMaintain: true, max: 99 });
    const created = await send('sysadmin01', 'POST', base, { code: ' x9 ', description: ' Fraud ring ' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().rows).toContainEqual({ code: 'X9', description: 'Fraud ring', systemStatus: null });
    expect(
      (await send('sysadmin01', 'POST', base, { code: 'X9', description: 'Again' })).json(),
    ).toMatchObject({
      code: 'issuerCode.duplicate',
      fieldErrors: { code: 'issuerCode.duplicate' },
    });
    for (const [body, fields] of [
      [{ code: 'ABC', description: 'x' }, { code: 'issuerCode.code.format' }],
      [{ code: 'A B', description: 'x' }, { code: 'issuerCode.code.format' }],
      [
        { code: '', description: '' },
        { code: 'issuerCode.code.required', description: 'issuerCode.description.required' },
      ],
      [{ code: 'Q1', description: 'd'.repeat(76) }, { description: 'issuerCode.description.tooLong' }],
    ] as const) {
      const res = await send('sysadmin01', 'POST', base, body);
      expect([res.statusCode, res.json().fieldErrors], JSON.stringify(body)).toEqual([400, fields]);
    }
    const updated = await send('sysadmin01', 'PUT', `${base}/x9`, { description: 'Organised fraud' });
    expect(updated.json().rows).toContainEqual({
      code: 'X9',
      description: 'Organised fraud',
      systemStatus: null,
    });
    const deleted = await send('sysadmin01', 'DELETE', `${base}/X9`);
    expect(deleted.json().rows.map((r: { code: string }) => r.code)).not.toContain('X9');
    expect((await send('sysadmin01', 'DELETE', `${base}/X9`)).statusCode).toBe(404);
    const trail = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'issuer'), eq(auditEvents.entityId, '2001')))
      .orderBy(auditEvents.id);
    expect(trail.filter((e) => e.event.startsWith('issuerCode.')).map((e) => e.event)).toEqual([
      'issuerCode.created',
      'issuerCode.updated',
      'issuerCode.deleted',
    ]);
  });

  it('hold at most 99 per issuer', async () => {
    const existing = (await (await as('sysadmin01')).get(base)).json().rows.length as number;
    const codes = Array.from(
      { length: 99 - existing },
      (_, i) => `${String.fromCharCode(65 + Math.floor(i / 10))}${i % 10}`,
    );
    for (const code of codes) {
      const res = await send('sysadmin01', 'POST', base, { code, description: `Reason ${code}` });
      expect(res.statusCode, `${code} ${res.body}`).toBe(200);
    }
    const over = await send('sysadmin01', 'POST', base, { code: 'ZZ', description: 'One too many' });
    expect([over.statusCode, over.json().code]).toEqual([409, 'issuerCode.tooMany']);
    for (const code of codes) await send('sysadmin01', 'DELETE', `${base}/${code}`);
  });

  it('are the issuer side’s: a company administrator may not keep them, another issuer’s are not found', async () => {
    expect((await (await as('admin01')).get('/app/api/org/issuers/1001/dispute-reasons')).statusCode).toBe(
      403,
    );
    expect(
      (
        await send('admin01', 'POST', '/app/api/org/issuers/1001/dispute-reasons', {
          code: 'Q',
          description: 'q',
        })
      ).statusCode,
    ).toBe(403);
    expect((await (await as('issadmin01')).get(base)).statusCode).toBe(404);
  });
});

describe('general-ledger export', () => {
  it('carries a split transaction as its lines, with formulas neutralised', async () => {
    const [id] = await ofActive01(1, 'Approved', 'USD');
    if (id === undefined) throw new Error('no transaction');
    const t = await row(id);
    const cents = (v: bigint) => `${v / 100n}.${(v % 100n).toString().padStart(2, '0')}`;
    const res = await post('admin01', `/app/api/transactions/${id}/split`, {
      lines: [
        { amount: cents(t.amount - 1n), tax: cents(t.tax), description: '=cmd|calc' },
        { amount: '0.01', description: 'Tip' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const made = await post('admin01', '/app/api/transactions/exports', {
      from: t.transactionDate,
      to: t.transactionDate,
      format: 'csv',
      again: true,
    });
    expect(made.statusCode, made.body).toBe(200);
    const file = await (await as('admin01')).get(`/app/api/transactions/exports/${made.json().id}/file`);
    const lines = (parse(file.body, { columns: true }) as Record<string, string>[]).filter(
      (r) => r.reference === t.reference,
    );
    expect(lines.map((l) => [l.line, l.amount, l.description])).toEqual([
      ['1', cents(t.amount - 1n), "'=cmd|calc"],
      ['2', '0.01', 'Tip'],
    ]);
    // Exported: the split can no longer change.
    expect((await post('admin01', `/app/api/transactions/${id}/unsplit`)).json().code).toBe(
      'transactions.edit.exported',
    );
  });

  it('exports approved transactions of 30 days once, marks them, and writes the same file each time', async () => {
    const from = daysAgo(75);
    const to = daysAgo(46);
    const expected = await queryRows<{ n: number; lines: number }>(
      db(),
      sql`select count(*)::int as n, coalesce(sum(greatest(split_lines, 1)), 0)::int as lines from transactions
        where company_id = (select id from companies where number = '100001')
          and transaction_date between ${from} and ${to} and status in ('Approved', 'Locked')
          and exported_at is null`,
    );
    const count = Number(expected[0]?.n);
    expect(count).toBeGreaterThan(0);

    const res = await post('admin01', '/app/api/transactions/exports', { from, to, format: 'csv' });
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json();
    expect(made).toMatchObject({
      companyNumber: '100001',
      from,
      to,
      format: 'csv',
      transactions: count,
      createdBy: 'admin01',
    });
    const marked = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from transaction_export_rows r join transactions t on t.id = r.transaction_id
        where r.export_id = ${made.id} and t.exported_at is not null`,
    );
    expect(Number(marked[0]?.n)).toBe(count);

    const file = await (await as('admin01')).get(`/app/api/transactions/exports/${made.id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${made.fileName}"`);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const records = parse(file.body, { columns: true }) as Record<string, string>[];
    // The coding columns follow: the company's accounting codes in ledger order (issue 16 item 6).
    expect(Object.keys(records[0] ?? {})).toEqual([...TRANSACTION_EXPORT_COLUMNS, ...ACME_CODES]);
    expect(records).toHaveLength(made.rows);
    expect(new Set(records.map((r) => r.reference)).size).toBe(count);
    for (const r of records) {
      expect(r.card).toMatch(/^\d{6}\*+\d{4}$/);
      expect(r.amount).toMatch(/^-?\d+(\.\d{1,4})?$/);
      expect(['Approved', 'Locked']).toContain(r.status);
      expect((r.transaction_date ?? '') >= from && (r.transaction_date ?? '') <= to).toBe(true);
    }
    expect(file.body).not.toMatch(/\d{13,}/);
    // The same file the next time.
    expect((await (await as('admin01')).get(`/app/api/transactions/exports/${made.id}/file`)).body).toBe(
      file.body,
    );

    // Nothing left to export in the period; again takes them once more, as .xlsx.
    const none = await post('admin01', '/app/api/transactions/exports', { from, to, format: 'csv' });
    expect([none.statusCode, none.json().code]).toEqual([422, 'transactions.export.nothing']);
    const again = await post('admin01', '/app/api/transactions/exports', {
      from,
      to,
      format: 'xlsx',
      again: true,
    });
    expect(again.statusCode, again.body).toBe(200);
    const xlsx = await (await as('admin01')).get(`/app/api/transactions/exports/${again.json().id}/file`);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, ...TRANSACTION_EXPORT_COLUMNS, ...ACME_CODES]);
    expect(sheet?.rowCount).toBe(again.json().rows + 1);

    // Listed newest first; the audit trail has both.
    const list = (await (await as('admin01')).get('/app/api/transactions/exports')).json();
    expect(list.rows.slice(0, 2).map((e: { id: number }) => e.id)).toEqual([again.json().id, made.id]);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'transactions.exported'));
    expect(events.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a range over 30 days, a wrong format, another company, and a cardholder', async () => {
    const cases: [string, unknown, number, string][] = [
      [
        'admin01',
        { from: daysAgo(40), to: daysAgo(10), format: 'csv' },
        400,
        'transactions.export.rangeTooLong',
      ],
      ['admin01', { from: daysAgo(10), to: daysAgo(20), format: 'csv' }, 400, 'dateRange.fromAfterTo'],
      ['admin01', { from: '2026-02-30', to: daysAgo(20), format: 'csv' }, 400, 'date.invalid'],
      ['admin01', { from: daysAgo(20), to: daysAgo(10), format: 'pdf' }, 400, 'form.invalid'],
      [
        'admin01',
        { from: daysAgo(20), to: daysAgo(10), format: 'csv', company: '200001' },
        404,
        'company.notFound',
      ],
      [
        'issadmin01',
        { from: daysAgo(20), to: daysAgo(10), format: 'csv' },
        400,
        'transactions.export.companyRequired',
      ],
      ['active01', { from: daysAgo(20), to: daysAgo(10), format: 'csv' }, 403, 'transactions.forbidden'],
    ];
    for (const [userId, body, status, code] of cases) {
      const res = await post(userId, '/app/api/transactions/exports', body);
      expect([res.statusCode, res.json().code], `${userId} ${JSON.stringify(body)}`).toEqual([status, code]);
    }
    expect((await (await as('bncadmin01')).get('/app/api/transactions/exports/1/file')).statusCode).toBe(404);
  });
});
