/**
 * Shared pieces of the benchmarks: the section contract every benchmark module returns, starting the
 * production build as a child process, and small statistics helpers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const DEMO_PASSWORD = 'Cardportal#2026';
export const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** How hard to run: `smoke` is the tiny version `npm test` runs, `quick` the 2-second levels. */
export type Effort = 'smoke' | 'quick' | 'full';

/** A budget of issue 6: met or missed, with the figure that decided it. */
export interface Budget {
  name: string;
  ok: boolean;
  detail: string;
}

/** What each benchmark module returns: figures for latest.json, lines for the table, its budgets. */
export interface Section {
  name: string;
  figures: Record<string, unknown>;
  table: string[];
  budgets: Budget[];
}

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The Node flags `npm start` runs the server with (root package.json), so the benchmarks measure the
 * product as it is started; `BENCH_NODE_ARGS` adds more (e.g. `--cpu-prof`).
 */
export function serverNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const flags = /\bnode ((?:--\S+ )*)apps\/server\/dist\/server\.js/.exec(pkg.scripts.start)?.[1] ?? '';
  return [...flags.split(' '), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ')].filter(Boolean);
}

export interface RunningServer {
  base: string;
  pid: number;
  dataDir: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts the production build (`apps/server/dist/server.js`) on loopback. Embedded database in a fresh
 * data directory unless `env.DATABASE_URL` is given. Rate limits off (one loopback address drives
 * the load), logging at warn.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-bench-'));
  const port = await freePort();
  const fullEnv: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'info',
    DEMO: '1',
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
    ...env,
  };
  const server: ChildProcess = spawn(
    process.execPath,
    [...serverNodeFlags(), path.join(root, 'apps/server/dist/server.js')],
    {
      env: { ...process.env, ...fullEnv },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error('server did not become ready in 180 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    pid: server.pid ?? 0,
    dataDir,
    env: fullEnv,
    async stop() {
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
