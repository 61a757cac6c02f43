/**
 * Scale (issue 6): with 1,000,000 users and 200,000 live sessions in PostgreSQL, sign-in and session-check
 * latency stay within 1.2× of the 1,000-user figure; which indexes make it so; how session cleanup keeps
 * the sessions table bounded.
 *
 * Method: a fresh database; the production server starts once on it (migrations, demo data) and stops;
 * a second database is copied from it (CREATE DATABASE … TEMPLATE). The tables are filled with SQL
 * (generate_series): the small database to 1,000 users and as many live sessions per user as the large
 * one, the large database to 1,000,000 users and 200,000 live sessions. Then a production server runs on
 * each, is warmed up, and the two are measured INTERLEAVED — one sign-in (or session check) on the small,
 * one on the large, alternating which goes first — so that the load of other runs on this shared machine
 * falls on both sizes alike (measured one after the other, the drift of that load alone can exceed the
 * 1.2× budget). Latency, not throughput: one request at a time.
 *
 * Each lookup the server makes is EXPLAINed at both sizes (plan node types in the figures): users by
 * user_id (users_user_id_key) and by id (users_pkey), sessions by id_hash (sessions_pkey) and by user_pk
 * (sessions_user_idx, signing out other sessions). The purge deletes `expires_at < now() OR created_at <
 * now() - 12 h`: with both columns indexed (sessions_expires_idx, sessions_created_idx) it is a BitmapOr
 * of two index scans instead of a scan of the whole table every minute. The purge is timed with nothing
 * expired and with a backlog of 50,000 expired sessions, with the table's size before, after, after
 * VACUUM and after new sessions refill the freed space.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  type Budget,
  DEMO_PASSWORD,
  type Effort,
  POSTGRES_ADMIN_URL,
  percentile,
  type RunningServer,
  type Section,
  startServer,
} from './lib.ts';

interface Plan {
  /** Users at the large size (the small size is always 1,000). */
  users: number;
  /** Live sessions at the large size; the small size keeps the same sessions per user. */
  sessions: number;
  /** Complete sign-ins measured at each size. */
  signins: number;
  /** Session checks measured at each size. */
  checks: number;
}

const PLANS: Record<Effort, Plan> = {
  smoke: { users: 20_000, sessions: 4_000, signins: 10, checks: 50 },
  quick: { users: 1_000_000, sessions: 200_000, signins: 60, checks: 500 },
  full: { users: 1_000_000, sessions: 200_000, signins: 200, checks: 2_000 },
};
const SMALL_USERS = 1_000;
const BUDGET_RATIO = 1.2;
/** Sessions made expired (of the large size's live ones) for the purge measurement; at most a quarter. */
const EXPIRED_SESSIONS = 50_000;
/** The session lifetime the server enforces (sessions.ts SESSION_MAX_AGE_MS), seconds. */
const SESSION_MAX_AGE_S = 12 * 60 * 60;
/**
 * The bench server's idle timeout: SESSION_WARNING_MS + the 80 s countdown. Longer than the default 5
 * minutes so that the filled sessions stay live for the whole run (and the server's purge timer, every
 * minute, leaves them alone); their expires_at is last_seen_at + this, as the server writes it.
 */
const SESSION_WARNING_MS = 1_800_000;
const IDLE_S = SESSION_WARNING_MS / 1000 + 80;

/** The server's lookups, as drizzle sends them (apps/server/src: users.ts, login/service.ts, sessions.ts). */
const LOOKUPS = {
  userByUserId: (userId: string) => `select * from users where user_id = ${lit(userId)} limit 1`,
  descriptor: (userId: string) =>
    `select coalesce(u.ldap_id, 'x') as "ldapId", coalesce(u.login_type, 'pwd') as "loginType",
       coalesce(u.b2b_alias, 'x') as "b2BAlias" from (select 1) as one left join users u on u.user_id = ${lit(userId)}`,
  userByPk: (pk: number) => `select * from users where id = ${pk} limit 1`,
  sessionById: (idHash: string) =>
    `select * from sessions where id_hash = ${lit(idHash)} and expires_at > now()
       and created_at > now() - make_interval(secs => ${SESSION_MAX_AGE_S}) limit 1`,
  sessionTouch: (idHash: string) =>
    `update sessions set last_seen_at = now(), expires_at = now() + interval '${IDLE_S} seconds' where id_hash = ${lit(idHash)}`,
  signOutOthers: (pk: number, idHash: string) =>
    `delete from sessions where user_pk = ${pk} and id_hash <> ${lit(idHash)}`,
  purge: () => PURGE_SQL,
} as const;
const PURGE_SQL = `delete from sessions where (expires_at < now() or created_at < now() - make_interval(secs => ${SESSION_MAX_AGE_S})) returning id_hash`;

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const ms = (x: number) => Math.round(x * 100) / 100;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const value = await fn();
  return [value, performance.now() - t];
}

