import { createHash } from 'node:crypto';
import type {
  ExpenseReportDetail,
  ExpenseReportList,
  ExpenseSettings,
  ExpenseTransactionList,
} from '@cardportal/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  expenseLines,
  expensePolicies,
  expenseReports,
  mailOutbox,
  storedFiles,
  users,
} from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * Expense reports (issue 17 items 2 and 3) over HTTP on the demo's Acme set-up: a cardholder (active01,
 * Plant North under Operations) builds a report from card transactions, an out-of-pocket cost and a
 * journey with a receipt; it is routed up the reporting structure to the level manager (lvlmgr01, Line
 * managers up to $2,500), escalated to Finance above that, sent back, rerouted, held without a policy and
 * submitted again once one exists — each refusal named, the total always the lines' sum.
 */
let ctx: TestContext;
const { as, get, send } = signedInClients(() => ctx);
const SETTINGS = '/app/api/org/companies/100001/expense-settings';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

let types: Record<string, number>;
let mileageRateId: number;

async function setUp() {
  if (types) return;
  const settings = (await (await get('admin01', SETTINGS)).json()) as ExpenseSettings;
  types = Object.fromEntries(settings.types.map((t) => [t.name, t.id]));
  mileageRateId = settings.mileageRates.find((r) => r.unit === 'mi')?.id ?? 0;
}

