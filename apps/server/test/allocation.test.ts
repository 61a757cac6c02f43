import type { MassAllocation, TransactionAllocation } from '@cardportal/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { accounts, auditEvents, transactions, users } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * Cost allocation (issue 16 item 3): a transaction coded by its account's scheme — by amount or whole
 * percent, totalling exactly, each code changed only by the types its override level allows, never while
 * locked or exported — and mass allocation of many in one all-or-nothing change that can be undone.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

/** active01's transactions (its card is in the Travel group: the Travel scheme codes it). */
async function active01Transactions(status?: string) {
  return ctx.app.db
    .select({
      id: transactions.id,
      amount: transactions.amount,
      status: transactions.status,
      reference: transactions.reference,
    })
    .from(transactions)
    .innerJoin(accounts, eq(accounts.id, transactions.accountId))
    .innerJoin(users, eq(users.cardholderId, accounts.cardholderId))
    .where(
      and(
        eq(users.userId, 'active01'),
        status ? eq(transactions.status, status) : undefined,
        sql`${transactions.splitLines} = 0`,
        sql`${transactions.exportedAt} is null`,
      ),
    )
    .orderBy(transactions.id);
}

const allocation = async (id: number, userId = 'active01') =>
  (await get(userId, `/app/api/transactions/${id}/allocation`)).json() as TransactionAllocation;
const codeId = (a: TransactionAllocation, name: string) => String(a.codes.find((c) => c.name === name)?.id);

