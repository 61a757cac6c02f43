/**
 * Attack suite — multi-user link takeover (issue 13 item 1). An administrator must never obtain a
 * session as a user whose credentials it did not present by way of a multi-user link: not by putting
 * itself into a link, not by growing someone's link with an ID it controls, not with a company group
 * administrator in the link, not by unlinking and relinking, not by a confirmation while accessing as
 * someone or one racing a change of the link. Growing a link needs authority over every member and
 * every member's fresh confirmation (docs/multi-user.md, docs/security.md §1).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, multiUserMembers, users } from '../../src/db/schema.ts';
import { createUser } from '../../src/modules/users/users.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

let ctx: TestContext;
const db = () => ctx.services.database.db;
let acmeId: number;
let acmeGroupId: number | null;

beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
  const [acme] = await db().select().from(companies).where(eq(companies.number, '100001'));
  acmeId = acme?.id as number;
  acmeGroupId = acme?.companyGroupId ?? null;
});
afterAll(() => ctx?.close());

async function signedIn(userId: string): Promise<TestClient> {
  const client = new TestClient(ctx.app);
  const res = await client.login(userId, DEMO_PASSWORD);
  expect(res.body, `${userId} signs in`).toBe('/app/');
  return client;
}

const post = (client: TestClient, url: string, body?: unknown) =>
  client.request({
    method: 'POST',
    url,
    ...(body === undefined
      ? {}
      : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
const link = (client: TestClient, userIds: string[]) =>
  post(client, '/app/api/multi-user/links', { userIds });
const confirm = (client: TestClient, userIds: string[]) =>
  post(client, '/app/api/multi-user/confirm', { accept: true, userIds });
/** The attacker's confirmation, in whichever body the server takes (the older one had no `userIds`). */
async function confirmAnyhow(client: TestClient, userIds: string[]) {
  const bare = await post(client, '/app/api/multi-user/confirm', { accept: true });
  return bare.statusCode === 400 ? confirm(client, userIds) : bare;
}
const choose = (client: TestClient, userId: string) => post(client, '/app/api/multi-user/choose', { userId });
const me = async (client: TestClient) => (await client.get('/app/api/me')).json();

let seq = 0;
/** A new active Acme user of a type that has signed in before, password DEMO_PASSWORD. */
async function acmeUser(type: 'A' | 'C' | 'O' | 'G'): Promise<string> {
  seq += 1;
  const userId = `tk${type.toLowerCase()}${String(seq).padStart(3, '0')}`;
  await createUser(db(), {
    userId,
    email: `${userId}@example.com`,
    password: DEMO_PASSWORD,
    firstLogin: false,
    cobrand: 'cardportal',
    firstName: 'Tia',
    lastName: 'Taken',
    userType: type,
    scope: type === 'G' ? { companyGroupId: acmeGroupId } : { companyId: acmeId },
    ...(type === 'A'
      ? { newCardholder: { companyId: acmeId, orgPointId: null, name1: 'Tia', name2: 'Taken' } }
      : {}),
  } as never);
  return userId;
}

