/**
 * Issue 21, item 5: durable background work on the job queue (kernel/jobs.ts, docs/jobs.md). The
 * modules' jobs run through pg-boss on the test's own database (PGlite or PostgreSQL): the session
 * purge, the unknown-ID counters' purge — which keeps `unknown_attempts` bounded under a flood of
 * distinct unknown user IDs — and mail delivery.
 */
import { createHash } from 'node:crypto';
import { count, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientLogs, mailOutbox, sessions, unknownAttempts } from '../src/db/schema.ts';
import { enqueueMail } from '../src/kernel/outbox.ts';
import { SESSIONS_PURGE } from '../src/modules/logout/index.ts';
import { MAIL_DELIVER } from '../src/modules/mail/index.ts';
import { CLIENT_LOG_CAP, PORTAL_PURGE_CLIENT_LOGS } from '../src/modules/portal/index.ts';
import {
  recordUnknownFailure,
  UNKNOWN_ATTEMPTS_CAP,
  USERS_PURGE_UNKNOWN_ATTEMPTS,
} from '../src/modules/users/index.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';
import { TestSmtp } from './smtp.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits until `check` holds, polling; fails with `what` after `timeoutMs`. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(100);
  }
  return Date.now() - start;
}

let ctx: TestContext;
let smtp: TestSmtp;

const rows = async (table: typeof unknownAttempts | typeof sessions | typeof clientLogs) =>
  Number((await ctx.app.db.select({ n: count() }).from(table))[0]?.n ?? 0);

/** The jobs of a queue that completed (pg-boss keeps them an hour: deleteAfterSeconds). */
async function completed(name: string): Promise<number> {
  const boss = ctx.app.jobs.pgBoss;
  if (!boss) throw new Error('the job queue is not started');
  const jobs = await boss.findJobs(name);
  return jobs.filter((job) => job.state === 'completed').length;
}

beforeAll(async () => {
  smtp = new TestSmtp();
  const smtpUrl = await smtp.start();
  ctx = await startTestApp({ SMTP_URL: smtpUrl, MAIL_FROM: 'portal@example.com' });
  const started = Date.now();
  await ctx.app.jobs.start();
  // Installing pg-boss's schema and the queues takes about a second on a quiet machine (only the tests
  // that exercise the queue start it); the bound leaves room for a loaded one.
  const startMs = Date.now() - started;
  console.info(`job queue started in ${startMs} ms`);
  expect(startMs).toBeLessThan(15_000);
});

afterAll(async () => {
  await ctx?.close();
  await smtp?.stop();
});