function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
}

class Jar {
  cookies = new Map<string, string>();
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair?.indexOf('=') ?? -1;
      if (pair && i > 0) this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
}

/** One complete password sign-in; the descriptor call (one indexed lookup) and the login timed apart. */
async function signIn(base: string, userId: string) {
  const t0 = performance.now();
  const jar = new Jar();
  const headers = (type: string) => ({
    cookie: jar.header(),
    'content-type': type,
    'x-requested-with': 'XMLHttpRequest',
    'x-csrf-token': jar.cookies.get('sec-token') ?? '',
    'x-xsrf-token': jar.cookies.get('sec-token') ?? '',
  });
  const csrf = await fetch(`${base}/sdportal/rest/csrf`);
  jar.take(csrf);
  await csrf.arrayBuffer();
  const t1 = performance.now();
  const d = await fetch(`${base}/sdportal/rest/user/loginSignin`, {
    method: 'POST',
    headers: headers('application/json'),
    body: JSON.stringify({ userId }),
  });
  const descriptor = (await d.json()) as { loginType?: string };
  const t2 = performance.now();
  const res = await fetch(`${base}/heracles/login`, {
    method: 'POST',
    headers: headers('application/x-www-form-urlencoded'),
    body: new URLSearchParams({ username: userId, password: DEMO_PASSWORD, 'login-form-type': 'password' }),
  });
  const body = await res.text();
  const t3 = performance.now();
  return {
    ok: d.ok && descriptor.loginType === 'pwd' && body === '/app/',
    total: t3 - t0,
    descriptor: t2 - t1,
    login: t3 - t2,
  };
}

/** One session check: the application's /app/api/me with a live full session. */
async function checkSession(base: string, id: string): Promise<[boolean, number]> {
  const t = performance.now();
  const res = await fetch(`${base}/app/api/me`, { headers: { cookie: `cpsid=${id}` } });
  await res.arrayBuffer();
  return [res.status === 200, performance.now() - t];
}

const stats = (xs: number[]) => ({ p50: ms(percentile(xs, 50)), p95: ms(percentile(xs, 95)), n: xs.length });

interface Probe {
  /** Distinct bench users able to sign in with a password (Active, pwd). */
  users: string[];
  /** Raw ids of live full sessions (see SessionPicker). */
  sessions: string[];
}

/**
 * Hands out sessions to check so that each check is of a session the server has not seen for more than
 * 15 s: each does the lookup, the touch (UPDATE last_seen_at/expires_at) and the user lookup — what
 * random picks among 200,000 sessions do. Each session is used once per round; before a round their
 * last_seen_at is set back a minute (untimed). The large size has a distinct session for every check;
 * the small one (about 180 full sessions) goes round several times — the same mix at both sizes.
 */
class SessionPicker {
  private round: string[] = [];
  private used = 0;
  constructor(
    private readonly db: pg.Client,
    private readonly ids: string[],
    private readonly roundSize: number,
  ) {}

  async next(): Promise<string> {
    if (this.round.length === 0) {
      let ids = this.ids.slice(this.used, this.used + this.roundSize);
      if (ids.length < this.roundSize) ids = this.ids.slice(0, this.roundSize);
      this.used += ids.length;
      await this.db.query(
        `update sessions set last_seen_at = now() - interval '1 minute'
           where id_hash = any(select encode(sha256(convert_to(x, 'UTF8')), 'hex') from unnest($1::text[]) x)`,
        [ids],
      );
      this.round = shuffle([...ids]);
    }
    return this.round.pop() as string;
  }
}

interface Side {
  label: 'small' | 'large';
  server: RunningServer;
  users: string[];
  picker: SessionPicker;
  signin: number[];
  descriptor: number[];
  login: number[];
  checks: number[];
  failures: number;
}

