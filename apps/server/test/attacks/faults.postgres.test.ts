import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../../src/db/client.ts';
import { mailOutbox, passwordHistory, users } from '../../src/db/schema.ts';
import { DEMO_ANSWER, DEMO_PASSWORD } from '../../src/demo/load.ts';
import { createUser } from '../../src/modules/users/users.ts';
import { verifySecret } from '../../src/security/hashing.ts';
import { TestSmtp } from '../smtp.ts';
import {
  createDatabase,
  type FreshDatabase,
  HttpClient,
  type HttpResponse,
  REDIS_URL,
  request,
  ServerInstance,
  signsIn,
  sleep,
} from '../support/instances.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';

/**
 * Faults, with nothing lost (security issue "faults"): PostgreSQL stopped mid-load, SMTP down, the
 * server killed with SIGKILL in the middle of password changes, SIGTERM while requests are in flight.
 * The server is the built one (dist/server.js) in a child process, on a fresh PostgreSQL database;
 * a TcpProxy in front of PostgreSQL (or SMTP) plays the server going down and coming back.
 */

const CHANGE_USERS = ['change01', 'change02', 'change03'];
const RESET_USER = 'reset01';
const START_PASSWORD = 'Start-pass-2026';

async function addUsers(database: Database, ids: string[]): Promise<void> {
  for (const userId of ids) {
    await createUser(database.db, {
      userId,
      email: `${userId}@example.com`,
      password: START_PASSWORD,
      cobrand: 'cardportal',
      question: 'q1',
      answer: DEMO_ANSWER,
    });
  }
}

async function userRow(database: Database, userId: string) {
  const [row] = await database.db.select().from(users).where(eq(users.userId, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}

async function historyOf(database: Database, userPk: number) {
  return database.db
    .select()
    .from(passwordHistory)
    .where(eq(passwordHistory.userPk, userPk))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id));
}

/** The temporary password in a reset mail's text (the 14 characters at the end of its line). */
const temporaryIn = (text: string) =>
  /(\S{14})\s*$/m.exec(text.split('\n').find((l) => /temporary/i.test(l)) ?? '')?.[1] ?? '';

/** Exactly one of the passwords signs the user in; returns it. */
async function theOneThatSignsIn(baseUrl: string, userId: string, candidates: string[]): Promise<string> {
  const working: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (await signsIn(baseUrl, userId, candidate)) working.push(candidate);
  }
  expect(working, `${userId}: exactly one of ${candidates.join(' / ')} signs in`).toHaveLength(1);
  return working[0] ?? '';
}

