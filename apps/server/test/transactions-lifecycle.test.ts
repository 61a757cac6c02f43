/**
 * A transaction's life (issue 15 item 4, seed 001 §4): reviewed before approved, approved before
 * locked; who may take each step by type and role permission (the policy), inside its scope, and only
 * while the company's program option is on; every step in the audit trail; two at once, one wins.
 */
import type { TransactionDetail } from '@cardportal/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { auditEvents, companies, programOptions, transactions } from '../src/db/schema.ts';
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
const step = async (userId: string, id: number, name: 'review' | 'approve' | 'lock') =>
  (await as(userId)).request({ method: 'POST', url: `/app/api/transactions/${id}/${name}` });
const detail = async (userId: string, id: number) =>
  JSON.parse((await (await as(userId)).get(`/app/api/transactions/${id}`)).body) as TransactionDetail;

/** New transactions on active01's card (Acme, under lvlmgr01's org point, in agmgr01's group). */
async function newOnes(n: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    ctx.services.database.db,
    sql`select t.id from transactions t join accounts a on a.id = t.account_id
      join users u on u.cardholder_id = a.cardholder_id
      where u.user_id = 'active01' and t.status = 'New' order by t.id limit ${n}`,
  );
  expect(rows).toHaveLength(n);
  return rows.map((r) => Number(r.id));
}

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('transaction lifecycle', () => {
  it('goes New → Reviewed → Approved → Locked, each step by whom the policy names', async () => {
    const [id] = await newOnes(1);
    if (id === undefined) throw new Error('no transaction');
    expect((await detail('active01', id)).steps).toEqual(['review']);
    // Approve and lock come after review; nobody skips.
    expect([
      (await step('admin01', id, 'approve')).statusCode,
      (await step('admin01', id, 'approve')).json().code,
    ]).toEqual([409, 'transactions.step.reviewFirst']);
    expect((await step('admin01', id, 'lock')).json().code).toBe('transactions.step.approveFirst');

    // The cardholder reviews its own; it may not approve (type), nor may a manager without the role.
    expect((await step('active01', id, 'review')).statusCode).toBe(200);
    expect((await step('active01', id, 'review')).json().code).toBe('transactions.step.done');
    expect((await step('active01', id, 'approve')).json()).toMatchObject({ code: 'transactions.forbidden' });
    expect((await step('agmgr01', id, 'approve')).statusCode).toBe(403);
    expect((await step('sysadmin01', id, 'review')).statusCode).toBe(403);
    expect((await step('bncadmin01', id, 'approve')).statusCode).toBe(404);
    expect((await detail('lvlmgr01', id)).steps).toEqual(['approve']);

    // The level manager holds the Approver role; it may not lock. The administrator locks.
    const approved = await step('lvlmgr01', id, 'approve');
    expect(approved.statusCode).toBe(200);
    expect((approved.json() as TransactionDetail).status).toBe('Approved');
    expect((await step('lvlmgr01', id, 'lock')).statusCode).toBe(403);
    expect((await detail('admin01', id)).steps).toEqual(['lock']);
    const locked = await step('admin01', id, 'lock');
    expect((locked.json() as TransactionDetail).status).toBe('Locked');
    expect((locked.json() as TransactionDetail).steps).toEqual([]);

    const trail = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entity, 'transaction'))
      .orderBy(auditEvents.id);
    const [row] = await ctx.services.database.db.select().from(transactions).where(eq(transactions.id, id));
    expect(
      trail.filter((e) => e.entityId === row?.reference).map((e) => [e.event, e.actorUserId, e.changes]),
    ).toEqual([
      ['transaction.reviewed', 'active01', { status: { before: 'New', after: 'Reviewed' } }],
      ['transaction.approved', 'lvlmgr01', { status: { before: 'Reviewed', after: 'Approved' } }],
      ['transaction.locked', 'admin01', { status: { before: 'Approved', after: 'Locked' } }],
    ]);
  });

  it('takes a step once when two ask at the same moment', async () => {
    const [id] = await newOnes(1);
    if (id === undefined) throw new Error('no transaction');
    const [a, b] = await Promise.all([step('active01', id, 'review'), step('admin01', id, 'review')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [row] = await ctx.services.database.db.select().from(transactions).where(eq(transactions.id, id));
    expect(row?.status).toBe('Reviewed');
  });

  it('refuses every step while the company has the program option off', async () => {
    const [id] = await newOnes(1);
    if (id === undefined) throw new Error('no transaction');
    const db = ctx.services.database.db;
    const [acme] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.number, '100001'));
    await db.insert(programOptions).values({
      level: 'company',
      companyId: acme?.id ?? 0,
      key: 'transactionApproval',
      enabled: false,
    });
    try {
      expect((await detail('active01', id)).steps).toEqual([]);
      const refused = await step('active01', id, 'review');
      expect([refused.statusCode, refused.json().code]).toEqual([403, 'programOption.disabled']);
      const [row] = await db.select().from(transactions).where(eq(transactions.id, id));
      expect(row?.status).toBe('New');
    } finally {
      await db
        .delete(programOptions)
        .where(
          and(eq(programOptions.companyId, acme?.id ?? 0), eq(programOptions.key, 'transactionApproval')),
        );
    }
  });
});
