import type { AccountBulkResult, AccountList } from '@cardportal/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountGroups, accounts, auditEvents, companies } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * "Move to a group" on the accounts list (issue 20 item 3): the group is checked once; each account is
 * moved exactly as alone (scope, the closed-is-final rule, its own audit row), and the answer says
 * done, unchanged or refused with the reason.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);
const ACME = '/app/api/org/companies/100001';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

async function groupId(company: string, name: string): Promise<number> {
  const [row] = await ctx.app.db
    .select({ id: accountGroups.id })
    .from(accountGroups)
    .innerJoin(companies, eq(companies.id, accountGroups.companyId))
    .where(and(eq(companies.number, company), eq(accountGroups.name, name)));
  if (!row) throw new Error(`no group ${name} in ${company}`);
  return row.id;
}

const move = (body: unknown, userId = 'admin01') => send(userId, 'POST', `${ACME}/accounts/bulk-move`, body);

describe('accounts: move to a group', () => {
  it('moves each account as alone: done, unchanged, refused (closed, another company) — one audit row each', async () => {
    const travel = await groupId('100001', 'Travel');
    const purchasing = await groupId('100001', 'Purchasing');
    const [closed] = await ctx.app.db
      .select({ id: accounts.id, groupId: accounts.accountGroupId })
      .from(accounts)
      .innerJoin(companies, eq(companies.id, accounts.companyId))
      .where(and(eq(companies.number, '100001'), eq(accounts.status, 'Closed')))
      .limit(1);
    const [foreign] = await ctx.app.db
      .select({ id: accounts.id })
      .from(accounts)
      .innerJoin(companies, eq(companies.id, accounts.companyId))
      .where(eq(companies.number, '100002'))
      .limit(1);
    if (!closed || !foreign) throw new Error('demo data: a closed Acme account and a Borealis one');
    // The target: the group the closed account is not in (so the closed-is-final rule is what refuses it).
    const target = closed.groupId === purchasing ? travel : purchasing;
    const list = (await get('admin01', `${ACME}/accounts`)).json() as AccountList;
    const open = list.rows.filter((a) => a.status !== 'Closed' && a.group?.id !== target);
    expect(open.length).toBeGreaterThanOrEqual(2);
    const [first, second] = open as [AccountList['rows'][number], AccountList['rows'][number]];
    // One already in the target (unchanged).
    await send('admin01', 'PUT', `${ACME}/accounts/${second.id}/group`, { groupId: target });
    const audited = async () =>
      Number(
        (
          await ctx.app.db
            .select({ n: sql<number>`count(*)` })
            .from(auditEvents)
            .where(eq(auditEvents.event, 'account.moved'))
        )[0]?.n,
      );
    const before = await audited();

    const res = await move({
      groupId: target,
      accountIds: [first.id, second.id, closed.id, foreign.id, first.id],
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as AccountBulkResult).results).toEqual([
      { id: first.id, outcome: 'done', code: null },
      { id: second.id, outcome: 'unchanged', code: null },
      { id: closed.id, outcome: 'refused', code: 'account.status.closedIsFinal' },
      { id: foreign.id, outcome: 'refused', code: 'account.notFound' },
    ]);
    expect(await audited()).toBe(before + 1);
    const moved = (await get('admin01', `${ACME}/accounts/${first.id}`)).json() as { group: { id: number } };
    expect(moved.group.id).toBe(target);
  });

  it('checks the group once and the list of accounts: a 400 naming the field, nothing moved', async () => {
    const travel = await groupId('100001', 'Travel');
    const list = (await get('admin01', `${ACME}/accounts`)).json() as AccountList;
    const account = list.rows.find((a) => a.status !== 'Closed' && a.group?.id !== travel);
    if (!account) throw new Error('an open account outside Travel');
    const foreignGroup = await groupId('100002', 'General');
    for (const [body, field, code] of [
      [{ groupId: foreignGroup, accountIds: [account.id] }, 'groupId', 'account.group.unknown'],
      [{ groupId: 0, accountIds: [account.id] }, 'groupId', 'account.group.unknown'],
      [{ groupId: travel, accountIds: [] }, 'accountIds', 'bulk.accountIds.none'],
      [
        { groupId: travel, accountIds: Array.from({ length: 51 }, (_, i) => i + 1) },
        'accountIds',
        'bulk.accountIds.tooMany',
      ],
      [{ groupId: travel, accountIds: ['x'] }, 'accountIds.0', undefined],
      [{ groupId: travel }, 'accountIds', 'bulk.accountIds.invalid'],
    ] as const) {
      const res = await move(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const fieldErrors = (res.json() as { fieldErrors: Record<string, string> }).fieldErrors;
      expect(Object.keys(fieldErrors)).toContain(field);
      if (code) expect(fieldErrors[field]).toBe(code);
    }
    // An inactive group: refused before any account is looked at.
    const inactive = await groupId('100001', 'Travel');
    await ctx.app.db.update(accountGroups).set({ active: false }).where(eq(accountGroups.id, inactive));
    const refused = await move({ groupId: inactive, accountIds: [account.id] });
    expect(refused.json()).toMatchObject({ fieldErrors: { groupId: 'account.group.inactive' } });
    await ctx.app.db.update(accountGroups).set({ active: true }).where(eq(accountGroups.id, inactive));
    const unchanged = (await get('admin01', `${ACME}/accounts/${account.id}`)).json() as {
      group: { id: number } | null;
    };
    expect(unchanged.group?.id).not.toBe(travel);
    // A read-only system administrator may not move; a cardholder neither.
    expect((await move({ groupId: travel, accountIds: [account.id] }, 'sysadmin01')).statusCode).toBe(403);
    expect((await move({ groupId: travel, accountIds: [account.id] }, 'active01')).statusCode).toBe(403);
  });
});
