/**
 * Roles, multi-user and access as user (issue 7) on the real database (PGlite and PostgreSQL): the
 * linking rules and messages of seed 001 §4/§6/§8, confirmation by each member, choosing the ID after
 * sign-in, the 75-role limit, access as user with its way back, and the audit rows naming the real actor.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, multiUserMembers, roles, userRoles, users } from '../src/db/schema.ts';
import { createUser, findUserByUserId } from '../src/modules/users/users.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
const db = () => ctx.services.database.db;

async function signedIn(userId: string): Promise<TestClient> {
  const client = new TestClient(ctx.app);
  const res = await client.login(userId, DEMO_PASSWORD);
  expect(res.body, `${userId} signs in`).toBe('/app/');
  return client;
}

const send = (client: TestClient, method: 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  client.request({
    method,
    url,
    ...(body === undefined
      ? {}
      : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

let acmeId: number;
let seq = 0;
/** A new Acme user of a type, active, signed in once (so it can sign in without changing its password). */
async function acmeUser(
  type: 'A' | 'C' | 'O' | 'G' = 'A',
  extra: Record<string, unknown> = {},
): Promise<string> {
  seq += 1;
  const userId = `mu${type.toLowerCase()}${String(seq).padStart(3, '0')}`;
  const [acme] = await db().select().from(companies).where(eq(companies.id, acmeId));
  await createUser(db(), {
    userId,
    email: `${userId}@example.com`,
    password: DEMO_PASSWORD,
    firstLogin: false,
    cobrand: 'cardportal',
    firstName: 'Mia',
    lastName: 'Linked',
    userType: type,
    scope: type === 'G' ? { companyGroupId: acme?.companyGroupId ?? null } : { companyId: acmeId },
    ...(type === 'A'
      ? { newCardholder: { companyId: acmeId, orgPointId: null, name1: 'Mia', name2: 'Linked' } }
      : {}),
    ...extra,
  } as never);
  return userId;
}

beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
  const [acme] = await db().select().from(companies).where(eq(companies.number, '100001'));
  acmeId = acme?.id as number;
});
afterAll(async () => {
  await ctx?.close();
});