describe('the job queue', () => {
  it('schedules every module job on the queue, once per minute', async () => {
    const boss = ctx.app.jobs.pgBoss;
    expect(boss).toBeDefined();
    const schedules = await boss?.getSchedules();
    const byName = new Map(schedules?.map((s) => [s.name, s.cron]));
    expect(byName.get(SESSIONS_PURGE)).toBe('* * * * *');
    expect(byName.get(USERS_PURGE_UNKNOWN_ATTEMPTS)).toBe('* * * * *');
    expect(byName.get(MAIL_DELIVER)).toBe('* * * * *');
    expect(byName.get(PORTAL_PURGE_CLIENT_LOGS)).toBe('17 * * * *');
    expect(ctx.app.jobs.names).toEqual(expect.arrayContaining([...byName.keys()]));
  });

  it('deletes expired sessions in the sessions.purge job', async () => {
    const client = new TestClient(ctx.app);
    expect((await client.login('admin01', DEMO_PASSWORD)).body).toBe('/app/');
    const live = new TestClient(ctx.app);
    expect((await live.login('active01', DEMO_PASSWORD)).body).toBe('/app/');
    const [expired] = await ctx.app.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(sql`${sessions.userPk} = (select id from users where user_id = 'admin01')`)
      .returning({ idHash: sessions.idHash });
    expect(expired).toBeDefined();
    const before = await rows(sessions);
    const done = await completed(SESSIONS_PURGE);

    await ctx.app.jobs.send(SESSIONS_PURGE);
    await until('the purge job completed', async () => (await completed(SESSIONS_PURGE)) > done);
    const left = await ctx.app.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, expired?.idHash ?? ''));
    expect(left).toHaveLength(0);
    expect(await rows(sessions)).toBe(before - 1);
    // The live session was kept.
    expect((await live.get('/app/api/me')).statusCode).toBe(200);
  });

  it('keeps unknown_attempts bounded under a flood of distinct unknown user IDs', async () => {
    await ctx.app.db.delete(unknownAttempts);
    // Through the real sign-in route: every distinct unknown ID adds a row.
    const viaRoute = 120;
    await Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let i = lane; i < viaRoute; i += 4) {
          const res = await new TestClient(ctx.app, `10.9.${lane}.${(i % 250) + 1}`).login(
            `nosuchuser${i}`,
            'Wrong-pass-1',
          );
          expect(res.statusCode).toBeLessThan(500);
        }
      }),
    );
    expect(await rows(unknownAttempts)).toBe(viaRoute);

    // Locked unknown IDs (six failures each), the longest quiet of all: the purge keeps them.
    const locked = Array.from({ length: 25 }, (_, i) => hash(`locked-${i}`));
    for (const key of locked) for (let n = 0; n < 6; n++) await recordUnknownFailure(ctx.app.db, key);
    await ctx.app.db
      .update(unknownAttempts)
      .set({ updatedAt: sql`now() - interval '2 hours'` })
      .where(isNotNull(unknownAttempts.lockedAt));

    // Then the flood: 2,000 distinct IDs through the function the route uses, eight at a time, and the
    // rest of a flood past the cap as the rows those calls write (one statement: the suite's time).
    const viaFunction = 2_000;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, async (_, lane) => {
        for (let i = lane; i < viaFunction; i += 8) {
          await recordUnknownFailure(ctx.app.db, hash(`flood-${i}`));
        }
      }),
    );
    const floodMs = Date.now() - started;
    const bulk = UNKNOWN_ATTEMPTS_CAP;
    await ctx.app.db.execute(
      sql`insert into ${unknownAttempts} (key_hash, failures)
        select encode(sha256(('bulk-' || i)::bytea), 'hex'), 1 from generate_series(1, ${bulk}) as i`,
    );
    const flood = viaFunction + bulk;
    // Counters quiet for more than a day go whatever the count.
    await ctx.app.db.insert(unknownAttempts).values(
      Array.from({ length: 30 }, (_, i) => ({
        keyHash: hash(`stale-${i}`),
        failures: 2,
        updatedAt: sql`now() - interval '25 hours'`,
      })),
    );
    const peak = await rows(unknownAttempts);
    expect(peak).toBe(viaRoute + locked.length + flood + 30);

    const done = await completed(USERS_PURGE_UNKNOWN_ATTEMPTS);
    await ctx.app.jobs.send(USERS_PURGE_UNKNOWN_ATTEMPTS);
    await until(
      'the purge job completed',
      async () => (await completed(USERS_PURGE_UNKNOWN_ATTEMPTS)) > done,
      30_000,
    );
    const after = await rows(unknownAttempts);
    expect(after).toBe(UNKNOWN_ATTEMPTS_CAP);
    const lockedLeft = await ctx.app.db
      .select({ n: count() })
      .from(unknownAttempts)
      .where(isNotNull(unknownAttempts.lockedAt));
    expect(lockedLeft[0]?.n).toBe(locked.length);
    const staleLeft = await ctx.app.db
      .select({ n: count() })
      .from(unknownAttempts)
      .where(sql`${unknownAttempts.updatedAt} < now() - interval '1 day'`);
    expect(staleLeft[0]?.n).toBe(0);
    console.info(
      `unknown_attempts: ${peak} rows after ${viaRoute} sign-ins, ${viaFunction} recorded failures (${floodMs} ms) and ${bulk} more rows → ${after} after the purge job (cap ${UNKNOWN_ATTEMPTS_CAP})`,
    );
  }, 120_000);

  it('keeps client_logs bounded: reports older than 30 days go, and past the cap the oldest', async () => {
    await ctx.app.db.delete(clientLogs);
    // Through the real route, as a browser reports an error (anyone may).
    const posted = await new TestClient(ctx.app).request({
      method: 'PUT',
      url: '/sdportal/rest/log/logErrorStatement.json',
      payload: JSON.stringify({ message: 'TypeError: x is undefined' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(posted.statusCode).toBe(204);
    const flood = CLIENT_LOG_CAP + 500;
    await ctx.app.db.execute(sql`insert into client_logs (message, at)
      select 'flood ' || n, now() - make_interval(secs => n) from generate_series(1, ${flood}) as n`);
    await ctx.app.db.execute(sql`insert into client_logs (message, at)
      select 'old ' || n, now() - interval '31 days' from generate_series(1, 40) as n`);
    expect(await rows(clientLogs)).toBe(1 + flood + 40);

    const done = await completed(PORTAL_PURGE_CLIENT_LOGS);
    await ctx.app.jobs.send(PORTAL_PURGE_CLIENT_LOGS);
    await until(
      'the purge job completed',
      async () => (await completed(PORTAL_PURGE_CLIENT_LOGS)) > done,
      30_000,
    );
    expect(await rows(clientLogs)).toBe(CLIENT_LOG_CAP);
    const kept = await ctx.app.db
      .select({ n: count() })
      .from(clientLogs)
      .where(
        sql`${clientLogs.message} like 'old %' or ${clientLogs.message} = 'flood ${sql.raw(String(flood))}'`,
      );
    // None of the old ones, not the oldest of the flood; the route's report (the newest) stays.
    expect(kept[0]?.n).toBe(0);
    const newest = await ctx.app.db
      .select({ n: count() })
      .from(clientLogs)
      .where(eq(clientLogs.message, 'TypeError: x is undefined'));
    expect(newest[0]?.n).toBe(1);
  }, 120_000);

  it('delivers a committed mail through the mail.deliver job, and retries a refused one when due', async () => {
    await enqueueMail(ctx.app.db, {
      kind: 'test',
      recipient: 'jobs.one@example.com',
      subject: 'Job one',
      body: 'Sent by the mail.deliver job',
    });
    ctx.app.mailWorker.kick();
    const ms = await until('the mail was delivered', async () => !!smtp.last('jobs.one@example.com'), 10_000);
    expect(ms).toBeLessThan(5_000);
    expect(smtp.last('jobs.one@example.com')?.text).toContain('Sent by the mail.deliver job');

    // Refused (451): the mail stays, backs off 5 s, and a job queued for then delivers it (no kick).
    smtp.accepting = false;
    await enqueueMail(ctx.app.db, {
      kind: 'test',
      recipient: 'jobs.two@example.com',
      subject: 'Job two',
      body: 'Retried by a later job',
    });
    ctx.app.mailWorker.kick();
    const pending = async () =>
      (await ctx.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'jobs.two@example.com')))[0];
    await until('the first attempt was refused', async () => ((await pending())?.attempts ?? 0) >= 1);
    expect((await pending())?.sentAt).toBeNull();
    smtp.accepting = true;
    await until('the refused mail was delivered', async () => !!smtp.last('jobs.two@example.com'), 15_000);
    await until('the outbox row was marked sent', async () => (await pending())?.sentAt != null);
    expect((await pending())?.attempts).toBe(2);
  }, 60_000);
});

function hash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