/** Interleaved: each step measures one on each side, the side going first alternating. */
async function interleave(
  sides: [Side, Side],
  steps: number,
  task: (side: Side, step: number) => Promise<void>,
) {
  for (let step = 0; step < steps; step++) {
    for (const side of step % 2 === 0 ? sides : [sides[1], sides[0]]) await task(side, step);
  }
}

async function measure(sides: [Side, Side], signins: number, checks: number, record: boolean) {
  await interleave(sides, signins, async (side) => {
    const user = side.users.shift();
    if (!user) throw new Error('out of bench users to sign in');
    const r = await signIn(side.server.base, user);
    if (!r.ok) side.failures++;
    if (!record) return;
    side.signin.push(r.total);
    side.descriptor.push(r.descriptor);
    side.login.push(r.login);
  });
  await interleave(sides, checks, async (side) => {
    const [ok, t] = await checkSession(side.server.base, await side.picker.next());
    if (!ok) side.failures++;
    if (record) side.checks.push(t);
  });
}

/** The plan node types of a statement (EXPLAIN, not ANALYZE), e.g. "Limit > Index Scan using users_user_id_key". */
async function planOf(db: pg.Client, statement: string) {
  const { rows } = await db.query(`explain (format json) ${statement}`);
  const nodes: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    const index = node['Index Name'] ? ` using ${node['Index Name']}` : '';
    const relation = !index && node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
    nodes.push(`${node['Node Type']}${index}${relation}`);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]?.Plan ?? {});
  const seq = nodes.some((n) => n.startsWith('Seq Scan on users') || n.startsWith('Seq Scan on sessions'));
  return { nodes: nodes.join(' > '), index: !seq && nodes.some((n) => /Index (Only )?Scan/.test(n)) };
}

async function plans(db: pg.Client) {
  const { rows } = await db.query(
    `select u.id, u.user_id, s.id_hash from sessions s join users u on u.id = s.user_pk
      where u.user_id like 'bench%' order by s.created_at desc limit 1`,
  );
  const {
    id,
    user_id: userId,
    id_hash: idHash,
  } = rows[0] as { id: number; user_id: string; id_hash: string };
  return {
    userByUserId: await planOf(db, LOOKUPS.userByUserId(userId)),
    descriptor: await planOf(db, LOOKUPS.descriptor(userId)),
    userByPk: await planOf(db, LOOKUPS.userByPk(id)),
    sessionById: await planOf(db, LOOKUPS.sessionById(idHash)),
    sessionTouch: await planOf(db, LOOKUPS.sessionTouch(idHash)),
    signOutOthers: await planOf(db, LOOKUPS.signOutOthers(id, idHash)),
    purge: await planOf(db, LOOKUPS.purge()),
  };
}

async function count(db: pg.Client, table: 'users' | 'sessions'): Promise<number> {
  const where = table === 'sessions' ? `where expires_at > now()` : '';
  const { rows } = await db.query(`select count(*)::int as n from ${table} ${where}`);
  return (rows[0] as { n: number }).n;
}

async function sizeOf(db: pg.Client, table: string): Promise<number> {
  const { rows } = await db.query(`select pg_total_relation_size($1)::bigint as n`, [table]);
  return Number((rows[0] as { n: string }).n);
}