describe('roles', () => {
  it('lists the issuer roles for administrators and refuses cardholders and managers', async () => {
    const admin = await signedIn('admin01');
    const list = await admin.get('/app/api/roles');
    expect(list.statusCode).toBe(200);
    expect(list.json().roles.map((r: { name: string }) => r.name)).toEqual([
      'Approver',
      'Program administrator',
      'Super user',
    ]);
    expect(list.json().mayDefine).toBe(false);
    expect((await (await signedIn('active01')).get('/app/api/roles')).statusCode).toBe(403);
    expect((await (await signedIn('lvlmgr01')).get('/app/api/roles')).statusCode).toBe(403);
    // Another issuer's administrator sees its own issuer's roles only.
    const norte = (await (await signedIn('bncadmin01')).get('/app/api/roles')).json();
    expect(norte.roles.map((r: { issuerNumber: string }) => r.issuerNumber)).toEqual(['2001']);
  });

  it('lets an issuer administrator define roles, refusing duplicates and bad fields', async () => {
    const issuer = await signedIn('issadmin01');
    const created = await send(issuer, 'POST', '/app/api/roles', {
      name: 'Linker',
      description: 'Links user IDs',
      permissions: ['linkUsers'],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Linker',
      issuerNumber: '1001',
      permissions: ['linkUsers'],
    });
    const dup = await send(issuer, 'POST', '/app/api/roles', { name: 'linker', permissions: [] });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fieldErrors).toEqual({ name: 'role.name.exists' });
    const bad = await send(issuer, 'POST', '/app/api/roles', { name: '<b>x</b>', permissions: ['root'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['name', 'permissions.0']);
    // A company administrator may not define roles; another issuer's role is not found.
    expect(
      (await send(await signedIn('admin01'), 'POST', '/app/api/roles', { name: 'Mine', permissions: [] }))
        .statusCode,
    ).toBe(403);
    const [norteRole] = await db().select().from(roles).where(eq(roles.name, 'Administrador del programa'));
    expect(
      (await send(issuer, 'PATCH', `/app/api/roles/${norteRole?.id}`, { active: false })).statusCode,
    ).toBe(404);
    const renamed = await send(issuer, 'PATCH', `/app/api/roles/${created.json().id}`, {
      description: 'Links IDs',
    });
    expect(renamed.json().description).toBe('Links IDs');
    const audit = await db().select().from(auditEvents).where(eq(auditEvents.event, 'role.updated'));
    expect(audit.at(-1)).toMatchObject({ actorUserId: 'issadmin01', entity: 'role' });
  });

  it('gives roles only to active users, only roles the granter holds, never to itself', async () => {
    const admin = await signedIn('admin01');
    const target = await acmeUser('A');
    const view = (await admin.get(`/app/api/users/${target}/roles`)).json();
    expect(view.mayChange).toBe(true);
    const names = view.assignable.map((r: { name: string }) => r.name);
    expect(names).toContain('Super user');
    const superUser = view.assignable.find((r: { name: string }) => r.name === 'Super user');
    const set = await send(admin, 'PUT', `/app/api/users/${target}/roles`, { roleIds: [superUser.id] });
    expect(set.statusCode).toBe(200);
    expect(set.json().roles.map((r: { name: string }) => r.name)).toEqual(['Super user']);
    const log = await db().select().from(auditEvents).where(eq(auditEvents.event, 'user.rolesChanged'));
    expect(log.at(-1)?.changes).toEqual({ roles: { before: [], after: ['Super user'] } });
    // A role the granter does not hold (an issuer-defined Linker is fine: admin01 holds linkUsers) ...
    const [linker] = await db().select().from(roles).where(sql`lower(${roles.name}) = 'linker'`);
    expect(
      (await send(admin, 'PUT', `/app/api/users/${target}/roles`, { roleIds: [superUser.id, linker?.id] }))
        .statusCode,
    ).toBe(200);
    // ... another issuer's role is not assignable.
    const [norteRole] = await db().select().from(roles).where(eq(roles.name, 'Administrador del programa'));
    const foreign = await send(admin, 'PUT', `/app/api/users/${target}/roles`, { roleIds: [norteRole?.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fieldErrors).toEqual({ roleIds: 'roles.invalid' });
    // Itself: refused.
    const [own] = await db().select().from(roles).where(eq(roles.name, 'Program administrator'));
    expect(
      (await send(admin, 'PUT', '/app/api/users/admin01/roles', { roleIds: [own?.id] })).statusCode,
    ).toBe(403);
    // An inactive user gets no role.
    await db().update(users).set({ status: 'Inactive' }).where(eq(users.userId, target));
    const inactive = await send(admin, 'PUT', `/app/api/users/${target}/roles`, {
      roleIds: [superUser.id, linker?.id, own?.id],
    });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json().code).toBe('roles.userNotActive');
    await db().update(users).set({ status: 'Active' }).where(eq(users.userId, target));
  });

  it('needs peer-user modify authority to maintain a user of its own type', async () => {
    const peer = await acmeUser('C');
    // admin01 holds "Program administrator" (peer-user modify): it may edit another company administrator.
    const admin = await signedIn('admin01');
    expect((await send(admin, 'PATCH', `/app/api/users/${peer}`, { lastName: 'Peer' })).statusCode).toBe(200);
    // The peer itself holds no role: it may view admin01 but not modify it.
    const other = await signedIn(peer);
    expect((await other.get('/app/api/users/admin01')).json().allowed.modify).toBe(false);
    expect((await send(other, 'PATCH', '/app/api/users/admin01', { lastName: 'X' })).statusCode).toBe(403);
  });
});

describe('multi-user links', () => {
  it('links two Acme users, each confirms for itself, then either chooses the ID to work as', async () => {
    const a = await acmeUser('A');
    const c = await acmeUser('C');
    const admin = await signedIn('admin01');
    const linked = await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [a, c] });
    expect(linked.statusCode).toBe(201);
    expect(linked.json().members.map((m: { confirmed: boolean }) => m.confirmed)).toEqual([false, false]);

    // Unconfirmed: the first sign-in shows the confirmation; no choice yet.
    const asA = await signedIn(a);
    const me = (await asA.get('/app/api/me')).json();
    expect(me.multiUser.confirm.map((m: { userId: string }) => m.userId)).toEqual([c]);
    expect(me.multiUser.choices).toEqual([]);
    expect((await send(asA, 'POST', '/app/api/multi-user/choose', { userId: c })).statusCode).toBe(404);
    expect(
      (await send(asA, 'POST', '/app/api/multi-user/confirm', { accept: true, userIds: [c] })).statusCode,
    ).toBe(204);
    // One confirmed member alone offers no choice.
    expect((await asA.get('/app/api/me')).json().multiUser).toEqual({ confirm: null, choices: [] });

    const asC = await signedIn(c);
    expect(
      (await send(asC, 'POST', '/app/api/multi-user/confirm', { accept: true, userIds: [a] })).statusCode,
    ).toBe(204);
    // A new sign-in as A now chooses; choosing C switches the session (a new id), once.
    const again = await signedIn(a);
    const choices = (await again.get('/app/api/me'))
      .json()
      .multiUser.choices.map((m: { userId: string }) => m.userId);
    expect(choices).toEqual([a, c]);
    const before = again.cookies.get('cpsid');
    const chose = await send(again, 'POST', '/app/api/multi-user/choose', { userId: c.toUpperCase() });
    expect(chose.statusCode).toBe(200);
    expect(chose.json()).toEqual({ url: '/app/' });
    expect(again.cookies.get('cpsid')).not.toBe(before);
    const now = (await again.get('/app/api/me')).json();
    expect(now.userId).toBe(c);
    expect(now.multiUser.choices).toEqual([]);
    const twice = await send(again, 'POST', '/app/api/multi-user/choose', { userId: a });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('multiUser.alreadyChosen');
    const [row] = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'multiUser.switched'))
      .orderBy(sql`id desc`)
      .limit(1);
    expect(row).toMatchObject({ actorUserId: a, entityId: c });

    // Unlinking from user information ends the two-member link.
    const unlinked = await send(admin, 'DELETE', `/app/api/users/${a}/link`);
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json().members).toEqual([]);
    expect(
      await db()
        .select()
        .from(multiUserMembers)
        .where(sql`user_pk in (select id from users where user_id in (${a}, ${c}))`),
    ).toEqual([]);
  });

  it('a member may decline; a declined link leaves nobody linked', async () => {
    const a = await acmeUser('A');
    const o = await acmeUser('O');
    await send(await signedIn('admin01'), 'POST', '/app/api/multi-user/links', { userIds: [a, o] });
    const asO = await signedIn(o);
    expect((await send(asO, 'POST', '/app/api/multi-user/confirm', { accept: false })).statusCode).toBe(204);
    expect((await (await signedIn(a)).get('/app/api/me')).json().multiUser).toEqual({
      confirm: null,
      choices: [],
    });
    const nothing = await send(asO, 'POST', '/app/api/multi-user/confirm', { accept: true, userIds: [a] });
    expect(nothing.json().code).toBe('multiUser.nothingToConfirm');
  });

  it.each([
    ['an SSO user', { sso: true }, 'multiUser.sso'],
    ['a two-factor user', { loginType: 'otp-2fa' }, 'multiUser.twoFactor'],
    ['an inactive user', { status: 'Inactive' }, 'multiUser.notActive'],
  ])('refuses to link %s with the catalogue message', async (_label, extra, code) => {
    const ok = await acmeUser('A');
    const bad = await acmeUser('A', extra);
    const res = await send(await signedIn('admin01'), 'POST', '/app/api/multi-user/links', {
      userIds: [ok, bad],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code, fieldErrors: { 'userIds.1': code } });
    expect(res.json().message).not.toBe(code);
  });

  it('refuses users above company group level, a company without multi-user, a second link and two group administrators', async () => {
    const admin = await signedIn('cgadmin01');
    const a = await acmeUser('A');
    // An issuer administrator is above the company group administrator: not even visible as modifiable.
    const high = await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [a, 'issadmin01'] });
    expect([403, 404]).toContain(high.statusCode);
    // Borealis (100002) has multi-user off.
    const borealis = await findUserByUserId(db(), 'agmgr01');
    expect(borealis).toBeDefined();
    await db().update(companies).set({ multiUser: false }).where(eq(companies.number, '100002'));
    const [bor] = await db().select().from(companies).where(eq(companies.number, '100002'));
    const b = `mubor${String(++seq).padStart(3, '0')}`;
    await createUser(db(), {
      userId: b,
      email: `${b}@example.com`,
      password: DEMO_PASSWORD,
      firstLogin: false,
      cobrand: 'cardportal',
      userType: 'C',
      scope: { companyId: bor?.id ?? null },
    } as never);
    const off = await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [a, b] });
    expect(off.json().code).toBe('multiUser.companyDisabled');
    // Two company group administrators in one link.
    const g1 = await acmeUser('G');
    const g2 = await acmeUser('G');
    // cgadmin01 holds peer authority (Program administrator), so it may modify other G users.
    const twoG = await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [g1, g2] });
    expect(twoG.json().code).toBe('multiUser.oneGroupAdmin');
    // A user belongs to one link: linking members of two different links is refused.
    const x = await acmeUser('A');
    const y = await acmeUser('A');
    expect((await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [x, y] })).statusCode).toBe(
      201,
    );
    const conflict = await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [x, 'multi01'] });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('multiUser.alreadyLinked');
    // Linking members already linked together adds nobody.
    expect((await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [y, x] })).json().code).toBe(
      'multiUser.nothingToLink',
    );
  });

  it('keeps the members of a link at 75 roles together', async () => {
    const [a, o, m] = [await acmeUser('A'), await acmeUser('O'), await acmeUser('A')];
    const [issuer] = await db()
      .select({ id: companies.issuerId })
      .from(companies)
      .where(eq(companies.id, acmeId));
    const bulk = (
      await db()
        .insert(roles)
        .values(
          Array.from({ length: 80 }, (_, i) => ({
            issuerId: issuer?.id as number,
            name: `Bulk ${seq}-${i}`,
          })),
        )
        .returning({ id: roles.id })
    ).map((r) => r.id);
    const pk = async (userId: string) => (await findUserByUserId(db(), userId))?.id as number;
    // Written directly: the API gives a user 25 roles at most, the link limit is about their sum.
    const give = async (userId: string, ids: number[]) => {
      const userPk = await pk(userId);
      await db()
        .insert(userRoles)
        .values(ids.map((roleId) => ({ userPk, roleId })));
    };
    await give(a, bulk.slice(0, 25));
    await give(o, bulk.slice(25, 50));
    await give(m, bulk.slice(50, 76));
    const admin = await signedIn('admin01');
    const refused = await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [a, o, m] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('multiUser.tooManyRoles');
    await db()
      .delete(userRoles)
      .where(sql`user_pk = ${await pk(m)} and role_id in (${bulk[74]}, ${bulk[75]})`);
    expect((await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [a, o, m] })).statusCode).toBe(
      201,
    );
    // 74 together; one more for a member reaches 75 (allowed), the next would be 76 (refused).
    const mine = bulk.slice(50, 74);
    expect(
      (await send(admin, 'PUT', `/app/api/users/${m}/roles`, { roleIds: [...mine, bulk[76]] })).statusCode,
    ).toBe(200);
    // Replacing a role keeps the count; fewer roles are always allowed.
    expect(
      (await send(admin, 'PUT', `/app/api/users/${m}/roles`, { roleIds: [...mine, bulk[78]] })).statusCode,
    ).toBe(200);
    expect(
      (await send(admin, 'PUT', `/app/api/users/${o}/roles`, { roleIds: bulk.slice(25, 49) })).statusCode,
    ).toBe(200);
    await give(a, [bulk[77] as number]);
    const grow = await send(admin, 'PUT', `/app/api/users/${o}/roles`, {
      roleIds: [...bulk.slice(25, 49), bulk[79]],
    });
    expect(grow.statusCode).toBe(409);
    expect(grow.json().code).toBe('multiUser.tooManyRoles');
  });

  it('needs the link permission and a user the caller may modify', async () => {
    const a = await acmeUser('A');
    const b = await acmeUser('A');
    // issadmin01 holds no role: no link permission.
    expect(
      (await send(await signedIn('issadmin01'), 'POST', '/app/api/multi-user/links', { userIds: [a, b] }))
        .statusCode,
    ).toBe(403);
    // Another issuer's administrator does not see Acme's users.
    const foreign = await send(await signedIn('bncadmin01'), 'POST', '/app/api/multi-user/links', {
      userIds: [a, b],
    });
    expect(foreign.statusCode).toBe(404);
    // The system administrator sees company users read-only: refused.
    expect(
      (await send(await signedIn('sysadmin01'), 'POST', '/app/api/multi-user/links', { userIds: [a, b] }))
        .statusCode,
    ).toBe(403);
  });

  it('a linked member may not switch two-factor on ("two-factor users cannot be multi-users"); unlinked, it may', async () => {
    const [a, o] = [await acmeUser('A'), await acmeUser('O')];
    const admin = await signedIn('admin01');
    expect((await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [a, o] })).statusCode).toBe(
      201,
    );
    const twoFactorOn = async (userId: string) =>
      send(await signedIn(userId), 'PUT', '/app/api/profile/two-factor', {
        enabled: true,
        currentPassword: DEMO_PASSWORD,
      });
    // Pending or confirmed, a member keeps password sign-in.
    const pending = await twoFactorOn(a);
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toEqual({
      code: 'multiUser.twoFactor',
      message: 'Two-factor users cannot be multi-users.',
    });
    expect(
      (await send(await signedIn(o), 'POST', '/app/api/multi-user/confirm', { accept: true, userIds: [a] }))
        .statusCode,
    ).toBe(204);
    expect((await twoFactorOn(o)).json().code).toBe('multiUser.twoFactor');
    expect((await findUserByUserId(db(), o))?.loginType).toBe('pwd');
    // Out of the link, the switch works again.
    expect((await send(admin, 'DELETE', `/app/api/users/${o}/link`)).statusCode).toBe(200);
    const on = await twoFactorOn(o);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ twoFactor: true, loginType: 'otp-2fa' });
  });

  it('never takes an SSO or two-factor user into a link, not even one that grows', async () => {
    const [a, o] = [await acmeUser('A'), await acmeUser('O')];
    const admin = await signedIn('admin01');
    expect((await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [a, o] })).statusCode).toBe(
      201,
    );
    for (const [extra, code] of [
      [{ sso: true }, 'multiUser.sso'],
      [{ loginType: 'otp-2fa' }, 'multiUser.twoFactor'],
    ] as const) {
      const bad = await acmeUser('A', extra);
      const res = await send(admin, 'POST', '/app/api/multi-user/links', { userIds: [a, bad] });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code, fieldErrors: { 'userIds.1': code } });
    }
  });

  it('offers the demo person (multi01, multi02) the choice after sign-in', async () => {
    const client = await signedIn('multi02');
    const me = (await client.get('/app/api/me')).json();
    expect(me.multiUser.choices.map((m: { userId: string }) => m.userId)).toEqual(['multi02', 'multi01']);
    expect((await send(client, 'POST', '/app/api/multi-user/choose', { userId: 'multi02' })).json()).toEqual({
      url: '/app/',
    });
    expect((await client.get('/app/api/me')).json()).toMatchObject({
      userId: 'multi02',
      multiUser: { choices: [] },
    });
  });
});