describe('cost allocation of one transaction', () => {
  it('shows the scheme, the default coding and what the cardholder may change', async () => {
    const [first] = await active01Transactions('New');
    if (!first) throw new Error('demo: a New transaction of active01');
    const a = await allocation(first.id);
    expect(a.scheme?.name).toBe('Travel');
    expect(a.codes.map((c) => [c.name, c.required, c.mayEdit])).toEqual([
      ['Cost centre', true, true],
      ['GL account', true, true],
      ['Sub-account', true, true],
    ]);
    expect(a.parts).toHaveLength(1);
    expect(a.parts[0]).toMatchObject({ source: 'default', splitLine: 0 });
    expect(a.parts[0]?.lines[0]?.coding[codeId(a, 'Cost centre')]).toEqual({
      value: '4100',
      description: 'Sales',
    });
  });

  it('allocates by percent with the remainder on the last line, and by amount totalling exactly', async () => {
    const [, second] = await active01Transactions('New');
    if (!second) throw new Error('demo: two New transactions of active01');
    const a = await allocation(second.id);
    const [cost, gl, sub] = ['Cost centre', 'GL account', 'Sub-account'].map((n) => codeId(a, n)) as [
      string,
      string,
      string,
    ];
    const put = (body: unknown, userId = 'active01') =>
      send(userId, 'PUT', `/app/api/transactions/${second.id}/allocation`, body);
    const byPercent = await put({
      mode: 'percent',
      lines: [
        { percent: 33, coding: { [cost]: '4100', [gl]: '6100', [sub]: 'AIR' } },
        { percent: 67, coding: { [cost]: '4200', [gl]: '6100', [sub]: 'hotel' } },
      ],
    });
    expect(byPercent.statusCode, byPercent.body).toBe(200);
    const lines = (byPercent.json() as TransactionAllocation).parts[0]?.lines ?? [];
    const total = lines.reduce((sum, l) => sum + BigInt(l.amount.minor), 0n);
    expect(total).toBe(second.amount);
    expect(lines[0]?.amount.minor).toBe(((second.amount * 33n) / 100n).toString());
    expect(lines.map((l) => l.percent)).toEqual([33, 67]);
    expect(lines[1]?.coding[sub]).toEqual({ value: 'HOTEL', description: 'Hotels' });

    // By amount: must total the transaction exactly.
    const major = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
    const short = await put({
      mode: 'amount',
      lines: [{ amount: major(second.amount - 1n), coding: { [cost]: '4100', [gl]: '6100', [sub]: 'AIR' } }],
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      code: 'allocation.total',
      fieldErrors: { lines: 'allocation.total' },
    });
    const exact = await put({
      mode: 'amount',
      lines: [
        { amount: major(second.amount - 100n), coding: { [cost]: '4100', [gl]: '6100', [sub]: 'AIR' } },
        { amount: '1.00', coding: { [cost]: '4300', [gl]: '6200', [sub]: 'STAFF' } },
      ],
    });
    expect(exact.statusCode, exact.body).toBe(200);

    // Every coding problem at its line and code; nothing changes.
    const bad = await put({
      mode: 'percent',
      lines: [
        { percent: 50, coding: { [cost]: '9999', [gl]: '6300', [sub]: 'AIR' } },
        { percent: 50, coding: { [cost]: '4100', [gl]: '6200', [sub]: 'AIR' } },
      ],
    });
    expect(bad.json().fieldErrors).toEqual({
      [`lines.0.coding.${cost}`]: 'allocation.value.unknown',
      [`lines.0.coding.${gl}`]: 'allocation.value.notInSubset',
      [`lines.0.coding.${sub}`]: 'allocation.value.otherParent',
      [`lines.1.coding.${sub}`]: 'allocation.value.otherParent',
    });
    expect((await allocation(second.id)).parts[0]?.lines.map((l) => l.coding[cost]?.value)).toEqual([
      '4100',
      '4300',
    ]);
    const percentOff = await put({
      mode: 'percent',
      lines: [
        { percent: 60, coding: {} },
        { percent: 30, coding: {} },
      ],
    });
    expect(percentOff.json().fieldErrors.lines).toBe('allocation.percent.total');
    // Back to the default coding.
    const reset = await put({ mode: 'percent', lines: [] });
    expect((reset.json() as TransactionAllocation).parts[0]?.source).toBe('default');
    const audited = await ctx.app.db
      .select({ n: sql<number>`count(*)` })
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'transaction.allocated'), eq(auditEvents.entityId, second.reference)));
    expect(Number(audited[0]?.n)).toBe(3);
  });

  it("keeps a code to its override level: the cardholder cannot change the Standard scheme's GL account, a manager can", async () => {
    // Give active01's card the Standard scheme (GL account: managers and administrators).
    const [card] = await ctx.app.db
      .select({ id: accounts.id })
      .from(accounts)
      .innerJoin(users, eq(users.cardholderId, accounts.cardholderId))
      .where(eq(users.userId, 'active01'))
      .orderBy(accounts.id)
      .limit(1);
    const schemes = (await get('admin01', '/app/api/org/companies/100001/accounting-schemes')).json() as {
      rows: { id: number; name: string }[];
    };
    const standard = schemes.rows.find((s) => s.name === 'Standard');
    const coding = await send('admin01', 'PUT', `/app/api/org/companies/100001/accounts/${card?.id}/coding`, {
      schemeId: standard?.id,
      defaults: {},
    });
    expect(coding.statusCode, coding.body).toBe(200);
    const [, , third] = await active01Transactions('New');
    if (!third) throw new Error('demo: three New transactions of active01');
    const a = await allocation(third.id);
    expect(a.codes.find((c) => c.name === 'GL account')?.mayEdit).toBe(false);
    const [cost, gl] = [codeId(a, 'Cost centre'), codeId(a, 'GL account')];
    const refused = await send('active01', 'PUT', `/app/api/transactions/${third.id}/allocation`, {
      mode: 'percent',
      lines: [{ percent: 100, coding: { [cost]: '4100', [gl]: '6100' } }],
    });
    expect(refused.json().fieldErrors).toEqual({ [`lines.0.coding.${gl}`]: 'allocation.code.notAllowed' });
    const manager = await send('lvlmgr01', 'PUT', `/app/api/transactions/${third.id}/allocation`, {
      mode: 'percent',
      lines: [{ percent: 100, coding: { [cost]: '4100', [gl]: '6100' } }],
    });
    expect(manager.statusCode, manager.body).toBe(200);
    // Now the cardholder may recode the cost centre as long as the GL account stays as the manager left it.
    const keeps = await send('active01', 'PUT', `/app/api/transactions/${third.id}/allocation`, {
      mode: 'percent',
      lines: [{ percent: 100, coding: { [cost]: '4200', [gl]: '6100' } }],
    });
    expect(keeps.statusCode, keeps.body).toBe(200);
    // Put the card back on its group's scheme for the other tests.
    await send('admin01', 'PUT', `/app/api/org/companies/100001/accounts/${card?.id}/coding`, {
      schemeId: null,
      defaults: {},
    });
  });

  it('refuses a locked transaction, answers 404 outside the scope, and offers values by the line', async () => {
    const [locked] = await active01Transactions('Locked');
    if (locked) {
      const res = await send('active01', 'PUT', `/app/api/transactions/${locked.id}/allocation`, {
        mode: 'percent',
        lines: [],
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('transactions.edit.locked');
      expect((await allocation(locked.id)).canEdit).toBe(false);
    }
    const [first] = await active01Transactions('New');
    expect((await get('bncuser01', `/app/api/transactions/${first?.id}/allocation`)).statusCode).toBe(404);
    const a = await allocation(first?.id as number);
    const gl = codeId(a, 'GL account');
    const sub = codeId(a, 'Sub-account');
    const offered = (
      await get('active01', `/app/api/transactions/${first?.id}/allocation/values?code=${gl}`)
    ).json();
    // The Travel scheme offers the subset "Travel costs" only.
    expect(offered.rows.map((v: { value: string }) => v.value)).toEqual(['6100', '6200']);
    const dependants = (
      await get(
        'active01',
        `/app/api/transactions/${first?.id}/allocation/values?code=${sub}&parent=6100&q=h`,
      )
    ).json();
    expect(dependants.rows.map((v: { value: string }) => v.value)).toEqual(['HOTEL']);
    const notInScheme = await get(
      'active01',
      `/app/api/transactions/${first?.id}/allocation/values?code=999`,
    );
    expect(notInScheme.statusCode).toBe(400);
  });
});

