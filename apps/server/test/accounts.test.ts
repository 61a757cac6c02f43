/**
 * Cardholders, card accounts and account groups of a company (issue 7), on the real database (PGlite
 * and PostgreSQL), signed in as the demo users of each type: scope in SQL (another tenant's record and
 * records outside O's subtree, S's group or A's own cardholder answer 404), validation, the status
 * rules, audit rows, and that no answer ever carries a full account number.
 */

import type {
  AccountDetail,
  AccountGroupList,
  AccountGroupSummary,
  AccountList,
  CardholderDetail,
  CardholderList,
  MyCards,
} from '@cardportal/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditEvents, cardholders, companies } from '../src/db/schema.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
const clients = new Map<string, TestClient>();
/** Every demo account number: no answer body may contain one. */
let fullNumbers: string[] = [];
const bodies: string[] = [];

async function as(userId: string): Promise<TestClient> {
  const cached = clients.get(userId);
  if (cached) return cached;
  const client = new TestClient(ctx.app);
  const res = await client.login(userId, DEMO_PASSWORD);
  expect(res.body, `${userId} signs in`).toBe('/app/');
  clients.set(userId, client);
  return client;
}

async function get(userId: string, url: string) {
  const res = await (await as(userId)).get(url);
  bodies.push(res.body);
  return res;
}

async function send(userId: string, method: 'POST' | 'PATCH' | 'PUT', url: string, body: unknown) {
  const res = await (await as(userId)).request({
    method,
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  bodies.push(res.body);
  return res;
}

const ACME = '/app/api/org/companies/100001';
const NORTE = '/app/api/org/companies/200001';

/** Ids by cardholder name and the accounts of each (from the database: tests need them). */
async function cardholderId(name1: string, name2: string): Promise<number> {
  const [row] = await ctx.services.database.db
    .select({ id: cardholders.id })
    .from(cardholders)
    .where(and(eq(cardholders.name1, name1), eq(cardholders.name2, name2)));
  if (!row) throw new Error(`no cardholder ${name1} ${name2}`);
  return row.id;
}

/** A cardholder's accounts with their full numbers, opened through the vault as only the server can. */
async function accountsOf(id: number) {
  const rows = await ctx.services.database.db
    .select({
      id: accounts.id,
      cipher: accounts.numberCipher,
      hash: accounts.numberHash,
      status: accounts.status,
    })
    .from(accounts)
    .where(eq(accounts.cardholderId, id))
    .orderBy(accounts.id);
  return rows.map((r) => ({ ...r, number: ctx.services.secrets.cards.open(r.cipher ?? '', r.hash ?? '') }));
}

beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
  fullNumbers = (
    await ctx.services.database.db
      .select({ cipher: accounts.numberCipher, hash: accounts.numberHash })
      .from(accounts)
  ).map((r) => ctx.services.secrets.cards.open(r.cipher ?? '', r.hash ?? ''));
  expect(fullNumbers.length).toBeGreaterThan(5);
});
afterAll(async () => {
  await ctx?.close();
});

