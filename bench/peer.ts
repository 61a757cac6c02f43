/**
 * The sign-in benchmark's peer (issue 19): better-auth (bench/better-auth-server.ts) started beside the
 * product on the same PostgreSQL server (a database of its own), seeded with as many users as ours
 * sharing one argon2id hash of the same password, and driven like ours: each sign-in a fresh visitor
 * (no cookie) for the next distinct user, the browser's one call — `POST /api/auth/sign-in/email`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { hash } from '@node-rs/argon2';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  type Budget,
  DEMO_PASSWORD,
  type Effort,
  freePort,
  type RunningServer,
  root,
  rssMb,
  type Section,
} from './lib.ts';
import {
  addTicks,
  argonBound,
  type CpuPerSignIn,
  cpuPerSignIn,
  cpuTicks,
  noTicks,
  runOf,
  type SignInRun,
  signInLoad,
} from './throughput.ts';

const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface PeerServer {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts better-auth on loopback against `databaseUrl` (its tables are created by its migrations). */
export async function startPeer(databaseUrl: string): Promise<PeerServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'bench/better-auth-server.ts')], {
    env: { ...process.env, PEER_DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('better-auth did not start in 60 s')), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`better-auth exited with ${code}`));
    });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
  };
}

/** Adds `count` users (bench000001@example.com…) with a credential account holding one shared hash. */
export async function addPeerUsers(databaseUrl: string, count: number): Promise<string[]> {
  const encoded = await hash(DEMO_PASSWORD, ARGON2);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
       select 'u' || g, 'Bench User ' || g, 'bench' || lpad(g::text, 6, '0') || '@example.com', true, now(), now()
       from generate_series(1, $1::int) g on conflict do nothing`,
      [count],
    );
    await client.query(
      `insert into account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
       select 'a' || g, 'u' || g, 'credential', 'u' || g, $2, now(), now()
       from generate_series(1, $1::int) g on conflict do nothing`,
      [count, encoded],
    );
    // Now, not during a measured round (as for ours: addBenchUsers).
    await client.query('vacuum analyze "user"');
    await client.query('vacuum analyze account');
  } finally {
    await client.end();
  }
  return Array.from({ length: count }, (_, i) => `bench${String(i + 1).padStart(6, '0')}@example.com`);
}

/** Sign-ins through better-auth's e-mail and password endpoint, each for the next distinct user. */
export async function peerSignInLoad(
  base: string,
  emails: string[],
  connections: number,
  seconds: number,
): Promise<SignInRun> {
  let next = 0;
  const latencies: number[] = [];
  let failures = 0;
  type Ctx = { start: number };
  const url = new URL(base);
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    initialContext: {},
    requests: [
      {
        method: 'POST',
        path: '/api/auth/sign-in/email',
        setupRequest: (req, context) => {
          (context as unknown as Ctx).start = performance.now();
          return {
            ...req,
            headers: { host: url.host, origin: base, 'content-type': 'application/json' },
            body: JSON.stringify({ email: emails[next++ % emails.length], password: DEMO_PASSWORD }),
          };
        },
        onResponse: (status, body, context, headers) => {
          const cookies = Array.isArray(headers) ? headers.join('\n') : JSON.stringify(headers ?? {});
          if (status === 200 && body.includes('"token"') && cookies.includes('session_token'))
            latencies.push(performance.now() - (context as unknown as Ctx).start);
          else failures++;
        },
      },
    ],
  });
  return runOf(connections, seconds, latencies, failures, result);
}

/** One side's rounds at one connection level, summed. */
interface SideTotals {
  signIns: number;
  seconds: number;
  failures: number;
  requestErrors: number;
  perSecond: number;
  p50s: number[];
  /** CPU ms per sign-in over all its rounds. */
  cpu: CpuPerSignIn;
}

const emptyTotals = (): SideTotals & {
  ticks: { main: number; threads: number; database: number; self: number };
} => ({
  signIns: 0,
  seconds: 0,
  failures: 0,
  requestErrors: 0,
  perSecond: 0,
  p50s: [],
  cpu: { serverMain: 0, serverThreads: 0, database: 0, loadGenerator: 0, total: 0 },
  ticks: noTicks(),
});

/**
 * Ours against better-auth on the same PostgreSQL server (issue 19): both seeded with the same number of
 * users, driven in alternating rounds — ours, the peer, ours, the peer… — at 8 and 32 connections, so a
 * change in the machine's speed falls on both. Each side's sign-ins a second and CPU per sign-in (server
 * main threads, its other threads, PostgreSQL, the load generator) over all its rounds; the argon2id
 * bound measured before and after the rounds, their mean judging ours. Budgets: ours ≥ 1.3 × the peer's
 * sign-ins/s at both levels; ours ≥ 80 % of the bound; our CPU beside the hash on the server side (main
 * thread and PostgreSQL) ≤ 2.0 ms a sign-in.
 */
export async function peerBench(
  server: RunningServer,
  users: string[],
  peerDatabaseUrl: string,
  effort: Effort,
  boundBefore: { perSecond: number; inFlight: number },
): Promise<Section> {
  const seconds = effort === 'full' ? 10 : effort === 'quick' ? 3 : 1;
  const rounds = effort === 'full' ? 3 : 1;
  const levels = effort === 'smoke' ? [2] : [8, 32];
  const peer = await startPeer(peerDatabaseUrl);
  const peerIdle = rssMb(peer.pid);
  const emails = await addPeerUsers(peerDatabaseUrl, users.length);
  const results: { connections: number; ours: SideTotals; peer: SideTotals; ratio: number }[] = [];
  let boundAfter = boundBefore;
  try {
    // Warm-up: JIT, pools, prepared statements, both sides.
    await signInLoad(server.base, users, 4, 1);
    await peerSignInLoad(peer.base, emails, 4, 1);
    for (const connections of levels) {
      const sides = { ours: emptyTotals(), peer: emptyTotals() };
      for (let round = 0; round < rounds; round++) {
        for (const side of ['ours', 'peer'] as const) {
          const pid = side === 'ours' ? server.pid : peer.pid;
          const before = cpuTicks(pid);
          const run =
            side === 'ours'
              ? await signInLoad(server.base, users, connections, seconds)
              : await peerSignInLoad(peer.base, emails, connections, seconds);
          const t = sides[side];
          addTicks(t.ticks, before, cpuTicks(pid));
          t.signIns += run.signIns;
          t.seconds += seconds;
          t.failures += run.failures;
          t.requestErrors += run.requestErrors;
          t.p50s.push(run.p50);
        }
      }
      const total = (t: ReturnType<typeof emptyTotals>): SideTotals => {
        const { ticks, ...rest } = t;
        return { ...rest, perSecond: t.signIns / t.seconds, cpu: cpuPerSignIn(ticks, t.signIns) };
      };
      const ours = total(sides.ours);
      const theirs = total(sides.peer);
      results.push({
        connections,
        ours,
        peer: theirs,
        ratio: theirs.perSecond ? ours.perSecond / theirs.perSecond : 0,
      });
    }
    boundAfter = await argonBound(effort);
  } finally {
    await peer.stop();
  }
  const bound = (boundBefore.perSecond + boundAfter.perSecond) / 2;
  const best = results.reduce((a, b) => (b.ours.perSecond > a.ours.perSecond ? b : a));
  const beside = (r: SideTotals) => r.cpu.serverMain + r.cpu.database;
  const cores = availableParallelism();
  const budgets: Budget[] = [
    ...results.map((r) => ({
      name: `full browser sign-in ≥ 1.3 × better-auth's sign-ins/s at ${r.connections} connections`,
      ok: r.ratio >= 1.3,
      detail: `${r.ratio.toFixed(2)} × (${r.ours.perSecond.toFixed(1)} vs ${r.peer.perSecond.toFixed(1)}/s)`,
    })),
    {
      name: 'CPU beside the hash ≤ 2.0 ms a sign-in, server side (main thread + PostgreSQL)',
      ok: beside(best.ours) <= 2.0,
      detail: `${beside(best.ours).toFixed(2)} ms (main ${best.ours.cpu.serverMain.toFixed(2)} + PostgreSQL ${best.ours.cpu.database.toFixed(2)}) at ${best.connections} connections; better-auth ${beside(best.peer).toFixed(2)} ms`,
    },
    {
      name: 'sign-ins ≥ 80 % of the argon2id bound (PostgreSQL, same run)',
      ok: best.ours.perSecond >= 0.8 * bound,
      detail: `${((100 * best.ours.perSecond) / bound).toFixed(0)} % (${best.ours.perSecond.toFixed(1)} of ${bound.toFixed(1)}/s, bound ${boundBefore.perSecond.toFixed(1)} before and ${boundAfter.perSecond.toFixed(1)} after the rounds); better-auth ${((100 * best.peer.perSecond) / bound).toFixed(0)} %`,
    },
    {
      name: 'no failed sign-in (ours and better-auth)',
      ok: results.every(
        (r) => !r.ours.failures && !r.ours.requestErrors && !r.peer.failures && !r.peer.requestErrors,
      ),
      detail: results
        .map(
          (r) =>
            `x${r.connections}: ${r.ours.failures}/${r.ours.requestErrors} and ${r.peer.failures}/${r.peer.requestErrors}`,
        )
        .join('; '),
    },
  ];
  const hashMs = (cores * 1000) / bound;
  const cpuLine = (name: string, r: SideTotals) =>
    `${name.padEnd(12)} CPU per sign-in: main ${r.cpu.serverMain.toFixed(2)}, threads ${r.cpu.serverThreads.toFixed(2)}, PostgreSQL ${r.cpu.database.toFixed(2)}, load generator ${r.cpu.loadGenerator.toFixed(2)} = ${r.cpu.total.toFixed(2)} ms`;
  return {
    name: 'signin-peer',
    figures: {
      peer: 'better-auth (bench/better-auth-server.ts)',
      rounds,
      seconds,
      bound: { before: boundBefore, after: boundAfter, mean: bound },
      verificationCpuMs: hashMs,
      peerIdleMb: peerIdle,
      levels: results,
    },
    table: [
      `argon2id bound ${boundBefore.perSecond.toFixed(1)} before, ${boundAfter.perSecond.toFixed(1)} after the rounds (one verification = ${hashMs.toFixed(2)} ms CPU); ${rounds} alternating round(s) of ${seconds} s a side and level`,
      ...results.flatMap((r) => [
        `x${String(r.connections).padEnd(3)} ours ${r.ours.perSecond.toFixed(1)}/s, better-auth ${r.peer.perSecond.toFixed(1)}/s: ${r.ratio.toFixed(2)} ×  (p50 ${Math.max(...r.ours.p50s).toFixed(0)} / ${Math.max(...r.peer.p50s).toFixed(0)} ms)`,
        `     ${cpuLine('ours', r.ours)}`,
        `     ${cpuLine('better-auth', r.peer)}`,
      ]),
    ],
    budgets,
  };
}