describe('access as user', () => {
  it('a super user works as a cardholder with a banner, its changes audited under its own name, and returns', async () => {
    const admin = await signedIn('admin01');
    const start = await send(admin, 'POST', '/app/api/access-as', { userId: 'active01' });
    expect(start.statusCode).toBe(200);
    const me = (await admin.get('/app/api/me')).json();
    expect(me).toMatchObject({ userId: 'active01', accessedBy: { userId: 'admin01', firstName: 'Carl' } });
    // Nested access and linking are refused while accessing as.
    const nested = await send(admin, 'POST', '/app/api/access-as', { userId: 'active01' });
    expect(nested.statusCode).toBe(403);
    // A change made meanwhile names admin01 as the actor.
    expect((await send(admin, 'PUT', '/app/api/profile/language', { locale: 'en_GB' })).statusCode).toBe(200);
    const [changed] = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'profile.updated'))
      .orderBy(sql`id desc`)
      .limit(1);
    expect(changed).toMatchObject({
      actorUserId: 'admin01',
      entityId: 'active01',
      detail: { accessedAs: 'active01' },
    });
    const back = await send(admin, 'POST', '/app/api/access-as/return');
    expect(back.statusCode).toBe(200);
    expect((await admin.get('/app/api/me')).json()).toMatchObject({ userId: 'admin01', accessedBy: null });
    expect((await send(admin, 'POST', '/app/api/access-as/return')).statusCode).toBe(409);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.event} in ('accessAs.started', 'accessAs.ended')`)
      .orderBy(sql`id`);
    expect(events.map((e) => [e.event, e.actorUserId, e.entityId])).toEqual([
      ['accessAs.started', 'admin01', 'active01'],
      ['accessAs.ended', 'admin01', 'active01'],
    ]);
    expect(events[1]?.detail).toMatchObject({ accessedAs: 'active01' });
  });

  it.each([
    ['a user without the permission', 'issadmin01', 'active01', 403, 'accessAs.notPermitted'],
    ['itself', 'admin01', 'admin01', 403, 'accessAs.self'],
    ['a linked user', 'admin01', 'multi01', 409, 'accessAs.linkedUser'],
    ['another tenant', 'bncadmin01', 'active01', 404, 'user.notFound'],
  ])('refuses %s', async (_label, who, target, status, code) => {
    const res = await send(await signedIn(who), 'POST', '/app/api/access-as', { userId: target });
    expect(res.statusCode).toBe(status);
    expect(res.json().code).toBe(code);
  });

  it('refuses a target above company administrator, even a peer the caller may modify', async () => {
    const peerG = await acmeUser('G');
    const res = await send(await signedIn('cgadmin01'), 'POST', '/app/api/access-as', { userId: peerG });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('accessAs.typeNotAllowed');
  });

  it('refuses when the issuer or company switched the option off, and an inactive target', async () => {
    const admin = await signedIn('cgadmin01');
    const peerC = await acmeUser('C');
    const res = await send(admin, 'POST', '/app/api/access-as', { userId: peerC });
    expect(res.statusCode).toBe(200);
    await send(admin, 'POST', '/app/api/access-as/return');
    await db().execute(
      sql`insert into program_options (key, level, company_id, enabled) values ('accessAsUser', 'company', ${acmeId}, false)
        on conflict (company_id, key) do update set enabled = false`,
    );
    const off = await send(admin, 'POST', '/app/api/access-as', { userId: peerC });
    expect(off.json().code).toBe('accessAs.optionOff');
    await db().execute(
      sql`delete from program_options where company_id = ${acmeId} and key = 'accessAsUser'`,
    );
    await db().update(users).set({ status: 'Inactive' }).where(eq(users.userId, peerC));
    expect((await send(admin, 'POST', '/app/api/access-as', { userId: peerC })).json().code).toBe(
      'accessAs.notActive',
    );
  });
});

describe('access as user, when the super user changes meanwhile', () => {
  it('ends the session once the super user loses the permission', async () => {
    const admin = await signedIn('cgadmin01');
    expect((await send(admin, 'POST', '/app/api/access-as', { userId: 'active01' })).statusCode).toBe(200);
    expect((await admin.get('/app/api/me')).statusCode).toBe(200);
    const cg = await findUserByUserId(db(), 'cgadmin01');
    const held = await db()
      .select()
      .from(userRoles)
      .where(eq(userRoles.userPk, cg?.id as number));
    await db()
      .delete(userRoles)
      .where(eq(userRoles.userPk, cg?.id as number));
    try {
      expect((await admin.get('/app/api/me')).statusCode).toBe(401);
      expect((await admin.get('/app/api/me')).statusCode).toBe(401);
    } finally {
      await db().insert(userRoles).values(held);
    }
  });
});