/** Adds bench users (bench0000001, …) until the table holds `target` users. Realistic, varied rows. */
async function fillUsers(db: pg.Client, target: number, passwordHash: string): Promise<number> {
  const have = await count(db, 'users');
  const { rows } = await db.query(
    `select coalesce(max(substr(user_id, 6)::int), 0) as n from users where user_id ~ '^bench[0-9]{7}$'`,
  );
  const from = (rows[0] as { n: number }).n + 1;
  const to = from + Math.max(0, target - have) - 1;
  if (to < from) return 0;
  // Every bench user shares the demo password's argon2id hash (the product's parameters). Every 101st
  // is Inactive and every 211th locked by an administrator, every 20th signs in with an e-mailed code,
  // every 25th is a programme administrator, every 13th an SSO user; passwords were changed up to 80
  // days ago and expire 90 days after.
  await db.query(
    `with c as (select array_agg(name order by name) as names from cobrands),
          first as (select array['Ada','Ben','Carla','Dev','Elif','Femi','Gus','Hana','Ivo','Jia','Kofi','Lena','Mateo','Nora','Omar','Pia'] as a),
          last as (select array['Andersen','Brown','Costa','Dubois','Eriksen','Fischer','Garcia','Huang','Ito','Jansen','Kowalski','Lopez','Moreau','Nakamura','Okafor','Rossi'] as a)
     insert into users (user_id, display_user_id, ldap_id, b2b_alias, email, first_name, last_name, user_type,
                        status, login_type, sso, cobrand, locale, password_hash, password_changed_at,
                        password_expires_at, password_temporary, first_login, failed_attempts, locked_at,
                        lock_reason, last_login_at, created_at, updated_at)
     select 'bench' || lpad(g::text, 7, '0'),
            'Bench' || lpad(g::text, 7, '0'),
            'ldap-' || substr(md5('ldap' || g), 1, 9) || lpad(g::text, 7, '0'),
            'b2b-bench' || lpad(g::text, 7, '0'),
            lower(first.a[1 + g % 16]) || '.' || lower(last.a[1 + (g / 16) % 16]) || g || '@example.com',
            first.a[1 + g % 16],
            last.a[1 + (g / 16) % 16],
            case when g % 25 = 0 then 'C' else 'A' end,
            case when g % 101 = 0 then 'Inactive' when g % 211 = 0 then 'Locked' else 'Active' end,
            case when g % 20 = 0 then 'otp-2fa' else 'pwd' end,
            g % 13 = 0,
            c.names[1 + g % array_length(c.names, 1)],
            'en_US',
            $1::text,
            now() - make_interval(days => g % 80, secs => g % 86400),
            now() - make_interval(days => g % 80, secs => g % 86400) + interval '90 days',
            false,
            false,
            case when g % 17 = 0 then 1 else 0 end,
            case when g % 101 <> 0 and g % 211 = 0 then now() - make_interval(days => g % 30) end,
            case when g % 101 <> 0 and g % 211 = 0 then 'admin' end,
            case when g % 9 = 0 then null else now() - make_interval(days => g % 60, secs => g % 86400) end,
            now() - make_interval(days => 80 + g % 900),
            now() - make_interval(days => g % 60)
       from generate_series($2::int, $3::int) g, c, first, last`,
    [passwordHash, from, to],
  );
  return to - from + 1;
}

/**
 * Adds live sessions until the table holds `target`, as the server writes them (id_hash = SHA-256 hex
 * of a random 43-character base64url id; expires_at = last_seen_at + idle timeout), for random Active
 * users, in a realistic mix of stages; signed in up to 8 hours ago, last seen up to 2 minutes ago.
 * Keeps the raw ids of up to `keep` full sessions (random) for the session checks.
 */
async function fillSessions(db: pg.Client, target: number, keep: number): Promise<string[]> {
  const need = target - (await count(db, 'sessions'));
  if (need <= 0) return [];
  const { rows: max } = await db.query(`select max(id)::int as n from users`);
  const maxId = (max[0] as { n: number }).n;
  await db.query(`drop table if exists bench_sessions`);
  await db.query(
    `create temp table bench_sessions as
     select g.raw, encode(sha256(convert_to(g.raw, 'UTF8')), 'hex') as id_hash, u.id as user_pk,
            case when g.r < 0.92 then 'full' when g.r < 0.95 then 'change-password' when g.r < 0.98 then 'otp'
                 when g.r < 0.99 then 'new-pin' else 'next-token' end as stage,
            u.cobrand, u.locale, u.sso, g.seen, g.seen - g.age as created
       from (select translate(rtrim(encode(decode(replace(gen_random_uuid()::text, '-', '')
                      || replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '='), '+/', '-_') as raw,
                    1 + floor(random() * $1)::int as pk, random() as r,
                    now() - random() * interval '2 minutes' as seen, random() * interval '8 hours' as age
               from generate_series(1, $2::int)) g
       join users u on u.id = g.pk and u.status = 'Active'
      limit $3`,
    [maxId, Math.ceil(need * 1.1) + 100, need],
  );
  await db.query(
    `insert into sessions (id_hash, user_pk, stage, cobrand, locale, sso, data, created_at, last_seen_at, expires_at)
     select id_hash, user_pk, stage, cobrand, locale, sso,
            case when stage = 'new-pin' and random() < 0.5 then '{"passcodeVerified":true}'::jsonb else '{}'::jsonb end,
            created, seen, seen + make_interval(secs => $1)
       from bench_sessions`,
    [IDLE_S],
  );
  const { rows } = await db.query(
    `select b.raw from bench_sessions b join users u on u.id = b.user_pk
      where b.stage = 'full' and u.status = 'Active' order by random() limit $1`,
    [keep],
  );
  await db.query(`drop table bench_sessions`);
  return rows.map((r: { raw: string }) => r.raw);
}