describe('a database connection lost in the middle of a transaction', () => {
  let fresh: FreshDatabase;
  let proxy: TcpProxy;
  let database: Database;

  beforeAll(async () => {
    proxy = new TcpProxy(5432);
    await proxy.start();
    fresh = await createDatabase();
    // One connection: a slot the pool loses for good shows at once.
    database = openPostgres(fresh.urlVia(proxy.port), 1);
  });

  afterAll(async () => {
    await database?.close();
    await proxy?.stop();
    await fresh?.drop();
  });

  /** What the driver said, under Drizzle's wrapping. */
  const rootMessage = (error: unknown): string => {
    let e = error as { cause?: unknown; message?: string };
    while (e.cause) e = e.cause as typeof e;
    return String(e.message);
  };
  const DROPPED = /Connection terminated|ECONNRESET|ECONNREFUSED|not queryable/;

  const oneTransaction = () =>
    database.db.transaction(async (tx) => (await tx.execute(sql`select 1 as one`)) as unknown);

  it('fails the transaction with an unavailable error, without crashing the process or losing the pool slot', async () => {
    // The connection drops while the transaction waits on the server: before the fix, the checked-out
    // client's 'error' event had no listener and killed the process.
    await database.ping();
    const waiting = database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_sleep(2)`);
    });
    await sleep(300);
    await proxy.stop();
    await expect(waiting.catch(rootMessage)).resolves.toMatch(DROPPED);
    await proxy.start();
    await oneTransaction();

    // The connection drops just as the transaction begins (BEGIN fails): before the fix, the client
    // was never released, and with the pool's only slot gone every later query timed out.
    await database.ping();
    const stopping = proxy.stop();
    const beginning = oneTransaction();
    await stopping;
    await expect(beginning.then(() => 'committed', rootMessage)).resolves.toMatch(DROPPED);
    await proxy.start();
    const started = Date.now();
    await oneTransaction();
    await database.ping();
    expect(Date.now() - started).toBeLessThan(2000);
  }, 30_000);
});

describe('PostgreSQL stopped mid-load', () => {
  let fresh: FreshDatabase;
  let proxy: TcpProxy;
  let server: ServerInstance;
  let direct: Database;

  beforeAll(async () => {
    proxy = new TcpProxy(5432);
    await proxy.start();
    fresh = await createDatabase();
    server = await ServerInstance.start(
      { DATABASE_URL: fresh.urlVia(proxy.port), REDIS_URL, DEMO: '1' },
      { name: 'pg-fault' },
    );
    direct = openPostgres(fresh.url, 2);
    await addUsers(direct, [...CHANGE_USERS, RESET_USER]);
  });

  afterAll(async () => {
    await server?.dispose();
    await direct?.close();
    await proxy?.stop();
    await fresh?.drop();
  });

  interface Outcome {
    phase: 'before' | 'down' | 'after';
    what: string;
    status: number | string;
    ms: number;
    body: string;
  }
  const outcomes: Outcome[] = [];
  let phase: Outcome['phase'] = 'before';
  let running = true;
  const changes = new Map<string, { old: string; next?: string; done: number }>();
  const resets = { ok: 0, unsure: 0 };

  async function record(what: string, call: () => Promise<HttpResponse>): Promise<HttpResponse | undefined> {
    const started = Date.now();
    const at = phase;
    try {
      const res = await call();
      outcomes.push({ phase: at, what, status: res.status, ms: res.ms, body: res.body.slice(0, 300) });
      return res;
    } catch (error) {
      outcomes.push({
        phase: at,
        what,
        status: (error as Error).message,
        ms: Date.now() - started,
        body: '',
      });
      return undefined;
    }
  }

  async function signInLoop(userId: string): Promise<void> {
    while (running) {
      const client = new HttpClient(server.baseUrl);
      const res = await record('sign-in', () => client.login(userId, DEMO_PASSWORD, { timeoutMs: 10_000 }));
      if (res?.status === 200) await record('me', () => client.get('/app/api/me', { timeoutMs: 10_000 }));
      await sleep(20);
    }
  }

  async function sessionLoop(client: HttpClient): Promise<void> {
    while (running) {
      await record('me (old session)', () => client.get('/app/api/me', { timeoutMs: 10_000 }));
      await record('descriptor', () =>
        client.postJson('/sdportal/rest/user/loginSignin', { userId: 'active01' }, { timeoutMs: 10_000 }),
      );
      await sleep(50);
    }
  }

  /** Changes the password again and again; stops at the first answer that leaves the outcome open. */
  async function changeLoop(client: HttpClient, userId: string, index: number): Promise<void> {
    const state = { old: START_PASSWORD, done: 0 } as { old: string; next?: string; done: number };
    changes.set(userId, state);
    for (let n = 1; running; n++) {
      const next = `Chg-${index}-${n}-pass`;
      const res = await record('change password', () =>
        client.changePassword(userId, state.old, next, { timeoutMs: 10_000 }),
      );
      if (res?.status === 200) {
        state.old = next;
        state.done++;
        continue;
      }
      state.next = next; // committed or not: the test finds out after the outage
      return;
    }
  }

  async function resetLoop(): Promise<void> {
    while (running) {
      const res = await record('forgot password', () =>
        new HttpClient(server.baseUrl).forgotPassword(RESET_USER, DEMO_ANSWER, { timeoutMs: 10_000 }),
      );
      if (res?.status === 200) resets.ok++;
      else resets.unsure++;
      await sleep(30);
    }
  }

  it('answers 503 service.unavailable within seconds while the database is down, /readyz turns red, and recovers by itself', async () => {
    const oldSession = new HttpClient(server.baseUrl);
    expect((await oldSession.login('active01', DEMO_PASSWORD)).body).toBe('/app/');
    const changers = await Promise.all(
      CHANGE_USERS.map(async (userId) => {
        const client = new HttpClient(server.baseUrl);
        expect((await client.login(userId, START_PASSWORD)).body).toBe('/app/');
        return client;
      }),
    );
    const load = Promise.all([
      signInLoop('active01'),
      signInLoop('agmgr01'),
      sessionLoop(oldSession),
      resetLoop(),
      ...CHANGE_USERS.map((u, i) => changeLoop(changers[i] as HttpClient, u, i)),
    ]);

    // Under way: every kind of call has succeeded at least once (however slow the machine).
    const loaded = Date.now() + 20_000;
    while (resets.ok < 1 || [...changes.values()].some((c) => c.done < 1) || outcomes.length < 20) {
      expect(Date.now(), 'load under way').toBeLessThan(loaded);
      await sleep(50);
    }
    phase = 'down';
    await proxy.stop();
    const downAt = Date.now();
    await sleep(300);
    const readyDown = await request(server.baseUrl, 'GET', '/readyz', { timeoutMs: 5000 });
    expect(readyDown.status).toBe(503);
    expect(readyDown.json()).toMatchObject({ status: 'unavailable', database: 'unavailable' });
    expect(readyDown.ms).toBeLessThan(3000);
    // Liveness stays green: the process is fine, only its database is gone.
    expect((await request(server.baseUrl, 'GET', '/healthz')).status).toBe(200);
    await sleep(Math.max(0, downAt + 3000 - Date.now()));

    phase = 'after';
    await proxy.start();
    const upAt = Date.now();
    for (;;) {
      const res = await request(server.baseUrl, 'GET', '/readyz', { timeoutMs: 5000 }).catch(() => undefined);
      if (res?.status === 200) break;
      expect(Date.now() - upAt, 'ready again within 10 s of the database coming back').toBeLessThan(10_000);
      await sleep(100);
    }
    await sleep(1500);
    running = false;
    await load;

    const down = outcomes.filter((o) => o.phase === 'down');
    const unexpected = outcomes.filter((o) => o.status !== 200 && o.status !== 503);
    const serverErrors = server.output
      .split('\n')
      .filter((l) => /"level":(50|60)/.test(l) && !/database unavailable/.test(l));
    expect(
      unexpected,
      `${JSON.stringify(unexpected.slice(0, 5), null, 1)}\n${serverErrors.slice(0, 5).join('\n')}`,
    ).toEqual([]);
    // The outage was seen, as 503 with the one error shape and a clear message — never 500, never a hang.
    const unavailable = down.filter((o) => o.status === 503);
    expect(unavailable.length).toBeGreaterThan(5);
    for (const o of outcomes.filter((x) => x.status === 503)) {
      const body = JSON.parse(o.body) as { code: string; message: string };
      expect(body.code).toBe('service.unavailable');
      expect(body.message).toMatch(/temporarily unavailable/);
    }
    const slowest = Math.max(...outcomes.map((o) => o.ms));
    expect(slowest, 'no call hangs beyond a few seconds').toBeLessThan(6000);
    // Service resumed without a restart: the same process, and the session from before the outage.
    expect(server.running).toBe(true);
    const after = outcomes.filter((o) => o.phase === 'after' && o.status === 200);
    expect(after.filter((o) => o.what === 'sign-in').length).toBeGreaterThan(0);
    expect(after.filter((o) => o.what === 'me (old session)').length).toBeGreaterThan(0);
    expect((await oldSession.get('/app/api/me')).status).toBe(200);
    expect(server.output).not.toMatch(/Unhandled|uncaught|FATAL/i);
  }, 60_000);

  it('leaves a password change or reset cut by the outage all done or not done at all', async () => {
    expect(changes.size).toBe(CHANGE_USERS.length);
    for (const [userId, state] of changes) {
      const current = await theOneThatSignsIn(
        server.baseUrl,
        userId,
        state.next ? [state.old, state.next] : [state.old],
      );
      const user = await userRow(direct, userId);
      const history = await historyOf(direct, user.id);
      // The history's newest entry is the current password; at most four are kept.
      expect(history[0]?.passwordHash).toBe(user.passwordHash);
      expect(await verifySecret(user.passwordHash, current)).toBe(true);
      expect(history.length).toBeLessThanOrEqual(4);
    }

    // Each committed reset wrote its mail in the same transaction: one mail per new password.
    const user = await userRow(direct, RESET_USER);
    const history = await historyOf(direct, user.id);
    const mails = await direct.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, user.email), eq(mailOutbox.kind, 'temporary-password')))
      .orderBy(desc(mailOutbox.id));
    expect(resets.ok).toBeGreaterThan(0);
    // (The history keeps the newest four: the first password and one per committed reset, trimmed.)
    expect(history.length).toBe(Math.min(mails.length + 1, 4));
    expect(mails.length).toBeGreaterThanOrEqual(resets.ok);
    expect(mails.length).toBeLessThanOrEqual(resets.ok + resets.unsure);
    expect(history[0]?.passwordHash).toBe(user.passwordHash);
    const temporary = temporaryIn(mails[0]?.body ?? '');
    expect(await verifySecret(user.passwordHash, temporary)).toBe(true);
    expect(user.passwordTemporary).toBe(true);
  });
});

describe('SMTP down', () => {
  let fresh: FreshDatabase;
  let server: ServerInstance;
  let direct: Database;
  const smtp = new TestSmtp();
  let smtpProxy: TcpProxy;

  beforeAll(async () => {
    await smtp.start();
    smtpProxy = new TcpProxy(smtp.port);
    await smtpProxy.start();
    fresh = await createDatabase();
    server = await ServerInstance.start(
      { DATABASE_URL: fresh.url, REDIS_URL, DEMO: '1', SMTP_URL: `smtp://127.0.0.1:${smtpProxy.port}` },
      { name: 'smtp-fault' },
    );
    direct = openPostgres(fresh.url, 2);
  });

  afterAll(async () => {
    await server?.dispose();
    await direct?.close();
    await smtpProxy?.stop();
    await smtp.stop();
    await fresh?.drop();
  });

  it('commits resets and one-time codes while SMTP is down, and mails them soon after SMTP returns', async () => {
    await smtpProxy.stop();
    const resetUsers = ['active01', 'admin01', 'bncuser01', 'agmgr01'];
    const otp = new HttpClient(server.baseUrl);
    // Under load: the resets and several sign-ins of the OTP user (each mails a new code) at once.
    const [resetAnswers, otpAnswers] = await Promise.all([
      Promise.all(resetUsers.map((u) => new HttpClient(server.baseUrl).forgotPassword(u, DEMO_ANSWER))),
      (async () => {
        const answers: HttpResponse[] = [];
        for (let i = 0; i < 3; i++) answers.push(await otp.login('otpuser01', DEMO_PASSWORD));
        return answers;
      })(),
    ]);
    for (const res of resetAnswers) expect(res.status, res.body).toBe(200);
    for (const res of otpAnswers) {
      expect(res.status).toBe(200);
      expect(res.body).toMatch(/\/otp\?.*delivery=/);
    }
    for (const u of resetUsers) expect((await userRow(direct, u)).passwordTemporary).toBe(true);

    // The outage lasts long enough for the worker to retry (and back off) several times.
    await sleep(7000);
    const pending = await direct.db.select().from(mailOutbox).where(sql`${mailOutbox.sentAt} is null`);
    expect(pending).toHaveLength(resetUsers.length + otpAnswers.length);
    expect(pending.some((m) => m.attempts > 0 && m.lastError)).toBe(true);
    expect(smtp.inbox).toHaveLength(0);

    await smtpProxy.start();
    const backAt = Date.now();
    while (smtp.inbox.length < pending.length) {
      expect(Date.now() - backAt, 'every mail within 10 s of SMTP coming back').toBeLessThan(10_000);
      await sleep(100);
    }
    // Nothing lost: the newest code completes the sign-in, each temporary password signs in.
    const code = /\b(\d{6})\b/.exec(smtp.last('otto.otp@example.com')?.text ?? '')?.[1] ?? '';
    const done = await otp.postForm('/heracles/login', {
      username: 'otpuser01',
      password: code,
      'login-form-type': 'otp',
    });
    expect(done.body).toBe('/app/');
    for (const u of resetUsers) {
      const row = await userRow(direct, u);
      const mail = smtp.last(row.email);
      expect(mail?.subject).toMatch(/password/i);
      const login = await new HttpClient(server.baseUrl).login(u, temporaryIn(mail?.text ?? ''));
      expect(login.body).toMatch(/change-password/);
    }
  }, 40_000);
});

