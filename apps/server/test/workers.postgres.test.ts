import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/demo/load.ts';
import {
  createDatabase,
  type FreshDatabase,
  HttpClient,
  REDIS_URL,
  request,
  ServerInstance,
  sleep,
} from './support/instances.ts';

/**
 * WORKERS (issue 19 item 3, docs/operations.md "Workers"): the built server as several processes on one
 * port (node:cluster), sharing nothing but PostgreSQL and Redis. Connections reach every worker, a
 * session made on one works on all, a worker that dies is replaced while the others serve, and SIGTERM
 * drains them all.
 */
let db: FreshDatabase;
let server: ServerInstance;

/** The worker processes of the primary (Linux: /proc's children list). */
function workersOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
}

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms:\n${server.output.slice(-4000)}`);
    await sleep(100);
  }
}

/** The pids that logged an answer to a sign-in (pino's `pid` of each worker's access log line). */
function answeringPids(): Set<number> {
  const pids = new Set<number>();
  for (const line of server.output.split('\n')) {
    const json = line.slice(line.indexOf('{'));
    if (!json.startsWith('{') || !json.includes('request completed') || !json.includes('/heracles/login'))
      continue;
    pids.add((JSON.parse(json) as { pid: number }).pid);
  }
  return pids;
}

beforeAll(async () => {
  db = await createDatabase('cp_workers');
  server = await ServerInstance.start(
    { DATABASE_URL: db.url, REDIS_URL, WORKERS: '2', DEMO: '1', LOG_LEVEL: 'info' },
    { name: 'cluster', readyTimeoutMs: 240_000 },
  );
  await until(
    'two workers listening',
    () =>
      workersOf(server.pid ?? 0).length === 2 && (server.output.match(/worker listening/g) ?? []).length >= 2
        ? true
        : undefined,
    240_000,
  );
}, 300_000);
afterAll(async () => {
  await server?.dispose();
  await db?.drop();
});

describe('WORKERS: several processes on one port', () => {
  it('spreads connections over the workers, and a session made on one works on every other', async () => {
    const client = new HttpClient(server.baseUrl);
    for (let i = 0; i < 12; i += 1) {
      const res = await client.login('active01', DEMO_PASSWORD);
      expect(res.body).toBe('/app/');
    }
    const workers = workersOf(server.pid ?? 0);
    const answered = await until(
      'sign-ins answered by both workers',
      () => {
        const pids = answeringPids();
        return workers.every((pid) => pids.has(pid)) ? pids : undefined;
      },
      10_000,
    );
    expect([...answered].sort()).toEqual([...workers].sort());
    // Each request is a new connection: whichever worker takes it finds the session (PostgreSQL, Redis).
    for (let i = 0; i < 20; i += 1) {
      const me = await client.get('/app/api/me');
      expect(me.status).toBe(200);
      expect(me.json()).toMatchObject({ userId: 'active01' });
    }
  });

  it('replaces a worker that dies while the other serves', async () => {
    const [victim] = workersOf(server.pid ?? 0);
    process.kill(victim ?? 0, 'SIGKILL');
    // A connection the primary handed to the worker as it died is lost with it (as with any crash); once
    // the primary has seen the death, the other worker answers while the replacement starts.
    await until('the death seen', () =>
      workersOf(server.pid ?? 0).includes(victim ?? 0) ? undefined : true,
    );
    const readyz = () =>
      request(server.baseUrl, 'GET', '/readyz', { timeoutMs: 5_000 }).then(
        (res) => (res.status === 200 ? true : undefined),
        () => undefined,
      );
    await until('an answer from the other worker', readyz, 30_000);
    const replaced = await until('a new worker', () => {
      const now = workersOf(server.pid ?? 0);
      return now.length === 2 && !now.includes(victim ?? 0) ? now : undefined;
    });
    expect(replaced).toHaveLength(2);
    expect(server.output).toMatch(/a worker exited; starting another/);
    for (let i = 0; i < 6; i += 1) expect((await request(server.baseUrl, 'GET', '/readyz')).status).toBe(200);
  });

  it('drains every worker on SIGTERM and exits 0', async () => {
    const workers = workersOf(server.pid ?? 0);
    const exit = await server.kill('SIGTERM', 40_000);
    expect(exit).toEqual({ code: 0, signal: null });
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});
