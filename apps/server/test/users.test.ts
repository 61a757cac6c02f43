/**
 * User maintenance and the audit trail (issue 7): search and paging, create with the first-password
 * mail, edit, deactivate/reactivate, unlock, the audit page and its CSV export. Runs on PGlite and on
 * PostgreSQL (harness.ts).
 */
import { LIMITS } from '@cardportal/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, mailOutbox, sessions, users } from '../src/db/schema.ts';
import { csvCell } from '../src/modules/audit/service.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
let admin: TestClient; // admin01: company program administrator of Acme (C)
let norte: TestClient; // bncadmin01: company program administrator of Norte Logística (another issuer)
let acmeId: number;
let norteId: number;

const signIn = async (userId: string, ip: string) => {
  const client = new TestClient(ctx.app, ip);
  const res = await client.login(userId, DEMO_PASSWORD);
  expect(res.statusCode).toBe(200);
  return client;
};
const send = (client: TestClient, method: 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) =>
  client.request({
    method,
    url,
    ...(body === undefined
      ? {}
      : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
const json = (res: { body: string }) => JSON.parse(res.body);
const userCount = async () =>
  Number((await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n);

const newUser = (userId: string, extra: Record<string, unknown> = {}) => ({
  userId,
  email: `${userId}@example.com`,
  emailConfirm: `${userId}@example.com`,
  firstName: 'Nina',
  lastName: 'Newcomer',
  userType: 'A',
  ...extra,
});

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn('admin01', '10.88.0.1');
  norte = await signIn('bncadmin01', '10.88.0.2');
  const byNumber = async (n: string) =>
    (await ctx.app.db.select().from(companies).where(eq(companies.number, n)))[0]?.id as number;
  acmeId = await byNumber('100001');
  norteId = await byNumber('200001');
});
afterAll(() => ctx?.close());

describe('search', () => {
  it('needs criteria of 2 to 100 characters (or a filter)', async () => {
    const short = await admin.get('/app/api/users?q=a');
    expect(short.statusCode).toBe(400);
    expect(json(short)).toMatchObject({ code: 'form.invalid', fieldErrors: { q: 'search.tooShort' } });
    expect(json(await admin.get('/app/api/users')).fieldErrors).toEqual({ q: 'search.required' });
    expect(json(await admin.get(`/app/api/users?q=${'x'.repeat(101)}`)).fieldErrors).toEqual({
      q: 'search.tooLong',
    });
    const byType = await admin.get('/app/api/users?type=C');
    expect(byType.statusCode).toBe(200);
    expect(json(byType).rows.map((r: { userId: string }) => r.userId)).toEqual(['admin01']);
    expect(json(await admin.get('/app/api/users?type=Q')).fieldErrors).toEqual({ type: 'userType.invalid' });
  });

  it('answers rows inside the caller scope only, with the company', async () => {
    const res = await admin.get('/app/api/users?q=norte');
    expect(json(res)).toMatchObject({
      rows: [],
      total: 0,
      pageCount: 1,
      nextCursor: null,
      prevCursor: null,
      readOnly: false,
    });
    const ada = json(await admin.get('/app/api/users?q=ada'));
    expect(ada.rows).toContainEqual(
      expect.objectContaining({
        userId: 'active01',
        firstName: 'Ada',
        userType: 'A',
        status: 'Active',
        company: expect.objectContaining({ number: '100001' }),
      }),
    );
    expect(json(await norte.get('/app/api/users?q=ada')).rows).toEqual([]);
    const own = json(await norte.get('/app/api/users?q=norte')).rows.map((r: { userId: string }) => r.userId);
    expect(own).toContain('bncuser01');
    // Wildcards match literally.
    expect(json(await admin.get('/app/api/users?q=%25%25')).total).toBe(0);
  });

  it('pages 25 rows by key through 1,000 equal names, back and forth, and refuses more than 1,000 matches', async () => {
    await ctx.app.db.execute(sql`insert into users (user_id, display_user_id, ldap_id, b2b_alias, email, first_name,
      last_name, user_type, cobrand, password_hash, company_id)
      select 'bulk' || lpad(g::text, 4, '0'), 'bulk' || lpad(g::text, 4, '0'), 'ldap-bulk' || g, 'b2b-bulk' || g,
        'bulk' || g || '@example.com', 'Bulk', 'Person', 'C', 'cardportal', 'x', ${acmeId}
      from generate_series(0, 1000) g`);
    const first = json(await admin.get('/app/api/users?q=bulk0'));
    expect(first).toMatchObject({
      total: 1000,
      pageCount: 40,
      pageSize: LIMITS.searchPageSize,
      prevCursor: null,
    });
    expect(first.rows).toHaveLength(25);
    // Every name is "Bulk Person": the user ID breaks the tie, so 40 pages give each user once, in order.
    const seen: string[] = [];
    const cursors: string[] = [];
    let page = first;
    for (;;) {
      seen.push(...page.rows.map((r: { userId: string }) => r.userId));
      if (page.nextCursor === null) break;
      cursors.push(page.nextCursor);
      page = json(await admin.get(`/app/api/users?q=bulk0&after=${page.nextCursor}`));
    }
    expect(cursors).toHaveLength(39);
    expect(page.rows).toHaveLength(25);
    expect(seen).toHaveLength(1000);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(1000);
    // Back from the last page: the page before it, then (from page 2) the first page with no previous.
    const back = json(await admin.get(`/app/api/users?q=bulk0&before=${page.prevCursor}`));
    expect(back.rows.map((r: { userId: string }) => r.userId)).toEqual(seen.slice(950, 975));
    const second = json(await admin.get(`/app/api/users?q=bulk0&after=${cursors[0]}`));
    const toFirst = json(await admin.get(`/app/api/users?q=bulk0&before=${second.prevCursor}`));
    expect(toFirst.rows).toEqual(first.rows);
    expect(toFirst.prevCursor).toBeNull();
    // A cursor tampered with, of another list, or both directions at once: 400 naming the parameter.
    for (const [query, field] of [
      ['after=not-a-cursor', 'after'],
      [`after=${cursors[0]?.slice(0, -3)}`, 'after'],
      ['before=%2B%2B', 'before'],
      [`after=${Buffer.from('{"l":"audit","k":["x",1]}').toString('base64url')}`, 'after'],
      [`after=${Buffer.from('{"l":"users","k":["x",1,"y"]}').toString('base64url')}`, 'after'],
      [`after=${cursors[0]}&before=${cursors[1]}`, 'before'],
    ] as const) {
      const refused = await admin.get(`/app/api/users?q=bulk0&${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(json(refused).fieldErrors, query).toEqual({ [field]: 'page.cursorInvalid' });
    }
    const tooLarge = await admin.get('/app/api/users?q=bulk');
    expect(tooLarge.statusCode).toBe(400);
    expect(json(tooLarge)).toMatchObject({
      code: 'search.tooLarge',
      message: 'Result set is too large; please refine your search criteria.',
    });
    // The other tenant does not see them at all.
    expect(json(await norte.get('/app/api/users?q=bulk')).total).toBe(0);
    await ctx.app.db.execute(sql`delete from users where user_id like 'bulk%'`);
  });
});

describe('create', () => {
  it("creates a user whose co-brand no request has read yet (the mail is composed in the user's transaction)", async () => {
    // On the embedded database (one connection) a co-brand read outside the open transaction waited
    // for it to end while it waited for the read: Norte's administrator hung on a cold cache.
    ctx.app.cobrands.clear();
    const res = await send(norte, 'POST', '/app/api/users', newUser('Cold2026'));
    expect(res.statusCode).toBe(201);
    const [mail] = await ctx.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'Cold2026@example.com'));
    expect(mail?.kind).toBe('first-password');
  });

  it('creates a cardholder in first-login state and mails the first password in one transaction', async () => {
    const before = await userCount();
    const res = await send(admin, 'POST', '/app/api/users', newUser('Nina2026'));
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({
      userId: 'Nina2026',
      userType: 'A',
      status: 'Active',
      firstLogin: true,
      company: { number: '100001' },
    });
    expect(await userCount()).toBe(before + 1);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.userId, 'nina2026'));
    expect(row).toMatchObject({ firstLogin: true, companyId: acmeId });
    expect(row?.cardholderId).not.toBeNull();
    const [mail] = await ctx.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'Nina2026@example.com'));
    expect(mail?.kind).toBe('first-password');
    expect(mail?.body).toContain('Nina2026');
    const password = /First password: (\S+)/.exec(mail?.body ?? '')?.[1];
    expect(password).toBeDefined();
    // The first password signs in to the change-password stage (first login).
    const nina = new TestClient(ctx.app, '10.88.0.9');
    const login = await nina.login('Nina2026', password as string);
    expect(login.body).toContain('change-password');
    // Audited: who, what, the change; never the password.
    const [event] = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'user.created'), eq(auditEvents.entityId, 'Nina2026')));
    expect(event).toMatchObject({ actorUserId: 'admin01', entity: 'user', userPk: row?.id });
    expect(event?.changes?.lastName).toEqual({ before: null, after: 'Newcomer' });
    expect(JSON.stringify(event)).not.toContain(password);
    expect(JSON.stringify(event)).not.toContain('passwordHash');
  });

  it('refuses a taken user ID (409, the catalogue text), writing nothing; an e-mail in use is no key', async () => {
    const before = await userCount();
    const taken = await send(
      admin,
      'POST',
      '/app/api/users',
      newUser('ACTIVE01', { email: 'x1@example.com', emailConfirm: 'x1@example.com' }),
    );
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toEqual({
      code: 'userId.exists',
      message:
        'User ID already exists: The User ID you specified already exists in the application. Please try again.',
      fieldErrors: { userId: 'userId.exists' },
    });
    expect(await userCount()).toBe(before);
    // One person may hold several user IDs (multi-user) with one mailbox: the e-mail is an address.
    const shared = await send(
      admin,
      'POST',
      '/app/api/users',
      newUser('Fresh2026', { email: 'ADA.ACTIVE@example.com', emailConfirm: 'ADA.ACTIVE@example.com' }),
    );
    expect(shared.statusCode).toBe(201);
    expect(await userCount()).toBe(before + 1);
  });

  it('answers every field rule as message keys and never a 5xx', async () => {
    const before = await userCount();
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [newUser('ab'), { userId: 'userId.tooShort' }],
      [newUser('abc def1'), { userId: 'userId.spaces' }],
      [newUser('abc_def1'), { userId: 'userId.specialCharacters' }],
      [newUser('a12345678901'), { userId: 'userId.tooManyDigits' }],
      [
        newUser('Okname01', { email: 'not-an-email', emailConfirm: 'not-an-email' }),
        { email: 'email.format' },
      ],
      [newUser('Okname01', { emailConfirm: 'other@example.com' }), { emailConfirm: 'emailConfirm.mismatch' }],
      [
        newUser('Okname01', { firstName: ' ', lastName: '<b>' }),
        { firstName: 'firstName.required', lastName: 'lastName.invalidCharacters' },
      ],
      [newUser('Okname01', { userType: 'I' }), { userType: 'userType.notAllowed' }],
      [newUser('Okname01', { userType: 'W' }), { userType: 'userType.invalid' }],
      [
        newUser('Okname01', { placement: { companyId: norteId } }),
        { 'placement.companyId': 'placement.invalid' },
      ],
      [
        newUser('Okname01', { placement: { companyId: 999999 } }),
        { 'placement.companyId': 'placement.invalid' },
      ],
      [{ ...newUser('Okname01'), extra: 1 }, { form: 'form.invalid' }],
    ];
    for (const [body, fieldErrors] of cases) {
      const res = await send(admin, 'POST', '/app/api/users', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(json(res).fieldErrors, JSON.stringify(body)).toMatchObject(fieldErrors);
    }
    for (const raw of ['null', '[]', '"x"', '{"userId": 5}']) {
      const res = await admin.request({
        method: 'POST',
        url: '/app/api/users',
        payload: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, raw).toBe(400);
    }
    expect(await userCount()).toBe(before);
  });

  it('lets an issuer administrator place a company administrator in a company of its issuer only', async () => {
    const issuer = await signIn('issadmin01', '10.88.0.3');
    const bad = await send(issuer, 'POST', '/app/api/users', newUser('Compadm01', { userType: 'C' }));
    expect(json(bad).fieldErrors).toEqual({ 'placement.companyId': 'userScope.companyIdRequired' });
    const other = await send(
      issuer,
      'POST',
      '/app/api/users',
      newUser('Compadm01', { userType: 'C', placement: { companyId: norteId } }),
    );
    expect(json(other).fieldErrors).toEqual({ 'placement.companyId': 'placement.invalid' });
    const ok = await send(
      issuer,
      'POST',
      '/app/api/users',
      newUser('Compadm01', { userType: 'C', placement: { companyId: acmeId } }),
    );
    expect(ok.statusCode).toBe(201);
    expect(json(ok).placement).toMatchObject({ companyId: acmeId, cardholderId: null, orgPointId: null });
  });

  it('places a user by company number too, within the scope only', async () => {
    const issuer = await signIn('issadmin01', '10.88.0.4');
    const byNumber = await send(
      issuer,
      'POST',
      '/app/api/users',
      newUser('Byno0001', { userType: 'A', placement: { companyNumber: '100002' } }),
    );
    expect(byNumber.statusCode, byNumber.body).toBe(201);
    expect(json(byNumber).company).toMatchObject({ number: '100002' });
    for (const companyNumber of ['200001', '999999', '12ab']) {
      const refused = await send(
        issuer,
        'POST',
        '/app/api/users',
        newUser('Byno0002', { userType: 'A', placement: { companyNumber } }),
      );
      expect(refused.statusCode, companyNumber).toBe(400);
    }
  });
});

describe('edit, deactivate, unlock', () => {
  it('edits names, e-mail (confirmed) and locale, and audits before/after', async () => {
    const bad = await send(admin, 'PATCH', '/app/api/users/Nina2026', { email: 'nina.new@example.com' });
    expect(json(bad).fieldErrors).toEqual({ emailConfirm: 'emailConfirm.required' });
    const res = await send(admin, 'PATCH', '/app/api/users/nina2026', {
      lastName: 'Renamed',
      email: 'nina.new@example.com',
      emailConfirm: 'NINA.NEW@example.com',
      locale: 'de',
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ lastName: 'Renamed', email: 'nina.new@example.com', locale: 'de' });
    const [event] = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'user.updated'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event?.changes).toEqual({
      email: { before: 'Nina2026@example.com', after: 'nina.new@example.com' },
      lastName: { before: 'Newcomer', after: 'Renamed' },
      locale: { before: 'en_US', after: 'de' },
    });
    const upType = await send(admin, 'PATCH', '/app/api/users/nina2026', { userType: 'G' });
    expect(json(upType).fieldErrors).toEqual({ userType: 'userType.notAllowed' });
    expect((await send(norte, 'PATCH', '/app/api/users/nina2026', { lastName: 'X' })).statusCode).toBe(404);
  });

  it('deactivates (ending the sessions) and reactivates; nobody deactivates itself', async () => {
    const nina = new TestClient(ctx.app, '10.88.0.10');
    const [row] = await ctx.app.db.select().from(users).where(eq(users.userId, 'nina2026'));
    const self = await send(admin, 'PUT', '/app/api/users/admin01/status', { status: 'Inactive' });
    expect(self.statusCode).toBe(400);
    expect(json(self).code).toBe('user.self');
    const off = await send(admin, 'PUT', '/app/api/users/nina2026/status', { status: 'Inactive' });
    expect(off.statusCode).toBe(200);
    expect(json(off)).toMatchObject({ status: 'Inactive', allowed: { reactivate: true, deactivate: false } });
    expect(
      await ctx.app.db
        .select()
        .from(sessions)
        .where(eq(sessions.userPk, row?.id as number)),
    ).toEqual([]);
    expect((await nina.get('/app/api/me')).statusCode).toBe(401);
    const on = await send(admin, 'PUT', '/app/api/users/nina2026/status', { status: 'Active' });
    expect(json(on).status).toBe('Active');
    const events = await ctx.app.db
      .select({ event: auditEvents.event })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, 'Nina2026'));
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['user.created', 'user.updated', 'user.deactivated', 'user.reactivated']),
    );
    expect(
      json(await send(admin, 'PUT', '/app/api/users/nina2026/status', { status: 'Deleted' })).fieldErrors,
    ).toEqual({
      status: 'status.invalid',
    });
  });

  it('unlocks a locked user once', async () => {
    const res = await send(admin, 'POST', '/app/api/users/locked01/unlock');
    expect(res.statusCode).toBe(200);
    expect(json(res).status).toBe('Active');
    const again = await send(admin, 'POST', '/app/api/users/locked01/unlock');
    expect(again.statusCode).toBe(409);
    expect(json(again).code).toBe('user.notLocked');
  });

  it('gives a system administrator tenant users read-only', async () => {
    const sys = await signIn('sysadmin01', '10.88.0.4');
    const view = json(await sys.get('/app/api/users/active01'));
    expect(view).toMatchObject({ readOnly: true, allowed: { modify: false } });
    expect((await send(sys, 'PATCH', '/app/api/users/active01', { lastName: 'X' })).statusCode).toBe(403);
    expect(json(await sys.get('/app/api/users?q=ada')).readOnly).toBe(true);
    expect(json(await sys.get('/app/api/users/issadmin01'))).toMatchObject({
      readOnly: false,
      allowed: { modify: true },
    });
  });
});

describe('lists as a client’s tool (issue 20 item 3)', () => {
  it('exports every match of a search as CSV, formula cells neutralised, in the caller’s scope only', async () => {
    const res = await admin.get('/app/api/users.csv?status=Active&type=A');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('userId,firstName,lastName,email,userType,status,company');
    expect(lines.some((l) => l.startsWith('active01,'))).toBe(true);
    expect(lines.some((l) => l.startsWith('bncuser01,'))).toBe(false);
    const page = json(await admin.get('/app/api/users?status=Active&type=A'));
    expect(lines.length - 1).toBe(page.total);
    expect((await admin.get('/app/api/users.csv?q=a')).statusCode).toBe(400);
  });

  it('takes one action on several users, each changed as alone and audited, and says what became of each', async () => {
    const created = ['bulk0a01', 'bulk0a02'];
    for (const userId of created) {
      const res = await admin.postJson('/app/api/users', {
        userId,
        firstName: 'Bulk',
        lastName: userId,
        email: `${userId}@example.com`,
        emailConfirm: `${userId}@example.com`,
        userType: 'A',
        locale: 'en_US',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const off = json(
      await admin.postJson('/app/api/users/bulk', {
        action: 'deactivate',
        userIds: [...created, 'admin01', 'bncuser01', 'bulk0a01'],
      }),
    );
    expect(off.results).toEqual([
      { userId: 'bulk0a01', outcome: 'done', code: null },
      { userId: 'bulk0a02', outcome: 'done', code: null },
      { userId: 'admin01', outcome: 'refused', code: 'user.self' },
      { userId: 'bncuser01', outcome: 'refused', code: 'user.notFound' },
    ]);
    const again = json(
      await admin.postJson('/app/api/users/bulk', { action: 'deactivate', userIds: created }),
    );
    expect(again.results.map((r: { outcome: string }) => r.outcome)).toEqual(['unchanged', 'unchanged']);
    const on = json(await admin.postJson('/app/api/users/bulk', { action: 'reactivate', userIds: created }));
    expect(on.results.map((r: { outcome: string }) => r.outcome)).toEqual(['done', 'done']);
    const events = await ctx.app.db
      .select({ event: auditEvents.event })
      .from(auditEvents)
      .where(sql`${auditEvents.entityId} = 'bulk0a01'`);
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['user.created', 'user.deactivated', 'user.reactivated']),
    );
    const bad = await admin.postJson('/app/api/users/bulk', { action: 'delete', userIds: [] });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).fieldErrors).toMatchObject({
      action: 'bulk.action.invalid',
      userIds: 'bulk.userIds.none',
    });
  });
});

describe('audit trail', () => {
  it('shows an administrator the events about users in its scope only', async () => {
    const mine = json(await admin.get('/app/api/audit'));
    expect(mine.rows.some((r: { entityId: string }) => r.entityId === 'Nina2026')).toBe(true);
    expect(mine.rows[0]).toMatchObject({ at: expect.any(String), event: expect.any(String) });
    const theirs = json(await norte.get('/app/api/audit'));
    expect(theirs.rows.some((r: { entityId: string | null }) => r.entityId === 'Nina2026')).toBe(false);
    expect(theirs.rows.every((r: { subject: string | null }) => r.subject !== 'admin01')).toBe(true);
  });

  it('names the person as the actor of its own sign-in, and finds it by that actor', async () => {
    const mine = json(await admin.get('/app/api/audit?actor=admin01'));
    const signIn = mine.rows.find((r: { event: string }) => r.event === 'login.success');
    expect(signIn).toMatchObject({ actor: 'admin01', subject: 'admin01' });
    // An administrator's change is still by the administrator, not by the user it concerns.
    expect(mine.rows.every((r: { actor: string | null }) => r.actor?.toLowerCase() === 'admin01')).toBe(true);
  });

  it('validates the range: From not after To, at most 30 days, real dates', async () => {
    const long = await admin.get('/app/api/audit/export?from=2026-01-01&to=2026-01-31');
    expect(long.statusCode).toBe(400);
    expect(json(long)).toMatchObject({ code: 'audit.rangeTooLong' });
    expect(json(long).message).toContain('30');
    expect((await admin.get('/app/api/audit/export?from=2026-01-01&to=2026-01-30')).statusCode).toBe(200);
    const reversed = await admin.get('/app/api/audit?from=2026-02-02&to=2026-02-01');
    expect(json(reversed).code).toBe('dateRange.fromAfterTo');
    expect(json(await admin.get('/app/api/audit?from=2026-02-30')).fieldErrors).toEqual({
      from: 'date.invalid',
    });
    expect(json(await admin.get('/app/api/audit?after=x%7C1')).fieldErrors).toEqual({
      after: 'page.cursorInvalid',
    });
  });

  it('pages by (at, id) newest first: equal timestamps and microseconds neither lost nor repeated', async () => {
    const [me] = await ctx.app.db.select({ id: users.id }).from(users).where(eq(users.userId, 'admin01'));
    // 60 events in one microsecond, 45 one microsecond apart (a millisecond cursor would skip some).
    await ctx.app.db.execute(sql`insert into audit_events (at, event, user_pk, actor_pk, actor_user_id, entity)
      select now() - interval '1 hour', 'paging.same', ${me?.id}, ${me?.id}, 'admin01', 'pagingtest'
      from generate_series(1, 60)`);
    await ctx.app.db.execute(sql`insert into audit_events (at, event, user_pk, actor_pk, actor_user_id, entity)
      select now() - interval '2 hours' + g * interval '1 microsecond', 'paging.micro', ${me?.id}, ${me?.id},
        'admin01', 'pagingtest'
      from generate_series(1, 45) g`);
    const seen: number[] = [];
    let page = json(await admin.get('/app/api/audit?entity=pagingtest'));
    expect(page).toMatchObject({ total: 105, totalIsLowerBound: false, prevCursor: null, pageSize: 50 });
    const pages = [page];
    for (;;) {
      seen.push(...page.rows.map((r: { id: number }) => r.id));
      if (page.nextCursor === null) break;
      page = json(await admin.get(`/app/api/audit?entity=pagingtest&after=${page.nextCursor}`));
      pages.push(page);
    }
    expect(pages.map((p) => p.rows.length)).toEqual([50, 50, 5]);
    expect(new Set(seen).size).toBe(105);
    const events = pages.flatMap((p) => p.rows.map((r: { event: string }) => r.event));
    expect(events.slice(0, 60).every((e) => e === 'paging.same')).toBe(true);
    expect(seen.slice(0, 60)).toEqual([...seen.slice(0, 60)].sort((a, b) => b - a));
    const back = json(await admin.get(`/app/api/audit?entity=pagingtest&before=${page.prevCursor}`));
    expect(back.rows).toEqual(pages[1].rows);
    // Past 1,000 events the count stops: "more than 1,000".
    await ctx.app.db.execute(sql`insert into audit_events (at, event, user_pk, actor_pk, actor_user_id, entity)
      select now() - interval '3 hours', 'paging.many', ${me?.id}, ${me?.id}, 'admin01', 'pagingtest'
      from generate_series(1, 900)`);
    expect(json(await admin.get('/app/api/audit?entity=pagingtest'))).toMatchObject({
      total: 1000,
      totalIsLowerBound: true,
    });
    await ctx.app.db.execute(sql`delete from audit_events where entity = 'pagingtest'`);
  });

  it('exports CSV with formula injection neutralised', async () => {
    const res = await admin.get('/app/api/audit/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="audit-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('"at","event","actor","entity","entityId","subject","changes","ip"');
    expect(res.body).toContain('"user.created","admin01","user","Nina2026"');
    expect(res.body).not.toMatch(/password"?:/i);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    for (const start of ['+', '-', '@', '\t']) expect(csvCell(`${start}1`)).toBe(`"'${start}1"`);
    expect(csvCell('plain')).toBe('"plain"');
    const managers = await signIn('lvlmgr01', '10.88.0.5');
    expect((await managers.get('/app/api/audit/export')).statusCode).toBe(403);
  });
});