describe('the server killed and stopped', () => {
  let fresh: FreshDatabase;
  let server: ServerInstance;
  let direct: Database;
  const KILL_USERS = Array.from({ length: 6 }, (_, i) => `kill${String(i + 1).padStart(2, '0')}`);
  /** Each user's password after the SIGKILL test. */
  const passwords = new Map<string, string>();

  beforeAll(async () => {
    fresh = await createDatabase();
    // LOG_LEVEL debug: the log shows when each request has arrived.
    server = await ServerInstance.start(
      { DATABASE_URL: fresh.url, REDIS_URL, DEMO: '0', LOG_LEVEL: 'debug' },
      { name: 'kill' },
    );
    direct = openPostgres(fresh.url, 2);
    await addUsers(direct, KILL_USERS);
  });

  afterAll(async () => {
    await server?.dispose();
    await direct?.close();
    await fresh?.drop();
  });

  it('SIGKILL in the middle of password changes: after restart every user has the old or the new password, and a consistent history', async () => {
    const states = new Map<string, { old: string; next?: string; changed: number }>();
    const clients = await Promise.all(
      KILL_USERS.map(async (userId) => {
        const client = new HttpClient(server.baseUrl);
        expect((await client.login(userId, START_PASSWORD)).body).toBe('/app/');
        return client;
      }),
    );
    const refusals: string[] = [];
    const loops = KILL_USERS.map(async (userId, i) => {
      const client = clients[i] as HttpClient;
      const state = { old: START_PASSWORD, changed: 0 } as { old: string; next?: string; changed: number };
      states.set(userId, state);
      for (let n = 1; ; n++) {
        const next = `Kill-${i}-${n}-pass`;
        state.next = next;
        const res = await client.changePassword(userId, state.old, next).catch(() => undefined);
        if (res === undefined) return; // the server died under this request
        if (res.status !== 200) {
          refusals.push(`${userId}: ${res.status} ${res.body}`);
          return;
        }
        state.old = next;
        state.next = undefined;
        state.changed++;
      }
    });
    // Kill once every user has changed at least once, at a moment the changes do not choose.
    const deadline = Date.now() + 30_000;
    while ([...states.values()].some((st) => st.changed < 1)) {
      expect(Date.now(), 'every user changed once').toBeLessThan(deadline);
      await sleep(20);
    }
    await sleep(Math.random() * 300);
    const exit = await server.kill('SIGKILL');
    expect(exit.signal).toBe('SIGKILL');
    await Promise.all(loops);
    expect(refusals).toEqual([]);
    expect([...states.values()].reduce((n, st) => n + st.changed, 0)).toBeGreaterThanOrEqual(
      KILL_USERS.length,
    );

    await server.restart();
    for (const [userId, state] of states) {
      const current = await theOneThatSignsIn(
        server.baseUrl,
        userId,
        state.next ? [state.old, state.next] : [state.old],
      );
      const user = await userRow(direct, userId);
      const history = await historyOf(direct, user.id);
      expect(history[0]?.passwordHash, `${userId}: newest history entry is the password`).toBe(
        user.passwordHash,
      );
      expect(await verifySecret(user.passwordHash, current)).toBe(true);
      passwords.set(userId, current);
      expect(history.length).toBe(Math.min(4, 1 + state.changed + (current === state.old ? 0 : 1)));
      // The lost answer did not count as a failed attempt that sticks.
      expect(user.status).toBe('Active');
    }
  }, 60_000);

  it('SIGTERM drains the requests in flight, refuses new connections, and exits 0', async () => {
    // Sign-ins are slow (argon2): a dozen of them are in flight when the signal arrives.
    let answered = 0;
    const clients = [...KILL_USERS, ...KILL_USERS].map((userId) => ({
      userId,
      client: new HttpClient(server.baseUrl),
    }));
    for (const { client } of clients) await client.get('/sdportal/rest/csrf');
    const arrived = () =>
      server.output.match(/"url":"\/heracles\/login"[^\n]*"msg":"incoming request"/g)?.length ?? 0;
    const before = arrived();
    const inFlight = clients.map(async ({ userId, client }) => {
      const res = await client.login(userId, passwords.get(userId) ?? '');
      answered++;
      return res;
    });
    // Every sign-in has reached the server; none is answered yet (argon2 takes its time).
    const deadline = Date.now() + 10_000;
    while (arrived() < before + clients.length && Date.now() < deadline) await sleep(5);
    const exiting = server.kill('SIGTERM', 20_000);
    while (!server.output.includes('shutting down: draining requests')) await sleep(2);
    // From the moment the server drains: a new request is turned away (503 while the listener closes,
    // then the connection is refused) — while the sign-ins already in flight are still being answered.
    const probes: string[] = [];
    while (probes.at(-1) !== 'ECONNREFUSED' && probes.length < 200) {
      probes.push(
        await request(server.baseUrl, 'GET', '/healthz', { timeoutMs: 2000 }).then(
          (r) => `answered ${r.status}`,
          (e: NodeJS.ErrnoException) => e.code ?? e.message,
        ),
      );
    }
    expect(answered, 'requests still in flight while new connections are refused').toBeLessThan(
      clients.length,
    );
    expect(probes.at(-1)).toBe('ECONNREFUSED');
    // A connection caught by the closing listener may be reset rather than refused: both turn it away.
    expect(probes.filter((p) => !['ECONNREFUSED', 'ECONNRESET', 'answered 503'].includes(p))).toEqual([]);
    const answers = await Promise.all(inFlight);
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toBe('/app/');
    }
    expect(await exiting).toEqual({ code: 0, signal: null });
  }, 40_000);
});
