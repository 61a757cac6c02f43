/**
 * Attack suite — account standing (issue 13 item 6, seed 001 §4, §8): an expired temporary password
 * locks its user until an administrator unlocks, and an inactive company or issuer stops its users
 * signing in and ends their sessions. Either is told ("temporary password expired, contact
 * administrator", "locked or inactive user or corp") only to whoever presented the right password: a
 * wrong one is answered as for any user.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, issuers, mailOutbox, sessions, users } from '../../src/db/schema.ts';
import { composeMail } from '../../src/modules/mail/mail-text.ts';
import { unlockUser } from '../../src/modules/users/users.ts';
import { verifySecret } from '../../src/security/hashing.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
});
afterAll(() => ctx?.close());

const db = () => ctx.services.database.db;
const userRow = async (userId: string) => {
  const [row] = await db().select().from(users).where(eq(users.userId, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return row;
};
const DAY_AND_AN_HOUR = 25 * 60 * 60 * 1000;
const expireTemporaryPassword = (userId: string) =>
  db()
    .update(users)
    .set({ passwordTemporary: true, passwordChangedAt: new Date(Date.now() - DAY_AND_AN_HOUR) })
    .where(eq(users.userId, userId));

async function signedIn(userId: string): Promise<TestClient> {
  const client = new TestClient(ctx.app);
  expect((await client.login(userId, DEMO_PASSWORD)).body, `${userId} signs in`).toBe('/app/');
  return client;
}

const send = (client: TestClient, method: 'POST' | 'PUT', url: string, body?: unknown) =>
  client.request({
    method,
    url,
    ...(body === undefined
      ? {}
      : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

const signin = (extra = '') => `/sdportal/portalstatic/locked?cobrandHost=cardportal&locale=en_US${extra}`;
const links = { cobrandHost: 'cardportal', locale: 'en_US' };

describe('an expired temporary password locks the user (seed 001 §4)', () => {
  it('locks on the right expired password, says why only then, and keeps the count', async () => {
    await expireTemporaryPassword('lvlmgr01');
    // A wrong password is answered as for anyone, and counted.
    const wrong = await new TestClient(ctx.app).login('lvlmgr01', 'Not-the-password-1', links);
    expect(wrong.statusCode).toBe(401);
    expect((await userRow('lvlmgr01')).status).toBe('Active');

    const client = new TestClient(ctx.app);
    const right = await client.login('lvlmgr01', DEMO_PASSWORD, links);
    expect(right.statusCode).toBe(200);
    expect(right.body).toBe(signin('&reason=temporary-expired'));
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
    const row = await userRow('lvlmgr01');
    expect(row).toMatchObject({ status: 'Locked', lockReason: 'temporary-expired', failedAttempts: 2 });
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userPk, row.id), eq(auditEvents.event, 'login.locked')));
    expect(event?.detail).toMatchObject({ reason: 'temporary-expired' });

    // Locked now, and until an administrator unlocks: the right password is still told why (never
    // "wait 30 minutes"), a wrong one gets the locked screen without a reason; both are counted.
    const again = await new TestClient(ctx.app).login('lvlmgr01', DEMO_PASSWORD, links);
    expect(again.body).toBe(signin('&reason=temporary-expired'));
    expect((await userRow('lvlmgr01')).failedAttempts).toBe(0);
    expect((await new TestClient(ctx.app).login('lvlmgr01', 'Not-the-password-1', links)).body).toBe(
      signin(),
    );
    expect((await userRow('lvlmgr01')).failedAttempts).toBe(1);
    // Not the 30-minute lift of failed attempts: an hour later it is still locked.
    await db()
      .update(users)
      .set({ lockedAt: new Date(Date.now() - 60 * 60 * 1000) })
      .where(eq(users.id, row.id));
    expect((await new TestClient(ctx.app).login('lvlmgr01', DEMO_PASSWORD, links)).body).toBe(
      signin('&reason=temporary-expired'),
    );
    expect((await userRow('lvlmgr01')).status).toBe('Locked');
  });

  it('checks the password of a locked user only within the allowance of failed attempts', async () => {
    // Six wrong guesses spend the allowance; after that not even the right password is checked, so the
    // lock cannot be used to test passwords without end.
    for (let i = 0; i < 6; i++)
      expect((await new TestClient(ctx.app).login('lvlmgr01', `Not-the-password-${i}`, links)).body).toBe(
        signin(),
      );
    const row = await userRow('lvlmgr01');
    expect(row.failedAttempts).toBe(6);
    expect((await new TestClient(ctx.app).login('lvlmgr01', DEMO_PASSWORD, links)).body).toBe(signin());
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userPk, row.id), eq(auditEvents.event, 'login.locked')));
    expect(events.at(-1)?.detail).toMatchObject({ evaluated: false });
    expect(events.at(-1)?.detail).not.toHaveProperty('reason');
  });

  it("an administrator's unlock lifts it and mails a new temporary password that signs in", async () => {
    const before = await userRow('lvlmgr01');
    expect(before.lockReason).toBe('temporary-expired');
    const admin = await signedIn('admin01');
    const unlocked = await send(admin, 'POST', '/app/api/users/lvlmgr01/unlock');
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    const after = await userRow('lvlmgr01');
    expect(after).toMatchObject({
      status: 'Active',
      lockReason: null,
      failedAttempts: 0,
      passwordTemporary: true,
    });
    expect(after.passwordHash).not.toBe(before.passwordHash);
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, after.email), eq(mailOutbox.kind, 'temporary-password')));
    const temporary = /(\S{12,})\s*$/m.exec(
      mail?.body.split('\n').find((l) => /temporary/i.test(l)) ?? '',
    )?.[1];
    expect(temporary && (await verifySecret(after.passwordHash, temporary))).toBe(true);
    const login = await new TestClient(ctx.app).login('lvlmgr01', temporary ?? '', links);
    expect(login.body).toBe('/sdportal/portalstatic/change-password?cobrandHost=cardportal&locale=en_US');
  });

  it('the unlock the command line shares (user unlock) lifts it too and mails a new temporary password', async () => {
    await expireTemporaryPassword('agmgr01');
    expect((await new TestClient(ctx.app).login('agmgr01', DEMO_PASSWORD, links)).body).toBe(
      signin('&reason=temporary-expired'),
    );
    const locked = await userRow('agmgr01');
    const unlocked = await db().transaction((tx) =>
      unlockUser(tx, locked, (user, password, inTx) =>
        composeMail(ctx.app, 'temporary-password', user, user, [password], inTx),
      ),
    );
    expect(unlocked?.status).toBe('Active');
    const after = await userRow('agmgr01');
    expect(after.lockReason).toBeNull();
    expect(after.passwordTemporary).toBe(true);
    expect(after.passwordHash).not.toBe(locked.passwordHash);
    const mails = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, after.email), eq(mailOutbox.kind, 'temporary-password')));
    expect(mails).toHaveLength(1);
    // Not locked any more: nothing to unlock, nothing written.
    expect(
      await db().transaction((tx) => unlockUser(tx, after, async () => Promise.reject(new Error('no mail')))),
    ).toBeUndefined();
  });
});

describe('an inactive company or issuer stops its users (seed 001 §8 "locked or inactive user or corp")', () => {
  const setCompany = (number: string, active: boolean) =>
    db().update(companies).set({ active }).where(eq(companies.number, number));
  const sessionCount = async (userId: string) =>
    (
      await db()
        .select()
        .from(sessions)
        .where(eq(sessions.userPk, (await userRow(userId)).id))
    ).length;

  it('deactivating a company ends its users’ sessions at once and refuses their sign-in', async () => {
    const user = await signedIn('bncuser01');
    const z = await signedIn('sysadmin01');
    const off = await send(z, 'PUT', '/app/api/org/companies/200001/status', { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(await sessionCount('bncuser01')).toBe(0);
    expect((await user.get('/app/api/me')).statusCode).toBe(401);

    // A wrong password: as for any user (401, counted). The right one: the reason, no session.
    expect((await new TestClient(ctx.app).login('bncuser01', 'Not-the-password-1', links)).statusCode).toBe(
      401,
    );
    const again = new TestClient(ctx.app);
    const right = await again.login('bncuser01', DEMO_PASSWORD, links);
    expect(right.statusCode).toBe(200);
    expect(right.body).toBe(signin('&reason=inactive'));
    expect((await again.get('/app/api/me')).statusCode).toBe(401);
    expect(await sessionCount('bncuser01')).toBe(0);
    // The right password is no failed guess: the user is not locked by it, the count starts again.
    expect(await userRow('bncuser01')).toMatchObject({ status: 'Active', failedAttempts: 0 });

    expect((await send(z, 'PUT', '/app/api/org/companies/200001/status', { active: true })).statusCode).toBe(
      200,
    );
    await signedIn('bncuser01');
  });

  it('checks on every request: a session of a user whose company went inactive by any path ends', async () => {
    const admin = await signedIn('bncadmin01');
    expect((await admin.get('/app/api/me')).statusCode).toBe(200);
    await setCompany('200001', false);
    try {
      expect((await admin.get('/app/api/me')).statusCode).toBe(401);
      expect(await sessionCount('bncadmin01')).toBe(0);
    } finally {
      await setCompany('200001', true);
    }
  });

  it('an inactive issuer stops the users of its companies and its own administrators', async () => {
    const cardholder = await signedIn('bncuser01');
    const z = await signedIn('sysadmin01');
    const off = await send(z, 'PUT', '/app/api/org/issuers/2001/status', { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect((await cardholder.get('/app/api/me')).statusCode).toBe(401);
    for (const userId of ['bncuser01', 'bncadmin01']) {
      expect((await new TestClient(ctx.app).login(userId, DEMO_PASSWORD, links)).body, userId).toBe(
        signin('&reason=inactive'),
      );
    }
    // Another issuer's users are untouched.
    await signedIn('active01');
    await db().update(issuers).set({ active: true }).where(eq(issuers.number, '2001'));
    await signedIn('bncuser01');
  });
});