describe('cardholders', () => {
  it('lists and searches by name (2+ characters) and by the last four digits', async () => {
    const all = (await get('admin01', `${ACME}/cardholders`)).json() as CardholderList;
    expect(all.total).toBeGreaterThan(3);
    expect(all.canModify).toBe(true);
    const grace = (await get('admin01', `${ACME}/cardholders?q=hopp`)).json() as CardholderList;
    expect(grace.rows.map((r) => `${r.name1} ${r.name2}`)).toEqual(['Grace Hopper']);
    expect(grace.rows[0]?.orgPoint?.number).toBe('A110');
    const full = (
      await get('admin01', `${ACME}/cardholders?q=${encodeURIComponent('grace hopper')}`)
    ).json() as CardholderList;
    expect(full.total).toBe(1);

    const [account] = await accountsOf(await cardholderId('Grace', 'Hopper'));
    const byLast4 = (
      await get('admin01', `${ACME}/cardholders?q=${account?.number.slice(-4)}`)
    ).json() as CardholderList;
    expect(byLast4.rows.map((r) => r.name2)).toContain('Hopper');

    const short = await get('admin01', `${ACME}/cardholders?q=x`);
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'search.tooShort', fieldErrors: { q: 'search.tooShort' } });
    const tampered = await get(
      'admin01',
      `${ACME}/cardholders?after=${Buffer.from('{"l":"cardholders","k":["a","b","c"]}').toString('base64url')}`,
    );
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toMatchObject({ fieldErrors: { after: 'page.cursorInvalid' } });
    const accountList = (await get('admin01', `${ACME}/accounts`)).json() as AccountList;
    expect(accountList).toMatchObject({ nextCursor: null, prevCursor: null });
    expect(accountList.rows.length).toBe(accountList.total);
    const notAccounts = await get(
      'admin01',
      `${ACME}/accounts?before=${Buffer.from('{"l":"accounts","k":["","",1,1]}').toString('base64url')}`,
    );
    expect(notAccounts.json()).toMatchObject({ fieldErrors: { before: 'page.cursorInvalid' } });
    expect((await get('admin01', `${ACME}/cardholders?status=maybe`)).statusCode).toBe(400);
  });

  it('answers "Result set is too large" past the limit', async () => {
    const db = ctx.services.database.db;
    const [acme] = await db.select().from(companies).where(eq(companies.number, '100002'));
    if (!acme) throw new Error('no company 100002');
    await db
      .insert(cardholders)
      .values(
        Array.from({ length: 1001 }, (_, i) => ({ companyId: acme.id, name1: 'Bulk', name2: `Holder ${i}` })),
      );
    const res = await get('cgadmin01', '/app/api/org/companies/100002/cardholders?q=bulk');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'search.tooLarge',
      message: 'Result set is too large; please refine your search criteria.',
    });
    const narrower = await get('cgadmin01', '/app/api/org/companies/100002/cardholders?q=holder%20999');
    expect(narrower.statusCode).toBe(200);
    // "Holder 9", "Holder 90".."99", "Holder 900".."999" (all name 1 "Bulk"): 111 rows, 5 pages by key.
    const names: string[] = [];
    let page = (await get('cgadmin01', '/app/api/org/companies/100002/cardholders?q=holder%209')).json();
    expect(page).toMatchObject({ total: 111, pageCount: 5 });
    for (;;) {
      names.push(...page.rows.map((r: { name2: string }) => r.name2));
      if (page.nextCursor === null) break;
      page = (
        await get(
          'cgadmin01',
          `/app/api/org/companies/100002/cardholders?q=holder%209&after=${page.nextCursor}`,
        )
      ).json();
    }
    expect(names).toHaveLength(111);
    expect(new Set(names).size).toBe(111);
  });

  it('views a cardholder with masked accounts and its org point', async () => {
    const id = await cardholderId('Edsger', 'Dijkstra');
    const res = await get('admin01', `${ACME}/cardholders/${id}`);
    expect(res.statusCode).toBe(200);
    const detail = res.json() as CardholderDetail;
    expect(detail.orgPoint).toEqual({ number: 'A210', name1: 'Accounts Payable' });
    expect(detail.accounts.map((a) => a.status).sort()).toEqual(['Closed', 'Suspended']);
    for (const a of detail.accounts) expect(a.maskedNumber).toMatch(/^542418\*+\d{4}$/);
  });

  it('scopes: another tenant, O outside its subtree, S outside its group, A other than itself → 404', async () => {
    const grace = await cardholderId('Grace', 'Hopper'); // A110 (under lvlmgr01's A100), Travel
    const alan = await cardholderId('Alan', 'Turing'); // A120, Purchasing
    const edsger = await cardholderId('Edsger', 'Dijkstra'); // A210 (Finance), Travel + Purchasing
    expect((await get('bncadmin01', `${ACME}/cardholders/${grace}`)).statusCode).toBe(404);
    expect((await get('bncadmin01', `${NORTE}/cardholders/${grace}`)).statusCode).toBe(404);
    expect((await get('bncadmin01', `${ACME}/cardholders`)).statusCode).toBe(404);
    expect((await get('lvlmgr01', `${ACME}/cardholders/${grace}`)).statusCode).toBe(200);
    expect((await get('lvlmgr01', `${ACME}/cardholders/${edsger}`)).statusCode).toBe(404);
    expect((await get('agmgr01', `${ACME}/cardholders/${grace}`)).statusCode).toBe(200);
    expect((await get('agmgr01', `${ACME}/cardholders/${alan}`)).statusCode).toBe(404);
    // S sees Edsger (a Travel account) but only the Travel account.
    const seen = (await get('agmgr01', `${ACME}/cardholders/${edsger}`)).json() as CardholderDetail;
    expect(seen.accounts.map((a) => a.group?.name)).toEqual(['Travel']);
    expect((await get('active01', `${ACME}/cardholders/${grace}`)).statusCode).toBe(404);
    const own = (await get('active01', `${ACME}/cardholders`)).json() as CardholderList;
    expect(own.rows.map((r) => `${r.name1} ${r.name2}`)).toEqual(['Ada Active']);
    expect(own.canModify).toBe(false);
    // O's list holds its subtree only.
    const o = (await get('lvlmgr01', `${ACME}/cardholders?page=1`)).json() as CardholderList;
    expect(o.rows.every((r) => ['A100', 'A110', 'A120'].includes(r.orgPoint?.number ?? ''))).toBe(true);
    // Unknown and malformed ids are 404 too.
    expect((await get('admin01', `${ACME}/cardholders/999999`)).statusCode).toBe(404);
    expect((await get('admin01', `${ACME}/cardholders/abc`)).statusCode).toBe(404);
  });

  it('edits names and the org point within the company; validates; audits', async () => {
    const id = await cardholderId('Alan', 'Turing');
    const bad = await send('admin01', 'PATCH', `${ACME}/cardholders/${id}`, { name1: '', orgPoint: 'N110' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'form.invalid',
      fieldErrors: { name1: 'cardholder.name1.required', orgPoint: 'cardholder.orgPoint.unknown' },
    });
    expect((await send('admin01', 'PATCH', `${ACME}/cardholders/${id}`, { name1: 42 })).statusCode).toBe(400);
    const ok = await send('admin01', 'PATCH', `${ACME}/cardholders/${id}`, {
      name2: 'Turing-Ed',
      orgPoint: 'a110',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name2: 'Turing-Ed', orgPoint: { number: 'A110' } });
    const [row] = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'cardholder.updated'), eq(auditEvents.entityId, String(id))));
    expect(row?.actorUserId).toBe('admin01');
    expect(row?.changes).toEqual({
      name2: { before: 'Turing', after: 'Turing-Ed' },
      orgPoint: { before: 'A120', after: 'A110' },
    });
    // Put back.
    await send('admin01', 'PATCH', `${ACME}/cardholders/${id}`, { name2: 'Turing', orgPoint: 'A120' });
  });

  it('refuses writes to O, S, A (403), Z (read-only) and another tenant (404)', async () => {
    const id = await cardholderId('Grace', 'Hopper');
    for (const userId of ['lvlmgr01', 'agmgr01', 'active01']) {
      expect((await send(userId, 'PATCH', `${ACME}/cardholders/${id}`, { name2: 'X' })).statusCode).toBe(403);
    }
    const z = await send('sysadmin01', 'PATCH', `${ACME}/cardholders/${id}`, { name2: 'X' });
    expect(z.statusCode).toBe(403);
    expect(z.json()).toMatchObject({ code: 'company.readOnly' });
    expect(((await get('sysadmin01', `${ACME}/cardholders/${id}`)).json() as CardholderDetail).readOnly).toBe(
      true,
    );
    expect((await send('bncadmin01', 'PATCH', `${ACME}/cardholders/${id}`, { name2: 'X' })).statusCode).toBe(
      404,
    );
  });

  it('a cardholder with open accounts cannot be deactivated', async () => {
    const id = await cardholderId('Grace', 'Hopper');
    const res = await send('admin01', 'PUT', `${ACME}/cardholders/${id}/status`, { active: false });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'cardholder.hasActiveAccounts' });
    expect(res.json().message).toMatch(/cannot be deactivated/);
  });
});