async function newReport(name: string, user = 'active01'): Promise<ExpenseReportDetail> {
  const res = await send(user, 'POST', '/app/api/my/expense-reports', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ExpenseReportDetail;
}

async function addLine(id: number, body: Record<string, unknown>, user = 'active01') {
  const res = await send(user, 'POST', `/app/api/expense-reports/${id}/lines`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ExpenseReportDetail;
}

/** The demo types' required properties (Meals: attendees, Hotel: nights, Mileage: purpose). */
const PROPERTIES: Record<string, Record<string, string>> = {
  Meals: { Attendees: 'Plant team' },
  Hotel: { Nights: '5' },
  Mileage: { Purpose: 'Trade fair' },
};

const cash = (amount: string, type = 'Meals', description = 'Team dinner') => ({
  kind: 'cash',
  typeId: types[type],
  description,
  date: '2026-10-02',
  amount,
  properties: PROPERTIES[type] ?? {},
});

async function act(user: string, id: number, action: 'submit' | 'approve', expected = 200) {
  const res = await send(user, 'POST', `/app/api/expense-reports/${id}/${action}`);
  expect(res.statusCode, res.body).toBe(expected);
  return res.json() as ExpenseReportDetail & { code?: string };
}

async function userPk(userId: string): Promise<number> {
  const [row] = await ctx.app.db.select({ id: users.id }).from(users).where(eq(users.userId, userId));
  return row?.id ?? 0;
}

async function mailsTo(userId: string) {
  const [u] = await ctx.app.db.select({ email: users.email }).from(users).where(eq(users.userId, userId));
  return ctx.app.db
    .select({ subject: mailOutbox.subject, body: mailOutbox.body })
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, u?.email ?? ''))
    .orderBy(desc(mailOutbox.id));
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

async function upload(id: number, line: number, bytes: Buffer, name = 'taxi.png', user = 'active01') {
  return (await as(user)).request({
    method: 'PUT',
    url: `/app/api/expense-reports/${id}/lines/${line}/receipt?name=${encodeURIComponent(name)}`,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

describe('the demo', () => {
  it('has a report in every state, the submitted one waiting for the level manager', async () => {
    const rows = await ctx.app.db
      .select({ status: expenseReports.status, name: expenseReports.name })
      .from(expenseReports);
    expect(new Set(rows.map((r) => r.status))).toEqual(
      new Set(['Saved', 'Held', 'Submitted', 'Approved', 'SentBack']),
    );
    const queue = (await (await get('lvlmgr01', '/app/api/expense-approvals')).json()) as ExpenseReportList;
    expect(queue.rows.map((r) => r.name)).toContain('Plant North supplies');
    const held = (await (await get('bncuser01', '/app/api/my/expense-reports')).json()) as ExpenseReportList;
    expect(held.rows.map((r) => [r.name, r.status])).toEqual([['Viaje a Valencia', 'Held']]);
  });
});

describe('a cardholder builds a report', () => {
  it('only cardholders create reports; lines from their own transactions, cash and a journey; the total is the lines', async () => {
    await setUp();
    const refused = await send('admin01', 'POST', '/app/api/my/expense-reports', { name: 'Mine' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('expenseReport.cardholdersOnly');
    expect(
      (await send('active01', 'POST', '/app/api/my/expense-reports', { name: ' ' })).json().fieldErrors,
    ).toEqual({
      name: 'expenseReport.name.required',
    });

    const report = await newReport('Chicago trade fair');
    expect(report).toMatchObject({ status: 'Saved', total: { minor: '0', currency: 'USD' }, lines: [] });
    expect(report.policy?.descriptionMaxLength).toBe(200);

    const open = (await (
      await get('active01', '/app/api/my/expense-transactions')
    ).json()) as ExpenseTransactionList;
    const usable = open.rows.filter((t) => t.amount.currency === 'USD' && BigInt(t.amount.minor) > 0n);
    expect(usable.length).toBeGreaterThanOrEqual(2);
    for (const t of open.rows) expect(t.maskedNumber).toMatch(/^\d{6}\*+\d{4}$/);
    const [t1, t2] = usable as [(typeof usable)[0], (typeof usable)[0]];

    await addLine(report.id, {
      kind: 'card',
      typeId: types.Meals,
      description: 'Client lunch',
      transactionId: t1.id,
      properties: PROPERTIES.Meals,
    });
    const twice = await send('active01', 'POST', `/app/api/expense-reports/${report.id}/lines`, {
      kind: 'card',
      typeId: types.Meals,
      description: 'Again',
      transactionId: t1.id,
      properties: PROPERTIES.Meals,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fieldErrors).toEqual({ transactionId: 'expenseLine.transaction.onReport' });
    // Another cardholder's transaction is unknown to this one.
    // Another company without a policy: its cardholder names the currency.
    const noCurrency = await send('bncuser01', 'POST', '/app/api/my/expense-reports', { name: 'Norte' });
    expect(noCurrency.json().fieldErrors).toEqual({ currency: 'expenseReport.currency.required' });
    const other = await send('bncuser01', 'POST', '/app/api/my/expense-reports', {
      name: 'Norte',
      currency: 'eur',
    });
    expect(other.json()).toMatchObject({ status: 'Saved', total: { currency: 'EUR' }, policy: null });
    const stolen = await send('bncuser01', 'POST', `/app/api/expense-reports/${other.json().id}/lines`, {
      kind: 'card',
      typeId: types.Meals,
      description: 'Not mine',
      transactionId: t2.id,
      properties: PROPERTIES.Meals,
    });
    expect(stolen.json().fieldErrors).toEqual({
      typeId: 'expenseLine.type.unknown',
      transactionId: 'expenseLine.transaction.unknown',
    });

    await addLine(report.id, {
      kind: 'card',
      typeId: types.Meals,
      description: 'Hotel breakfast',
      transactionId: t2.id,
      taxRateId: null,
      properties: PROPERTIES.Meals,
    });
    const backwards = await send('active01', 'POST', `/app/api/expense-reports/${report.id}/lines`, {
      kind: 'mileage',
      typeId: types.Mileage,
      description: 'To the fair',
      date: '2026-10-01',
      mileageRateId,
      odometerStart: 1350,
      odometerEnd: 1200,
      properties: PROPERTIES.Mileage,
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fieldErrors).toEqual({ odometerEnd: 'expenseLine.odometer.order' });
    const wrongType = await send('active01', 'POST', `/app/api/expense-reports/${report.id}/lines`, {
      ...cash('12.00'),
      typeId: types.Mileage,
    });
    expect(wrongType.json().fieldErrors).toMatchObject({ typeId: 'expenseLine.type.category' });
    const long = await send(
      'active01',
      'POST',
      `/app/api/expense-reports/${report.id}/lines`,
      cash('12.00', 'Meals', 'x'.repeat(201)),
    );
    expect(long.json().fieldErrors).toEqual({ description: 'expenseLine.description.tooLong' });

    const withJourney = await addLine(report.id, {
      kind: 'mileage',
      typeId: types.Mileage,
      description: 'To the fair',
      date: '2026-10-01',
      mileageRateId,
      odometerStart: 1200,
      odometerEnd: 1350,
      properties: PROPERTIES.Mileage,
    });
    const journey = withJourney.lines.find((l) => l.kind === 'mileage');
    // 150 mi at $0.70 = $105.00, in integer arithmetic.
    expect(journey).toMatchObject({ amount: { minor: '10500' }, mileage: { distance: 150, unit: 'mi' } });
    // Above $25 without a receipt: flagged, not refused.
    expect(journey?.flags).toEqual(['receiptMissing']);
    const full = await addLine(report.id, cash('80.00'));
    const dinner = full.lines.find((l) => l.description === 'Team dinner');
    expect(dinner?.flags).toEqual(['overLimit', 'receiptMissing']);
    const sum = full.lines.reduce((s, l) => s + BigInt(l.amount.minor), 0n);
    expect(full.total.minor).toBe(sum.toString());
    expect(full.flagged).toBe(full.lines.filter((l) => l.flags.length > 0).length);

    // Receipts: PNG by content, stored once by its hash; EICAR, a wrong type, and 4 MB + 1 refused.
    const attached = await upload(report.id, journey?.id ?? 0, PNG, '../../etc/taxi<1>.png');
    expect(attached.statusCode, attached.body).toBe(200);
    const line = (attached.json() as ExpenseReportDetail).lines.find((l) => l.id === journey?.id);
    expect(line?.receipt).toEqual({ name: 'taxi1.png', mediaType: 'image/png', size: PNG.length });
    expect(line?.flags).toEqual([]);
    await upload(report.id, dinner?.id ?? 0, PNG);
    const png = createHash('sha256').update(PNG).digest('hex');
    // Attached to two lines, stored once.
    expect(
      await ctx.app.db
        .select({ sha: storedFiles.sha256 })
        .from(storedFiles)
        .where(eq(storedFiles.sha256, png)),
    ).toHaveLength(1);
    expect(
      await ctx.app.db
        .select({ id: expenseLines.id })
        .from(expenseLines)
        .where(eq(expenseLines.receiptSha256, png)),
    ).toHaveLength(2);
    const infected = await upload(report.id, dinner?.id ?? 0, Buffer.from(`%PDF-1.4\n${EICAR}`));
    expect([infected.statusCode, infected.json().code]).toEqual([422, 'upload.virus']);
    const text = await upload(report.id, dinner?.id ?? 0, Buffer.from('just text'));
    expect([text.statusCode, text.json().code]).toEqual([415, 'upload.unsupportedFormat']);
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 0);
    PNG.copy(big);
    const tooBig = await upload(report.id, dinner?.id ?? 0, big);
    expect([tooBig.statusCode, tooBig.json().code]).toEqual([413, 'upload.tooLarge']);
    // The level manager above the cardholder sees it; an account group manager not on its route does not.
    const shown = await get('lvlmgr01', `/app/api/expense-reports/${report.id}/lines/${journey?.id}/receipt`);
    expect(shown.statusCode).toBe(200);
    expect(
      (await get('agmgr01', `/app/api/expense-reports/${report.id}/lines/${journey?.id}/receipt`)).statusCode,
    ).toBe(404);
    const own = await get('active01', `/app/api/expense-reports/${report.id}/lines/${journey?.id}/receipt`);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['content-disposition']).toBe('inline; filename="taxi1.png"');
    expect(own.rawPayload.equals(PNG)).toBe(true);

    // Nobody else sees it; lists show it to its cardholder only.
    expect((await get('bncuser01', `/app/api/expense-reports/${report.id}`)).statusCode).toBe(404);
    const mine = (await (await get('active01', '/app/api/my/expense-reports')).json()) as ExpenseReportList;
    expect(mine.rows.map((r) => r.id)).toContain(report.id);
    expect((await get('active01', '/app/api/my/expense-reports?status=Nope')).statusCode).toBe(400);

    // The audit trail names each change.
    const rows = await ctx.app.db
      .select({ event: auditEvents.event })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'expenseReport'), eq(auditEvents.entityId, String(report.id))));
    expect(new Set(rows.map((r) => r.event))).toEqual(
      new Set(['expenseReport.created', 'expenseLine.added', 'expenseLine.receiptAttached']),
    );
  });
});

describe('the approval route', () => {
  it('goes to the level manager, is submitted once, approved by him alone, and mails both ends', async () => {
    await setUp();
    const report = await newReport('Team dinner');
    await addLine(report.id, cash('60.00', 'Meals', 'Dinner with the plant team'));
    expect((await act('active01', report.id, 'approve', 403)).code).toBe('expenseReport.selfApproval');
    const submitted = await act('active01', report.id, 'submit');
    expect(submitted.status).toBe('Submitted');
    expect(submitted.pending?.approvers.map((a) => a.userId)).toEqual(['lvlmgr01']);
    expect((await act('active01', report.id, 'submit', 409)).code).toBe('expenseReport.alreadySubmitted');
    const edit = await send('active01', 'POST', `/app/api/expense-reports/${report.id}/lines`, cash('1.00'));
    expect([edit.statusCode, edit.json().code]).toEqual([409, 'expenseReport.notEditable']);
    expect((await mailsTo('lvlmgr01'))[0]?.subject).toMatch(/expense report/i);

    // Not his to approve: admin01 (Finance) is not on this step; he cannot even see it yet... as an
    // administrator of the company he sees it, but may not approve it.
    expect((await act('admin01', report.id, 'approve', 403)).code).toBe('expenseReport.notApprover');
    const queue = (await (await get('lvlmgr01', '/app/api/expense-approvals')).json()) as ExpenseReportList;
    expect(queue.rows.map((r) => r.id)).toContain(report.id);
    const approved = await act('lvlmgr01', report.id, 'approve');
    expect(approved.status).toBe('Approved');
    expect(approved.history.map((h) => h.action)).toEqual(['submitted', 'approved']);
    expect((await mailsTo('active01'))[0]?.subject).toMatch(/approved/i);
    expect((await act('lvlmgr01', report.id, 'approve', 409)).code).toBe('expenseReport.notSubmitted');
    const after = (await (await get('lvlmgr01', '/app/api/expense-approvals')).json()) as ExpenseReportList;
    expect(after.rows.map((r) => r.id)).not.toContain(report.id);
  });

  it('escalates over the manager limit to Finance and sends back with a reason', async () => {
    await setUp();
    const report = await newReport('Conference');
    await addLine(report.id, cash('3000.00', 'Hotel', 'Conference hotel, five nights'));
    await act('active01', report.id, 'submit');
    const escalated = await act('lvlmgr01', report.id, 'approve');
    expect(escalated.status).toBe('Submitted');
    expect(escalated.pending?.step).toBe('authority');
    expect(escalated.pending?.approvers.map((a) => a.userId).sort()).toEqual(['admin01', 'cgadmin01']);
    expect((await act('lvlmgr01', report.id, 'approve', 403)).code).toBe('expenseReport.notApprover');

    const noReason = await send('admin01', 'POST', `/app/api/expense-reports/${report.id}/send-back`, {
      note: ' ',
    });
    expect(noReason.json().fieldErrors).toEqual({ note: 'expenseReport.note.required' });
    const back = await send('admin01', 'POST', `/app/api/expense-reports/${report.id}/send-back`, {
      note: 'Attach the hotel invoice',
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().status).toBe('SentBack');
    expect((await mailsTo('active01'))[0]?.body).toContain('Attach the hotel invoice');

    // Resubmitted: approvals start over (a new round), the same route again.
    const again = await act('active01', report.id, 'submit');
    expect(again.pending?.approvers.map((a) => a.userId)).toEqual(['lvlmgr01']);
    await act('lvlmgr01', report.id, 'approve');
    const done = await act('cgadmin01', report.id, 'approve');
    expect(done.status).toBe('Approved');
  });

  it('asks the threshold profile above $10,000 and never lets a report through unroutable', async () => {
    await setUp();
    const report = await newReport('Trade show stand');
    await addLine(report.id, cash('12000.00', 'Office supplies', 'Stand rental at the show'));
    await act('active01', report.id, 'submit');
    await act('lvlmgr01', report.id, 'approve');
    const authority = await act('admin01', report.id, 'approve');
    // Finance at 50 % of two: admin01's approval is its share.
    expect(authority.status).toBe('Approved');

    const huge = await newReport('Fleet');
    await addLine(huge.id, cash('30000.00', 'Office supplies', 'Above every approval limit'));
    await act('active01', huge.id, 'submit');
    const stuck = await act('lvlmgr01', huge.id, 'approve');
    expect(stuck.status).toBe('Submitted');
    expect(stuck.unroutable).toBe(true);
    expect(stuck.pending).toBeNull();
  });

  it('reroutes only Submitted or Approved reports, only to an individual of the company, never to the cardholder', async () => {
    await setUp();
    const report = await newReport('Ground transport');
    await addLine(report.id, cash('40.00', 'Ground transport', 'Airport to the hotel'));
    const early = await send('admin01', 'POST', `/app/api/expense-reports/${report.id}/reroute`, {
      userId: 'agmgr01',
    });
    expect([early.statusCode, early.json().code]).toEqual([409, 'expenseReport.reroute.status']);
    await act('active01', report.id, 'submit');
    const self = await send('admin01', 'POST', `/app/api/expense-reports/${report.id}/reroute`, {
      userId: 'active01',
    });
    expect(self.json().fieldErrors).toEqual({ userId: 'expenseReport.selfApproval' });
    const foreign = await send('admin01', 'POST', `/app/api/expense-reports/${report.id}/reroute`, {
      userId: 'bncadmin01',
    });
    expect(foreign.json().fieldErrors).toEqual({ userId: 'expenseReport.reroute.approverUnknown' });
    expect(
      (await send('lvlmgr01', 'POST', `/app/api/expense-reports/${report.id}/reroute`, { userId: 'agmgr01' }))
        .statusCode,
    ).toBe(403);
    const rerouted = await send('admin01', 'POST', `/app/api/expense-reports/${report.id}/reroute`, {
      userId: 'agmgr01',
      note: 'Grace is away',
    });
    expect(rerouted.statusCode, rerouted.body).toBe(200);
    expect(rerouted.json().pending.approvers.map((a: { userId: string }) => a.userId)).toEqual(['agmgr01']);
    expect((await act('lvlmgr01', report.id, 'approve', 403)).code).toBe('expenseReport.notApprover');
    expect((await act('agmgr01', report.id, 'approve')).status).toBe('Approved');
    // An approved report rerouted goes back for that person's review.
    const review = await send('admin01', 'POST', `/app/api/expense-reports/${report.id}/reroute`, {
      userId: 'lvlmgr01',
    });
    expect(review.json()).toMatchObject({ status: 'Submitted', pending: { step: 'review:2' } });
    expect(review.json().pending.approvers.map((a: { userId: string }) => a.userId)).toEqual(['lvlmgr01']);
    expect((await act('lvlmgr01', report.id, 'approve')).status).toBe('Approved');
  });

  it('holds a report submitted without a policy and submits it again once one is saved', async () => {
    await setUp();
    const report = await newReport('Held');
    await addLine(report.id, cash('20.00', 'Ground transport', 'Station to office'));
    const [policy] = await ctx.app.db
      .select()
      .from(expensePolicies)
      .where(eq(expensePolicies.currency, 'USD'));
    if (!policy) throw new Error('no demo policy');
    await ctx.app.db.delete(expensePolicies).where(eq(expensePolicies.companyId, policy.companyId));
    const held = await act('active01', report.id, 'submit');
    expect(held.status).toBe('Held');
    expect((await act('active01', report.id, 'submit', 409)).code).toBe('expenseReport.alreadySubmitted');
    const saved = await send('admin01', 'PUT', `${SETTINGS}/policy`, {
      currency: 'USD',
      receiptAbove: '25.00',
      descriptionMaxLength: 200,
      workflowInstructions: policy.workflowInstructions,
      limits: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const now = (await (
      await get('active01', `/app/api/expense-reports/${report.id}`)
    ).json()) as ExpenseReportDetail;
    expect(now.status).toBe('Submitted');
    expect(now.history.map((h) => h.action)).toEqual(['held', 'resubmitted']);
    expect(now.pending?.approvers.map((a) => a.userId)).toEqual(['lvlmgr01']);
  });
});

describe('what reports hold on to', () => {
  it('keeps a cardholder with open reports active and an expense type a line uses', async () => {
    await setUp();
    const report = await newReport('Open one');
    await addLine(report.id, cash('15.00', 'Ground transport', 'Short ride'));
    const [holder] = await ctx.app.db
      .select({ cardholderId: users.cardholderId })
      .from(users)
      .where(eq(users.userId, 'active01'));
    const off = await send(
      'admin01',
      'PUT',
      `/app/api/org/companies/100001/cardholders/${holder?.cardholderId}/status`,
      {
        active: false,
      },
    );
    expect([off.statusCode, off.json().code]).toEqual([409, 'cardholder.openExpenseReports']);
    const taxi = await send('admin01', 'DELETE', `${SETTINGS}/types/${types['Ground transport']}`);
    expect([taxi.statusCode, taxi.json().code]).toEqual([409, 'expenseType.inUse']);
    // Deleting the report frees its transactions and lines.
    expect((await send('active01', 'DELETE', `/app/api/expense-reports/${report.id}`)).statusCode).toBe(204);
    expect(await ctx.app.db.select().from(expenseLines).where(eq(expenseLines.reportId, report.id))).toEqual(
      [],
    );
    const owner = await userPk('active01');
    const totals = await ctx.app.db
      .select({ id: expenseReports.id, total: expenseReports.totalMinor, lines: expenseReports.lineCount })
      .from(expenseReports)
      .where(inArray(expenseReports.ownerPk, [owner]));
    for (const r of totals) {
      const lines = await ctx.app.db.select().from(expenseLines).where(eq(expenseLines.reportId, r.id));
      expect(r.total).toBe(lines.reduce((s, l) => s + l.amountMinor, 0n));
      expect(r.lines).toBe(lines.length);
    }
  });
});