async function probeUsers(db: pg.Client, n: number, since: Date): Promise<string[]> {
  const { rows } = await db.query(
    `select user_id from users
      where user_id like 'bench%' and status = 'Active' and login_type = 'pwd'
        and (last_login_at is null or last_login_at < $2)
      order by random() limit $1`,
    [n, since],
  );
  if (rows.length < n) throw new Error(`only ${rows.length} bench users to sign in, ${n} needed`);
  return rows.map((r: { user_id: string }) => r.user_id);
}

/** Expires a share of the live sessions and times the purge the server runs every minute. */
async function purgeBench(db: pg.Client, expire: number) {
  const steadyPlan = await planOf(db, LOOKUPS.purge());
  // The every-minute purge when nothing (or little) has expired: the common case.
  const [steady, steadyMs] = await timed(() => db.query(PURGE_SQL));
  const sessionsBefore = await count(db, 'sessions');
  // A backlog: `expire` sessions expired in the last 30 minutes, a tenth of them past the 12-hour lifetime.
  await db.query(
    `update sessions set expires_at = now() - random() * interval '30 minutes',
            created_at = case when random() < 0.1 then now() - interval '13 hours' else created_at end
      where id_hash in (select id_hash from sessions order by random() limit $1)`,
    [expire],
  );
  await db.query(`vacuum analyze sessions`);
  const backlogPlan = await planOf(db, LOOKUPS.purge());
  const sizeBefore = await sizeOf(db, 'sessions');
  const [deleted, purgeMs] = await timed(() => db.query(PURGE_SQL));
  const sizeAfterPurge = await sizeOf(db, 'sessions');
  // The space of deleted rows is reused once vacuumed (autovacuum in production; off on the test server).
  const [, vacuumMs] = await timed(() => db.query(`vacuum analyze sessions`));
  const sizeAfterVacuum = await sizeOf(db, 'sessions');
  await fillSessions(db, sessionsBefore, 0);
  const sizeAfterRefill = await sizeOf(db, 'sessions');
  return {
    steadyPlan: steadyPlan.nodes,
    steadyMs: ms(steadyMs),
    steadyDeleted: steady.rowCount ?? 0,
    backlogPlan: backlogPlan.nodes,
    expired: expire,
    deleted: deleted.rowCount ?? 0,
    purgeMs: ms(purgeMs),
    vacuumMs: ms(vacuumMs),
    liveBefore: sessionsBefore,
    sizeMb: {
      beforePurge: mb(sizeBefore),
      afterPurge: mb(sizeAfterPurge),
      afterVacuum: mb(sizeAfterVacuum),
      afterRefillTo: mb(sizeAfterRefill),
    },
  };
}

async function indexes(db: pg.Client) {
  const { rows } = await db.query(
    `select tablename, indexdef from pg_indexes where tablename in ('users', 'sessions') order by tablename, indexname`,
  );
  const out: Record<string, string[]> = { users: [], sessions: [] };
  for (const r of rows as { tablename: string; indexdef: string }[]) {
    out[r.tablename]?.push(r.indexdef.replace(/^CREATE (UNIQUE )?INDEX /, (m) => m.slice(7)));
  }
  return out;
}

interface Prepared {
  db: pg.Client;
  url: string;
  users: number;
  sessions: number;
  probe: Probe;
  fill: { usersMs: number; sessionsMs: number; vacuumMs: number };
}

/** Fills one database to its size and picks the users and sessions to measure with. */
async function prepare(
  url: string,
  users: number,
  sessions: number,
  probe: { signins: number; checks: number },
  since: Date,
): Promise<Prepared> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const { rows } = await db.query(`select password_hash from users where user_id = 'active01'`);
  const passwordHash = (rows[0] as { password_hash: string } | undefined)?.password_hash;
  if (!passwordHash) throw new Error('demo user active01 missing: did the demo data load?');
  const [, usersMs] = await timed(() => fillUsers(db, users, passwordHash));
  const [ids, sessionsMs] = await timed(() => fillSessions(db, sessions, probe.checks));
  // A production database is vacuumed and analysed (autovacuum, off on the test server): the fill
  // leaves neither visibility map nor statistics.
  const [, vacuumMs] = await timed(() => db.query(`vacuum analyze users, sessions`));
  return {
    db,
    url,
    users: await count(db, 'users'),
    sessions: await count(db, 'sessions'),
    probe: { users: await probeUsers(db, probe.signins, since), sessions: ids },
    fill: {
      usersMs: Math.round(usersMs),
      sessionsMs: Math.round(sessionsMs),
      vacuumMs: Math.round(vacuumMs),
    },
  };
}