describe('mass allocation', () => {
  it('codes a month of transactions at once, refuses all when one cannot be, and undoes as a whole', async () => {
    // The latest month of Acme's that holds both open and closed (locked or exported) transactions.
    const [range] = await queryRows<{ month: string }>(
      ctx.app.db,
      sql`select to_char(transaction_date, 'YYYY-MM') as month from ${transactions}
          where company_id = (select id from companies where number = '100001') and extract(day from transaction_date) <= 28
          group by 1
          having bool_or(status = 'Locked' or exported_at is not null) and bool_or(status <> 'Locked' and exported_at is null)
          order by 1 desc limit 1`,
    );
    const month = range?.month as string;
    const from = `${month}-01`;
    const to = `${month}-28`;
    const codes = (
      (await get('admin01', '/app/api/org/companies/100001/accounting-codes')).json() as {
        rows: { id: number; name: string }[];
      }
    ).rows;
    const id = (name: string) => String(codes.find((c) => c.name === name)?.id);
    const body = {
      company: '100001',
      from,
      to,
      lines: [
        {
          percent: 50,
          coding: { [id('Cost centre')]: '4400', [id('GL account')]: '6200', [id('Sub-account')]: 'CLIENT' },
        },
        {
          percent: 50,
          coding: { [id('Cost centre')]: '4500', [id('GL account')]: '6200', [id('Sub-account')]: 'STAFF' },
        },
      ],
    };
    const inRange = await ctx.app.db
      .select({
        id: transactions.id,
        status: transactions.status,
        exported: sql<boolean>`${transactions.exportedAt} is not null`,
        split: transactions.splitLines,
      })
      .from(transactions)
      .where(
        sql`${transactions.companyId} = (select id from companies where number = '100001') and ${transactions.transactionDate} between ${from}::date and ${to}::date`,
      );
    const blocked = inRange.filter((t) => t.status === 'Locked' || t.exported || t.split > 0);
    expect(blocked.length, 'the demo month holds locked or exported transactions').toBeGreaterThan(0);
    // Named one by one, a locked or exported transaction refuses the whole change, and nothing changes.
    const named = await send('admin01', 'POST', '/app/api/transactions/mass-allocations', {
      company: '100001',
      transactionIds: inRange.map((t) => t.id),
      lines: body.lines,
    });
    expect(named.statusCode).toBe(400);
    expect(named.json().total).toBe(blocked.length);
    expect(
      named
        .json()
        .problems.map((p: { transactionId: number }) => p.transactionId)
        .sort(),
    ).toEqual(blocked.map((t) => t.id).sort());
    // A coding one account's scheme refuses refuses it all too: an unknown cost centre.
    const unknown = await send('admin01', 'POST', '/app/api/transactions/mass-allocations', {
      ...body,
      lines: [{ percent: 100, coding: { [id('Cost centre')]: '9999', [id('GL account')]: '6200' } }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().problems[0]).toMatchObject({
      problem: 'allocation.value.unknown',
      code: 'Cost centre',
    });
    // By date range: the open ones are coded, the closed ones left as they are and counted.
    const byMonth = await send('admin01', 'POST', '/app/api/transactions/mass-allocations', body);
    expect(byMonth.statusCode, byMonth.body).toBe(201);
    expect(byMonth.json()).toMatchObject({
      skipped: blocked.length,
      transactions: inRange.length - blocked.length,
    });
    const first = byMonth.json() as MassAllocation;
    expect(
      (await send('admin01', 'POST', `/app/api/transactions/mass-allocations/${first.id}/undo`)).statusCode,
    ).toBe(200);
    // Choose only the open ones by id.
    const open = inRange
      .filter((t) => !(t.status === 'Locked' || t.exported || t.split > 0))
      .map((t) => t.id);
    expect(open.length).toBeGreaterThan(0);
    const byIds = await send('admin01', 'POST', '/app/api/transactions/mass-allocations', {
      company: '100001',
      transactionIds: open,
      lines: body.lines,
    });
    expect(byIds.statusCode, byIds.body).toBe(201);
    const batch = byIds.json() as MassAllocation;
    expect(batch.transactions).toBe(open.length);
    expect(batch.coding[0]?.coding).toMatchObject({ 'Cost centre': '4400' });
    const one = (
      await get('admin01', `/app/api/transactions/${open[0]}/allocation`)
    ).json() as TransactionAllocation;
    expect(one.parts[0]).toMatchObject({ source: 'allocation', batchId: batch.id });
    const list = (await get('admin01', '/app/api/transactions/mass-allocations?company=100001')).json() as {
      rows: MassAllocation[];
    };
    expect(list.rows[0]?.id).toBe(batch.id);

    // A transaction recoded since: the undo refuses, nothing changes.
    const recoded = open[0] as number;
    const before = (
      await get('admin01', `/app/api/transactions/${recoded}/allocation`)
    ).json() as TransactionAllocation;
    await send('admin01', 'PUT', `/app/api/transactions/${recoded}/allocation`, {
      mode: 'percent',
      lines: [
        {
          percent: 100,
          coding: Object.fromEntries(
            Object.entries(before.parts[0]?.lines[0]?.coding ?? {}).map(([k, v]) => [k, v.value]),
          ),
        },
      ],
    });
    const refused = await send('admin01', 'POST', `/app/api/transactions/mass-allocations/${batch.id}/undo`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().problems[0]).toMatchObject({
      transactionId: recoded,
      problem: 'massAllocation.changedSince',
    });
    // Put it back as the batch left it (reset + the batch is still on the others): reset it and redo the batch.
    await send('admin01', 'PUT', `/app/api/transactions/${recoded}/allocation`, {
      mode: 'percent',
      lines: [],
    });
    const again = await send('admin01', 'POST', '/app/api/transactions/mass-allocations', {
      company: '100001',
      transactionIds: open,
      lines: body.lines,
    });
    expect(again.statusCode, again.body).toBe(201);
    const undo = await send(
      'admin01',
      'POST',
      `/app/api/transactions/mass-allocations/${(again.json() as MassAllocation).id}/undo`,
    );
    expect(undo.statusCode, undo.body).toBe(200);
    expect((undo.json() as MassAllocation).undoneAt).not.toBeNull();
    // Each transaction has what it had before the second batch: the first batch's lines.
    const restored = (
      await get('admin01', `/app/api/transactions/${open[1] ?? open[0]}/allocation`)
    ).json() as TransactionAllocation;
    expect(restored.parts[0]?.batchId).toBe(open[1] === undefined ? null : batch.id);
    const twice = await send(
      'admin01',
      'POST',
      `/app/api/transactions/mass-allocations/${(again.json() as MassAllocation).id}/undo`,
    );
    expect(twice.json().code).toBe('massAllocation.undone');
  });

  it('is for the company administrators, inside their scope', async () => {
    const body = { company: '100001', transactionIds: [1], lines: [{ percent: 100, coding: {} }] };
    expect((await send('active01', 'POST', '/app/api/transactions/mass-allocations', body)).statusCode).toBe(
      403,
    );
    expect((await send('lvlmgr01', 'POST', '/app/api/transactions/mass-allocations', body)).statusCode).toBe(
      403,
    );
    expect(
      (await send('bncadmin01', 'POST', '/app/api/transactions/mass-allocations', body)).statusCode,
    ).toBe(404);
    const tooMany = await send('admin01', 'POST', '/app/api/transactions/mass-allocations', {
      ...body,
      transactionIds: Array.from({ length: 10_001 }, (_, i) => i + 1),
    });
    expect(tooMany.statusCode).toBe(400);
    const nothing = await send('admin01', 'POST', '/app/api/transactions/mass-allocations', {
      company: '100001',
      lines: body.lines,
    });
    expect(nothing.json().fieldErrors).toEqual({ selection: 'massAllocation.selection.required' });
  });
});

describe('the general-ledger export carries the coding', () => {
  it('writes a row per allocation line with its share of the tax and its codes', async () => {
    const [tx] = await ctx.app.db
      .select({
        id: transactions.id,
        reference: transactions.reference,
        amount: transactions.amount,
        tax: transactions.tax,
        date: transactions.transactionDate,
      })
      .from(transactions)
      .innerJoin(accounts, eq(accounts.id, transactions.accountId))
      .innerJoin(users, eq(users.cardholderId, accounts.cardholderId))
      .where(
        and(
          eq(users.userId, 'active01'),
          eq(transactions.status, 'Approved'),
          sql`${transactions.exportedAt} is null and ${transactions.splitLines} = 0`,
        ),
      )
      .orderBy(transactions.id)
      .limit(1);
    if (!tx) throw new Error('demo: an approved, unexported transaction of active01');
    const a = await allocation(tx.id, 'admin01');
    const [cost, gl, sub] = ['Cost centre', 'GL account', 'Sub-account'].map((n) => codeId(a, n)) as [
      string,
      string,
      string,
    ];
    const put = await send('admin01', 'PUT', `/app/api/transactions/${tx.id}/allocation`, {
      mode: 'percent',
      lines: [
        { percent: 70, coding: { [cost]: '4100', [gl]: '6100', [sub]: 'RAIL' } },
        { percent: 30, coding: { [cost]: '4500', [gl]: '6200', [sub]: 'CLIENT' } },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const made = await send('admin01', 'POST', '/app/api/transactions/exports', {
      from: tx.date,
      to: tx.date,
      format: 'csv',
    });
    expect(made.statusCode, made.body).toBe(200);
    const file = await get('admin01', `/app/api/transactions/exports/${made.json().id}/file`);
    const { parse } = await import('csv-parse/sync');
    const records = parse(file.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(records.length).toBe(made.json().rows);
    const mine = records.filter((r) => r.reference === tx.reference);
    expect(
      mine.map((r) => [
        r.allocation_line,
        r.allocation_percent,
        r['Cost centre'],
        r['GL account'],
        r['Sub-account'],
      ]),
    ).toEqual([
      ['1', '70', '4100', '6100', 'RAIL'],
      ['2', '30', '4500', '6200', 'CLIENT'],
    ]);
    const minor = (text: string) => BigInt(text.replace('.', ''));
    expect(mine.reduce((s, r) => s + minor(r.amount as string), 0n)).toBe(tx.amount);
    expect(mine.reduce((s, r) => s + minor(r.tax_amount as string), 0n)).toBe(tx.tax);
    // A transaction without an allocation of its own carries its account's default coding.
    const others = records.filter((r) => r.reference !== tx.reference && r.allocation_line === '0');
    for (const r of others) expect(r).toHaveProperty('Cost centre');
    // Exported: its coding cannot change any more.
    const late = await send('admin01', 'PUT', `/app/api/transactions/${tx.id}/allocation`, {
      mode: 'percent',
      lines: [],
    });
    expect(late.json().code).toBe('transactions.edit.exported');
  });
});