describe('accounts', () => {
  it('lists with group and status filters, masked', async () => {
    const list = (await get('admin01', `${ACME}/accounts?status=Suspended`)).json() as AccountList;
    expect(list.rows.length).toBeGreaterThan(0);
    expect(list.rows.every((r) => r.status === 'Suspended')).toBe(true);
    const groups = (await get('admin01', `${ACME}/account-groups`)).json() as AccountGroupList;
    const purchasing = groups.rows.find((g) => g.name === 'Purchasing');
    const inGroup = (await get('admin01', `${ACME}/accounts?group=${purchasing?.id}`)).json() as AccountList;
    expect(inGroup.rows.every((r) => r.group?.name === 'Purchasing')).toBe(true);
    expect((await get('admin01', `${ACME}/accounts?status=Open`)).statusCode).toBe(400);
    expect((await get('admin01', `${ACME}/accounts?group=x`)).statusCode).toBe(400);
    const s = (await get('agmgr01', `${ACME}/accounts`)).json() as AccountList;
    expect(s.rows.every((r) => r.group?.name === 'Travel')).toBe(true);
    const a = (await get('active01', `${ACME}/accounts`)).json() as AccountList;
    expect(a.rows.every((r) => r.cardholder?.name2 === 'Active')).toBe(true);
    expect(a.rows.length).toBeGreaterThan(0);
  });

  it('changes status by the rules, audits with a masked number only', async () => {
    const [account] = await accountsOf(await cardholderId('Grace', 'Hopper'));
    if (!account) throw new Error('no account');
    const url = `${ACME}/accounts/${account.id}`;
    const view = (await get('admin01', url)).json() as AccountDetail;
    expect(view.maskedNumber).toBe(
      `542418${'*'.repeat(account.number.length - 10)}${account.number.slice(-4)}`,
    );
    expect((await send('admin01', 'PUT', `${url}/status`, { status: 'Open' })).statusCode).toBe(400);
    const suspended = await send('admin01', 'PUT', `${url}/status`, { status: 'Suspended' });
    expect(suspended.statusCode).toBe(200);
    expect((suspended.json() as AccountDetail).status).toBe('Suspended');
    const back = await send('admin01', 'PUT', `${url}/status`, { status: 'Active' });
    expect((back.json() as AccountDetail).status).toBe('Active');
    const rows = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'account.statusChanged'));
    expect(rows.length).toBe(2);
    expect(rows[0]?.entityId).toBe(view.maskedNumber);
    expect(rows[0]?.changes).toEqual({ status: { before: 'Active', after: 'Suspended' } });
    expect(JSON.stringify(rows)).not.toContain(account.number);
    // The change shows in admin01's audit trail (made by an administrator in its scope).
    const trail = await get('admin01', '/app/api/audit?entity=account');
    expect(trail.statusCode).toBe(200);
    expect((trail.json() as { rows: { event: string }[] }).rows.map((r) => r.event)).toContain(
      'account.statusChanged',
    );
    expect(
      ((await get('bncadmin01', '/app/api/audit?entity=account')).json() as { total: number }).total,
    ).toBe(0);
  });

  it('Closed is final; other tenants and managers are refused', async () => {
    const [, closed] = await accountsOf(await cardholderId('Edsger', 'Dijkstra'));
    if (!closed) throw new Error('no account');
    expect(closed.status).toBe('Closed');
    const res = await send('admin01', 'PUT', `${ACME}/accounts/${closed.id}/status`, { status: 'Active' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'account.status.closedIsFinal' });
    expect(
      (await send('bncadmin01', 'PUT', `${ACME}/accounts/${closed.id}/status`, { status: 'Closed' }))
        .statusCode,
    ).toBe(404);
    expect((await get('bncadmin01', `${NORTE}/accounts/${closed.id}`)).statusCode).toBe(404);
    expect(
      (await send('lvlmgr01', 'PUT', `${ACME}/accounts/${closed.id}/status`, { status: 'Closed' }))
        .statusCode,
    ).toBe(403);
    expect((await get('lvlmgr01', `${ACME}/accounts/${closed.id}`)).statusCode).toBe(404);
    expect((await get('agmgr01', `${ACME}/accounts/${closed.id}`)).statusCode).toBe(404); // Purchasing
    expect((await get('active01', `${ACME}/accounts/${closed.id}`)).statusCode).toBe(404);
  });

  it('moves an account to another group of the same company only', async () => {
    const [account] = await accountsOf(await cardholderId('Alan', 'Turing'));
    if (!account) throw new Error('no account');
    const groups = (await get('admin01', `${ACME}/account-groups`)).json() as AccountGroupList;
    const travel = groups.rows.find((g) => g.name === 'Travel');
    const norteGroups = (await get('bncadmin01', `${NORTE}/account-groups`)).json() as AccountGroupList;
    const norteGroup = norteGroups.rows[0];
    const foreign = await send('admin01', 'PUT', `${ACME}/accounts/${account.id}/group`, {
      groupId: norteGroup?.id,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ fieldErrors: { groupId: 'account.group.unknown' } });
    expect(
      (await send('admin01', 'PUT', `${ACME}/accounts/${account.id}/group`, { groupId: 'x' })).statusCode,
    ).toBe(400);
    const moved = await send('admin01', 'PUT', `${ACME}/accounts/${account.id}/group`, {
      groupId: travel?.id,
    });
    expect(moved.statusCode).toBe(200);
    expect((moved.json() as AccountDetail).group?.name).toBe('Travel');
    const [audit] = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'account.moved'));
    expect(audit?.changes).toEqual({ group: { before: 'Purchasing', after: 'Travel' } });
  });

  it('My cards: a cardholder sees its own masked accounts', async () => {
    const mine = (await get('active01', '/app/api/my/cards')).json() as MyCards;
    expect(mine.cardholder).toMatchObject({ name1: 'Ada', name2: 'Active' });
    expect(mine.companyNumber).toBe('100001');
    expect(mine.accounts.length).toBeGreaterThan(0);
    for (const a of mine.accounts) expect(a.maskedNumber).toMatch(/^\d{6}\*+\d{4}$/);
    const admin = (await get('admin01', '/app/api/my/cards')).json() as MyCards;
    expect(admin).toEqual({ cardholder: null, companyNumber: null, accounts: [] });
  });
});