export async function scaleBench(effort: Effort): Promise<Section> {
  const plan = PLANS[effort];
  const smallSessions = Math.round((plan.sessions * SMALL_USERS) / plan.users);
  const prefix = `cp_bench_scale_${randomBytes(4).toString('hex')}`;
  const names = { small: `${prefix}_small`, large: `${prefix}_large` };
  const urlOf = (name: string) => {
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return url.toString();
  };
  // One card key ring for every instance: the demo's numbers are sealed under it (docs/card-data.md).
  const cardKey = randomBytes(32).toString('base64');
  const env = {
    SESSION_WARNING_MS: String(SESSION_WARNING_MS),
    CARD_DATA_KEYS: `bench:${cardKey}`,
    CARD_HASH_KEY: randomBytes(32).toString('base64'),
  };
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  const servers: RunningServer[] = [];
  const clients: pg.Client[] = [];
  const started = new Date();
  const warmup = effort === 'smoke' ? { signins: 2, checks: 10 } : { signins: 5, checks: 100 };
  const perSize = { signins: warmup.signins + plan.signins, checks: warmup.checks + plan.checks };
  try {
    await admin.query(`create database ${names.small}`);
    const first = await startServer({ ...env, DATABASE_URL: urlOf(names.small), DEMO: '1' });
    await first.stop();
    await admin.query(`create database ${names.large} template ${names.small}`);
    const small = await prepare(urlOf(names.small), SMALL_USERS, smallSessions, perSize, started);
    clients.push(small.db);
    const large = await prepare(urlOf(names.large), plan.users, plan.sessions, perSize, started);
    clients.push(large.db);

    for (const p of [small, large])
      servers.push(await startServer({ ...env, DATABASE_URL: p.url, DEMO: '0' }));
    const sides = [small, large].map(
      (p, i): Side => ({
        label: i === 0 ? 'small' : 'large',
        server: servers[i] as RunningServer,
        users: p.probe.users,
        // The small size goes round its ~180 full sessions; the large one has a distinct session per check.
        picker: new SessionPicker(p.db, p.probe.sessions, i === 0 ? p.probe.sessions.length : warmup.checks),
        signin: [],
        descriptor: [],
        login: [],
        checks: [],
        failures: 0,
      }),
    ) as [Side, Side];
    // Warm-up (connections, JIT, caches), then the measured series.
    await measure(sides, warmup.signins, warmup.checks, false);
    await measure(sides, plan.signins, plan.checks, true);
    for (const server of servers.splice(0)) await server.stop();

    const result = async (p: Prepared, side: Side) => ({
      users: p.users,
      sessions: p.sessions,
      signin: stats(side.signin),
      descriptor: stats(side.descriptor),
      login: stats(side.login),
      sessionCheck: stats(side.checks),
      failures: side.failures,
      plans: await plans(p.db),
      tableMb: { users: mb(await sizeOf(p.db, 'users')), sessions: mb(await sizeOf(p.db, 'sessions')) },
      fill: p.fill,
    });
    const s = await result(small, sides[0]);
    const l = await result(large, sides[1]);
    // How steady the comparison was: the p50 ratio in each half of the interleaved series.
    const halves = (key: 'signin' | 'checks') =>
      [0, 1].map((h) => {
        const half = (xs: number[]) => xs.slice((h * xs.length) / 2, ((h + 1) * xs.length) / 2);
        const p50 = (xs: number[]) => percentile(half(xs), 50);
        return Math.round((p50(sides[1][key]) / p50(sides[0][key])) * 100) / 100;
      });
    const purge = await purgeBench(large.db, Math.min(EXPIRED_SESSIONS, Math.floor(plan.sessions / 4)));
    const idx = await indexes(large.db);

    const ratio = (key: 'signin' | 'descriptor' | 'login' | 'sessionCheck') =>
      Math.round((l[key].p50 / s[key].p50) * 100) / 100;
    const ratios = {
      signin: ratio('signin'),
      descriptor: ratio('descriptor'),
      login: ratio('login'),
      sessionCheck: ratio('sessionCheck'),
      signinHalves: halves('signin'),
      sessionCheckHalves: halves('checks'),
    };
    const largeLabel = `${plan.users >= 1_000_000 ? `${plan.users / 1_000_000}M` : `${plan.users / 1000}k`} users`;
    const failures = s.failures + l.failures;
    const budgets: Budget[] = [
      {
        name: `sign-in latency at ${largeLabel} ≤ ${BUDGET_RATIO} × at 1k`,
        ok: ratios.signin <= BUDGET_RATIO && failures === 0,
        detail:
          `p50 ${l.signin.p50} ms vs ${s.signin.p50} ms (×${ratios.signin}, halves ×${ratios.signinHalves.join(', ×')}); ` +
          `p95 ${l.signin.p95} vs ${s.signin.p95} ms; database part (loginSignin) ×${ratios.descriptor}` +
          (failures ? `; ${failures} failed requests` : ''),
      },
      {
        name: `session check at ${largeLabel} + ${plan.sessions / 1000}k sessions ≤ ${BUDGET_RATIO} × at 1k`,
        ok: ratios.sessionCheck <= BUDGET_RATIO && failures === 0,
        detail:
          `p50 ${l.sessionCheck.p50} ms vs ${s.sessionCheck.p50} ms (×${ratios.sessionCheck}, halves ×${ratios.sessionCheckHalves.join(', ×')}); ` +
          `p95 ${l.sessionCheck.p95} vs ${s.sessionCheck.p95} ms` +
          (failures ? `; ${failures} failed requests` : ''),
      },
    ];
    const row = (label: string, key: 'signin' | 'descriptor' | 'login' | 'sessionCheck') =>
      `${label.padEnd(30)}${`${s[key].p50} / ${s[key].p95}`.padEnd(20)}` +
      `${`${l[key].p50} / ${l[key].p95}`.padEnd(20)}×${ratios[key]}`;
    const table = [
      `${'scale (p50 / p95 ms)'.padEnd(30)}${`${s.users.toLocaleString('en')} users`.padEnd(20)}${`${l.users.toLocaleString('en')} users`.padEnd(20)}ratio of p50`,
      `${'  live sessions'.padEnd(30)}${s.sessions.toLocaleString('en').padEnd(20)}${l.sessions.toLocaleString('en')}`,
      row('  sign-in (complete)', 'signin'),
      row('  loginSignin (db lookup)', 'descriptor'),
      row('  heracles/login (argon2id)', 'login'),
      row('  session check /app/api/me', 'sessionCheck'),
      `  fill to ${largeLabel}: users ${(l.fill.usersMs / 1000).toFixed(1)} s, sessions ${(l.fill.sessionsMs / 1000).toFixed(1)} s, vacuum ${(l.fill.vacuumMs / 1000).toFixed(1)} s; tables users ${l.tableMb.users} MB, sessions ${l.tableMb.sessions} MB`,
      `  plans at ${largeLabel}: ${Object.entries(l.plans)
        .map(([k, p]) => `${k} ${p.index ? 'index' : 'SEQ'}`)
        .join(', ')}`,
      `  purge, nothing expired: ${purge.steadyMs} ms (${purge.steadyPlan})`,
      `  purge of ${purge.expired.toLocaleString('en')} expired: ${purge.deleted.toLocaleString('en')} rows in ${purge.purgeMs} ms; ` +
        `sessions ${purge.sizeMb.beforePurge} MB → ${purge.sizeMb.afterPurge} MB → vacuum ${purge.sizeMb.afterVacuum} MB → refilled ${purge.sizeMb.afterRefillTo} MB`,
    ];
    return {
      name: 'scale',
      figures: {
        effort,
        database: 'postgresql',
        method:
          'one request at a time; small and large measured interleaved (two databases, two servers); ' +
          'every session check touches its session (last seen > 15 s ago)',
        small: s,
        large: l,
        ratios,
        indexes: idx,
        purge,
      },
      table,
      budgets,
    };
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    for (const client of clients) await client.end().catch(() => {});
    for (const name of Object.values(names)) {
      await admin.query(`drop database if exists ${name} with (force)`).catch((e: unknown) => {
        console.error(`could not drop ${name}: ${String(e)}`);
      });
    }
    await admin.end();
  }
}
