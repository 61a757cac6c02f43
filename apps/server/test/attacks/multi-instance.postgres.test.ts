import { desc, eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../../src/db/client.ts';
import { passwordHistory, users } from '../../src/db/schema.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/demo/load.ts';
import { verifySecret } from '../../src/security/hashing.ts';
import {
  createDatabase,
  type FreshDatabase,
  HttpClient,
  type HttpResponse,
  REDIS_URL,
  ServerInstance,
  signsIn,
} from '../support/instances.ts';

/**
 * More than one instance (security issue "faults"): two servers on two ports, one PostgreSQL database
 * and one Redis, share everything — sessions, CSRF tokens, the lock after 6 failures, the per-IP rate
 * limits. Both are the built server in child processes, started at the same moment on a fresh database.
 */

/** The per-IP limit of POST /heracles/login (modules/login/routes.ts). */
const SIGN_IN_LIMIT_PER_MINUTE = 60;
/**
 * The loopback address this file's requests leave from, its own: the per-IP counters live in the one
 * Redis every test shares, and another file (or a copy of this one, scripts/suite-at-scale.ts) signing in
 * from 127.0.0.1 at the same time would count against the same limit.
 */
const FROM = `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
const RL_PATTERN = `cardportal:rl:*${FROM}`;

/**
 * Deletes this address's per-IP counters (both instances see every request from FROM), leaving the
 * other keys — other tests use the same Redis — alone.
 */
async function clearLoopbackRateLimits(redis: Redis): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', RL_PATTERN, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

let fresh: FreshDatabase;
let a: ServerInstance;
let b: ServerInstance;
let direct: Database;
const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });

beforeAll(async () => {
  await redis.connect();
  await clearLoopbackRateLimits(redis);
  fresh = await createDatabase('cp_multi');
  const env = { DATABASE_URL: fresh.url, REDIS_URL, DEMO: '1', RATE_LIMITS: 'on' };
  // Side by side from the first moment: both migrate and load the demo data into the one database.
  [a, b] = await Promise.all([
    ServerInstance.start(env, { name: 'A' }),
    ServerInstance.start(env, { name: 'B' }),
  ]);
  direct = openPostgres(fresh.url, 2);
});

afterAll(async () => {
  await Promise.all([a?.dispose(), b?.dispose()]);
  await direct?.close();
  await fresh?.drop();
  await clearLoopbackRateLimits(redis).catch(() => {});
  redis.disconnect();
});

async function userRow(userId: string) {
  const [row] = await direct.db.select().from(users).where(eq(users.userId, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}

describe('two instances, one PostgreSQL and one Redis', () => {
  it('start at the same moment on a fresh database: one migrates and loads the demo data, the other waits', async () => {
    expect(a.running && b.running).toBe(true);
    const counted = await direct.db.execute(sql`select count(*)::int as n from ${users}`);
    expect((counted as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(DEMO_USERS.length);
    for (const instance of [a, b]) {
      const ready = await new HttpClient(instance.baseUrl, FROM).get('/readyz');
      expect(ready.json()).toEqual({ status: 'ready', database: 'ok', redis: 'ok' });
    }
  });

  it('continues a session started on A on B, takes the CSRF token A issued, and ends it everywhere', async () => {
    const browser = new HttpClient(a.baseUrl, FROM);
    expect((await browser.login('active01', DEMO_PASSWORD)).body).toBe('/app/');
    browser.baseUrl = b.baseUrl;
    const me = await browser.get('/app/api/me');
    expect(me.status).toBe(200);
    expect(me.json().userId).toBe('active01');
    // A state-changing call on B with the sec-token A issued for this session.
    const descriptor = await browser.postJson('/sdportal/rest/user/loginSignin', { userId: 'active01' });
    expect(descriptor.status).toBe(200);
    // B refuses a token A did not issue for this session, as A would.
    const forged = await browser.request('POST', '/sdportal/rest/user/loginSignin', {
      body: JSON.stringify({ userId: 'active01' }),
      headers: { 'content-type': 'application/json', 'x-csrf-token': 'A'.repeat(20) },
      csrf: false,
    });
    expect(forged.status).toBe(403);
    // Signed out on B: the session is gone on A as well.
    const cookies = new Map(browser.cookies);
    await browser.get('/heracles/logout');
    const replay = new HttpClient(a.baseUrl, FROM);
    for (const [k, v] of cookies) replay.cookies.set(k, v);
    expect((await replay.get('/app/api/me')).status).toBe(401);
  });

  it('locks a user after 6 wrong passwords alternating between A and B', async () => {
    const answers: HttpResponse[] = [];
    for (let i = 0; i < 6; i++) {
      const instance = i % 2 === 0 ? a : b;
      answers.push(await new HttpClient(instance.baseUrl, FROM).login('bncuser01', `Wrong-pass-${i}x`));
    }
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 200]);
    expect(answers[5]?.body).toMatch(/\/locked/);
    expect((await userRow('bncuser01')).status).toBe('Locked');
    // Locked on both: the right password now only shows the locked screen.
    for (const instance of [a, b]) {
      const res = await new HttpClient(instance.baseUrl, FROM).login('bncuser01', DEMO_PASSWORD);
      expect(res.body).toMatch(/\/locked/);
    }
  });

  it('lets exactly one of two simultaneous password changes, one on A and one on B, win', async () => {
    const onA = new HttpClient(a.baseUrl, FROM);
    const onB = new HttpClient(b.baseUrl, FROM);
    expect((await onA.login('admin01', DEMO_PASSWORD)).body).toBe('/app/');
    expect((await onB.login('admin01', DEMO_PASSWORD)).body).toBe('/app/');
    const [ra, rb] = await Promise.all([
      onA.changePassword('admin01', DEMO_PASSWORD, 'Winner-on-A-26'),
      onB.changePassword('admin01', DEMO_PASSWORD, 'Winner-on-B-26'),
    ]);
    expect(
      [ra.status, rb.status].filter((s) => s === 200),
      `${ra.body} / ${rb.body}`,
    ).toHaveLength(1);
    // The other finds the current password changed (or, later still, its session ended by the change).
    const loser = ra.status === 200 ? rb : ra;
    expect([loser.status, loser.json().code]).toSatisfy(
      ([status, code]) =>
        (status === 400 && code === 'invalid.credentials') || (status === 401 && code === 'session.required'),
    );
    const winner = ra.status === 200 ? 'Winner-on-A-26' : 'Winner-on-B-26';
    const other = winner === 'Winner-on-A-26' ? 'Winner-on-B-26' : 'Winner-on-A-26';
    expect(await signsIn(b.baseUrl, 'admin01', winner, FROM)).toBe(true);
    expect(await signsIn(a.baseUrl, 'admin01', other, FROM)).toBe(false);
    expect(await signsIn(a.baseUrl, 'admin01', DEMO_PASSWORD, FROM)).toBe(false);
    const user = await userRow('admin01');
    const history = await direct.db
      .select()
      .from(passwordHistory)
      .where(eq(passwordHistory.userPk, user.id))
      .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id));
    expect(history.map((h) => h.passwordHash)[0]).toBe(user.passwordHash);
    expect(history).toHaveLength(2);
    expect(await verifySecret(user.passwordHash, winner)).toBe(true);
  });

  it('counts the per-IP sign-in limit once across both: 429 with Retry-After at the global count', async () => {
    await clearLoopbackRateLimits(redis);
    const total = SIGN_IN_LIMIT_PER_MINUTE + 12;
    const answers: { instance: string; res: HttpResponse }[] = [];
    // Alternating A/B, a few at a time; unknown IDs, each its own (the per-user limit stays out of it).
    for (let i = 0; i < total; i += 4) {
      const batch = Array.from({ length: Math.min(4, total - i) }, (_, k) => i + k);
      answers.push(
        ...(await Promise.all(
          batch.map(async (n) => {
            const instance = n % 2 === 0 ? a : b;
            const res = await new HttpClient(instance.baseUrl, FROM).login(`nobody-${n}-rl`, 'Wrong-pass-12');
            return { instance: instance.name, res };
          }),
        )),
      );
    }
    const passed = answers.filter((x) => x.res.status === 401);
    const limited = answers.filter((x) => x.res.status === 429);
    expect(passed.length + limited.length).toBe(total);
    // One budget for the address, whichever instance answers: not 60 on each.
    expect(passed.length).toBeLessThanOrEqual(SIGN_IN_LIMIT_PER_MINUTE);
    expect(passed.length).toBeGreaterThan(SIGN_IN_LIMIT_PER_MINUTE - 10);
    expect(new Set(limited.map((x) => x.instance))).toEqual(new Set(['A', 'B']));
    for (const { res } of limited) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().code).toBe('rate.limited');
    }
    await clearLoopbackRateLimits(redis);
  });
});