/** Each member's confirmation, by user ID (absent: not a member). */
async function confirmations(userIds: string[]): Promise<Record<string, boolean>> {
  const rows = await db()
    .select({ userId: users.userId, confirmedAt: multiUserMembers.confirmedAt })
    .from(multiUserMembers)
    .innerJoin(users, eq(users.id, multiUserMembers.userPk))
    .where(
      sql`${users.userId} in (${sql.join(
        userIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return Object.fromEntries(rows.map((r) => [r.userId, r.confirmedAt !== null]));
}

/** A link of these IDs made by `admin`, each member confirming signed in as itself. */
async function confirmedLink(admin: string, userIds: string[]): Promise<void> {
  const made = await link(await signedIn(admin), userIds);
  expect(made.statusCode, made.body).toBe(201);
  for (const userId of userIds) {
    const res = await confirmAnyhow(
      await signedIn(userId),
      userIds.filter((id) => id !== userId),
    );
    expect(res.statusCode, res.body).toBe(204);
  }
}

describe('multi-user link takeover', () => {
  it('the reported attack: admin01 links itself with multi01, confirms and chooses multi02 — refused', async () => {
    const admin = await signedIn('admin01');
    const linked = await link(admin, ['admin01', 'multi01']);
    await confirmAnyhow(admin, ['multi01', 'multi02']);
    const chose = await choose(admin, 'multi02');
    // Never a session as multi02, with or without an access-as banner.
    expect(chose.statusCode).not.toBe(200);
    expect(await me(admin)).toMatchObject({ userId: 'admin01', accessedBy: null });
    // Refused at the root: an administrator never puts its own ID into a link.
    expect(linked.statusCode).toBe(403);
    expect(linked.json()).toMatchObject({
      code: 'multiUser.self',
      fieldErrors: { 'userIds.0': 'multiUser.self' },
    });
    expect(linked.json().message).not.toBe('multiUser.self');
    expect(await confirmations(['admin01', 'multi01', 'multi02'])).toEqual({ multi01: true, multi02: true });
    // Nor may it unlink itself, or read its own link as one it may change.
    expect((await admin.request({ method: 'DELETE', url: '/app/api/users/admin01/link' })).json().code).toBe(
      'multiUser.self',
    );
    expect((await admin.get('/app/api/users/admin01/link')).json()).toMatchObject({
      mayLink: false,
      mayUnlink: false,
    });
  });

  it('an ID the administrator controls, added to a confirmed link, cannot choose its members', async () => {
    const [v1, v2] = [await acmeUser('A'), await acmeUser('O')];
    await confirmedLink('admin01', [v1, v2]);
    // admin01 may modify both members, so it may grow the link with an ID whose password it knows ...
    const mine = await acmeUser('A');
    const grown = await link(await signedIn('admin01'), [v1, mine]);
    expect(grown.statusCode, grown.body).toBe(201);
    // ... but growing resets every existing member's confirmation,
    expect(await confirmations([v1, v2, mine])).toEqual({ [v1]: false, [v2]: false, [mine]: false });
    const asMine = await signedIn(mine);
    expect((await confirmAnyhow(asMine, [v1, v2])).statusCode).toBe(204);
    // so the controlled ID cannot become either member ...
    const again = await signedIn(mine);
    expect((await me(again)).multiUser.choices).toEqual([]);
    for (const victim of [v1, v2]) {
      const res = await choose(again, victim);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('multiUser.choice.invalid');
    }
    expect((await me(again)).userId).toBe(mine);
    // ... and the real person is asked again, with the new ID in the list.
    const asV2 = await signedIn(v2);
    expect((await me(asV2)).multiUser.confirm.map((m: { userId: string }) => m.userId)).toEqual(
      [mine, v1].sort(),
    );
    // Every member's record names the growth.
    const audit = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'multiUser.linked'))
      .orderBy(sql`id desc`)
      .limit(3);
    expect(audit.map((a) => a.entityId).sort()).toEqual([mine, v1, v2].sort());
    expect(audit.find((a) => a.entityId === v2)?.changes).toEqual({
      link: { before: [v1, v2].sort(), after: [mine, v1, v2].sort() },
    });
  });

  it('the company group variant: a company administrator cannot reach a G user through its link', async () => {
    const [g, c] = [await acmeUser('G'), await acmeUser('C')];
    // cgadmin01 (company group administrator with peer authority) links the person's two IDs.
    await confirmedLink('cgadmin01', [g, c]);
    const admin = await signedIn('admin01');
    // An ID it controls, linked with the person's C ID, confirmed, choosing the G ID ...
    const mine = await acmeUser('C');
    const grown = await link(admin, [mine, c]);
    const asMine = await signedIn(mine);
    await confirmAnyhow(asMine, [c, g]);
    expect((await choose(asMine, g)).statusCode).not.toBe(200);
    expect((await me(asMine)).userId).toBe(mine);
    // ... or itself in the link, confirming and choosing the G ID: never a session as g.
    const self = await link(admin, ['admin01', c]);
    await confirmAnyhow(admin, [c, g]);
    expect((await choose(admin, g)).statusCode).not.toBe(200);
    expect((await me(admin)).userId).toBe('admin01');
    // Refused at the link: admin01 may not modify the G member already in it, nor link itself.
    expect(grown.statusCode).toBe(403);
    expect(grown.json()).toMatchObject({ code: 'multiUser.forbidden' });
    expect(grown.json().fieldErrors).toBeUndefined();
    expect(self.statusCode).toBe(403);
    expect(self.json().code).toBe('multiUser.self');
    expect(await confirmations([g, c, mine, 'admin01'])).toEqual({ [g]: true, [c]: true });
    // The G member's link is not one admin01 may change at all.
    expect((await admin.get(`/app/api/users/${c}/link`)).json()).toMatchObject({ mayLink: false });
  });

  it('choosing needs both chooser and target to have confirmed the current membership; the rightful flow still works', async () => {
    const [a, o, c] = [await acmeUser('A'), await acmeUser('O'), await acmeUser('C')];
    await confirmedLink('admin01', [a, o]);
    // The rightful flow: a chooses o.
    const before = await signedIn(a);
    expect((await choose(before, o)).statusCode).toBe(200);
    expect((await me(before)).userId).toBe(o);
    // The person's third ID joins: nobody chooses until the chooser and the target confirmed again.
    expect((await link(await signedIn('admin01'), [c, a])).statusCode).toBe(201);
    const asA = await signedIn(a);
    expect((await choose(asA, o)).statusCode).toBe(404);
    // A stale list (the old membership) is no confirmation of the new one; none at all is malformed.
    const stale = await confirm(asA, [o]);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('multiUser.linkChanged');
    expect((await post(asA, '/app/api/multi-user/confirm', { accept: true })).statusCode).toBe(400);
    expect((await confirm(asA, [o.toUpperCase(), c])).statusCode).toBe(204);
    // a confirmed, o not yet: still no choice of o; c (unconfirmed) cannot choose either.
    expect((await choose(await signedIn(a), o)).statusCode).toBe(404);
    expect((await choose(await signedIn(c), a)).statusCode).toBe(404);
    expect((await confirm(await signedIn(o), [a, c])).statusCode).toBe(204);
    // a and o confirmed the current membership: they may choose each other; c is still pending.
    const chooser = await signedIn(a);
    expect((await me(chooser)).multiUser.choices.map((m: { userId: string }) => m.userId)).toEqual([a, o]);
    expect((await choose(chooser, c)).statusCode).toBe(404);
    expect((await choose(chooser, o)).statusCode).toBe(200);
    expect(await me(chooser)).toMatchObject({ userId: o, accessedBy: null });
    expect((await confirm(await signedIn(c), [a, o])).statusCode).toBe(204);
    const third = await signedIn(c);
    expect((await choose(third, a)).statusCode).toBe(200);
    expect((await me(third)).userId).toBe(a);
  });

  it('a member unlinked and linked again confirms anew, and so does everyone else', async () => {
    const [a, o, c] = [await acmeUser('A'), await acmeUser('O'), await acmeUser('C')];
    await confirmedLink('admin01', [a, o, c]);
    const admin = await signedIn('admin01');
    expect((await admin.request({ method: 'DELETE', url: `/app/api/users/${c}/link` })).statusCode).toBe(200);
    // A smaller link keeps its confirmations: both confirmed a membership that held them.
    expect(await confirmations([a, o, c])).toEqual({ [a]: true, [o]: true });
    expect((await link(admin, [c, o])).statusCode).toBe(201);
    expect(await confirmations([a, o, c])).toEqual({ [a]: false, [o]: false, [c]: false });
    expect((await choose(await signedIn(a), o)).statusCode).toBe(404);
    // A two-member link unlinked ends; linking one of them with another ID starts unconfirmed.
    const [x, y, z] = [await acmeUser('A'), await acmeUser('A'), await acmeUser('A')];
    await confirmedLink('admin01', [x, y]);
    expect((await admin.request({ method: 'DELETE', url: `/app/api/users/${y}/link` })).statusCode).toBe(200);
    expect((await link(admin, [x, z])).statusCode).toBe(201);
    expect(await confirmations([x, y, z])).toEqual({ [x]: false, [z]: false });
  });

  it('neither confirms nor chooses while accessing as the member', async () => {
    const [target, other] = [await acmeUser('A'), await acmeUser('A')];
    const superUser = await signedIn('admin01');
    expect((await post(superUser, '/app/api/access-as', { userId: target })).statusCode).toBe(200);
    // Linked meanwhile from another session of the administrator.
    expect((await link(await signedIn('admin01'), [target, other])).statusCode).toBe(201);
    expect((await me(superUser)).multiUser).toEqual({ confirm: null, choices: [] });
    const confirmed = await confirm(superUser, [other]);
    expect(confirmed.statusCode).toBe(403);
    // The access-as session has its user already (409 multiUser.alreadyChosen) and is no member's own.
    expect([403, 409]).toContain((await choose(superUser, other)).statusCode);
    expect(await me(superUser)).toMatchObject({ userId: target, accessedBy: { userId: 'admin01' } });
    expect(await confirmations([target, other])).toEqual({ [target]: false, [other]: false });
  });

  it('a confirmation racing a growth never confirms the membership it did not show', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, o] = [await acmeUser('A'), await acmeUser('O')];
      expect((await link(await signedIn('admin01'), [a, o])).statusCode).toBe(201);
      const asA = await signedIn(a);
      const admin = await signedIn('admin01');
      const extra = await acmeUser('A');
      // a was shown [o]; the administrator adds another ID at the same moment.
      const [confirmed, grown] = await Promise.all([confirm(asA, [o]), link(admin, [o, extra])]);
      expect(grown.statusCode, grown.body).toBe(201);
      expect([204, 409]).toContain(confirmed.statusCode);
      // Whichever came first: a's confirmation does not stand for the grown link.
      expect((await confirmations([a]))[a]).toBe(false);
    }
  });
});