describe('account groups', () => {
  it('creates, refuses duplicates (any case) with a field error, renames, audits', async () => {
    const created = await send('admin01', 'POST', `${ACME}/account-groups`, { name: 'Fleet' });
    expect(created.statusCode).toBe(201);
    const group = created.json() as AccountGroupSummary;
    expect(group).toMatchObject({ name: 'Fleet', active: true, activeAccounts: 0 });
    const dup = await send('admin01', 'POST', `${ACME}/account-groups`, { name: 'travel' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'accountGroup.name.duplicate',
      fieldErrors: { name: 'accountGroup.name.duplicate' },
    });
    // The same name in another company is fine.
    expect((await send('bncadmin01', 'POST', `${NORTE}/account-groups`, { name: 'Fleet' })).statusCode).toBe(
      201,
    );
    const renameDup = await send('admin01', 'PATCH', `${ACME}/account-groups/${group.id}`, {
      name: 'PURCHASING',
    });
    expect(renameDup.statusCode).toBe(409);
    const invalid = await send('admin01', 'PATCH', `${ACME}/account-groups/${group.id}`, { name: '<b>' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ fieldErrors: { name: 'accountGroup.name.invalidCharacters' } });
    expect((await send('admin01', 'POST', `${ACME}/account-groups`, {})).statusCode).toBe(400);
    const renamed = await send('admin01', 'PATCH', `${ACME}/account-groups/${group.id}`, {
      name: 'Fleet Cards',
    });
    expect(renamed.json()).toMatchObject({ name: 'Fleet Cards' });
    const rows = await ctx.services.database.db
      .select({ event: auditEvents.event })
      .from(auditEvents)
      .where(sql`${auditEvents.entity} = 'accountGroup' and ${auditEvents.entityId} = ${String(group.id)}`);
    expect(rows.map((r) => r.event).sort()).toEqual(['accountGroup.created', 'accountGroup.updated']);
    // Another tenant cannot touch it.
    expect(
      (await send('bncadmin01', 'PATCH', `${ACME}/account-groups/${group.id}`, { name: 'X' })).statusCode,
    ).toBe(404);
    expect(
      (await send('bncadmin01', 'PATCH', `${NORTE}/account-groups/${group.id}`, { name: 'X' })).statusCode,
    ).toBe(404);
    // An empty group deactivates and reactivates.
    const off = await send('admin01', 'PUT', `${ACME}/account-groups/${group.id}/status`, { active: false });
    expect(off.json()).toMatchObject({ active: false });
    expect(
      (await send('admin01', 'PUT', `${ACME}/account-groups/${group.id}/status`, { active: true }))
        .statusCode,
    ).toBe(200);
  });

  it('a group with open accounts cannot be deactivated', async () => {
    const groups = (await get('admin01', `${ACME}/account-groups`)).json() as AccountGroupList;
    const travel = groups.rows.find((g) => g.name === 'Travel');
    const res = await send('admin01', 'PUT', `${ACME}/account-groups/${travel?.id}/status`, {
      active: false,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'accountGroup.hasActiveAccounts' });
  });

  it('S sees its own group only; A and writes by O/S/Z are refused', async () => {
    const s = (await get('agmgr01', `${ACME}/account-groups`)).json() as AccountGroupList;
    expect(s.rows.map((g) => g.name)).toEqual(['Travel']);
    expect((await get('active01', `${ACME}/account-groups`)).statusCode).toBe(403);
    expect((await send('lvlmgr01', 'POST', `${ACME}/account-groups`, { name: 'X1' })).statusCode).toBe(403);
    expect((await send('sysadmin01', 'POST', `${ACME}/account-groups`, { name: 'X1' })).statusCode).toBe(403);
    expect((await get('bncadmin01', `${ACME}/account-groups`)).statusCode).toBe(404);
  });
});

describe('no full account number leaves the server', () => {
  it('in any answer of this file', async () => {
    // A few more reads by every type for good measure.
    for (const userId of [
      'admin01',
      'cgadmin01',
      'isgadmin01',
      'issadmin01',
      'sysadmin01',
      'lvlmgr01',
      'agmgr01',
      'active01',
    ]) {
      await get(userId, `${ACME}/accounts`);
      await get(userId, `${ACME}/cardholders`);
      await get(userId, '/app/api/my/cards');
      await get(userId, '/app/api/audit');
    }
    expect(bodies.length).toBeGreaterThan(40);
    const leaked = bodies.filter((b) => fullNumbers.some((n) => b.includes(n)));
    expect(leaked).toEqual([]);
    // Nor in an audit row.
    const all = JSON.stringify(await ctx.services.database.db.select().from(auditEvents));
    expect(fullNumbers.filter((n) => all.includes(n))).toEqual([]);
  });
});
