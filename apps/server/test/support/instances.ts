import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The built server (apps/server/dist/server.js) as a child process — exactly what `npm start` runs —
 * so a test can kill it with a real signal, restart it, or run several of it side by side.
 */

export const root = path.resolve(import.meta.dirname, '../../../..');
export const SERVER_JS = path.join(root, 'apps/server/dist/server.js');
export const CLI_JS = path.join(root, 'apps/server/dist/cli.js');
export const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = 'redis://127.0.0.1:6379';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A fresh database on the CI PostgreSQL, dropped by `drop()`. */
export interface FreshDatabase {
  name: string;
  /** URL of the database on the real server (5432). */
  url: string;
  /** The same database through another port (a TcpProxy in front of 5432). */
  urlVia(port: number): string;
  drop(): Promise<void>;
}

export async function createDatabase(prefix = 'cp_fault'): Promise<FreshDatabase> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL at ${POSTGRES_ADMIN_URL} is unreachable: ${(error as Error).message}`);
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    urlVia: (port) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One server process on its own port. `restart()` starts it again on the same port and environment. */
export class ServerInstance {
  private child: ChildProcess | undefined;
  private exitPromise: Promise<Exit> | undefined;
  /** Everything the process wrote (stdout and stderr), across restarts. */
  output = '';
  readonly dataDir: string;

  private constructor(
    readonly port: number,
    readonly env: Record<string, string>,
    readonly name: string,
  ) {
    this.dataDir = mkdtempSync(path.join(tmpdir(), 'cp-inst-'));
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Spawns the built server and waits until /readyz answers 200. */
  static async start(
    env: Record<string, string>,
    options: { name?: string; port?: number; readyTimeoutMs?: number } = {},
  ): Promise<ServerInstance> {
    if (!existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: run npm run build first`);
    const instance = new ServerInstance(options.port ?? (await freePort()), env, options.name ?? 'server');
    try {
      await instance.spawn(options.readyTimeoutMs);
    } catch (error) {
      await instance.dispose();
      throw error;
    }
    return instance;
  }

  private async spawn(readyTimeoutMs = 60_000): Promise<void> {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      // One process unless a test asks for workers (docs/operations.md "Workers"): a signal reaches it.
      WORKERS: '1',
      ...this.env,
      PORT: String(this.port),
    };
    const child = spawn(process.execPath, [SERVER_JS], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const tag = `[${this.name} ${child.pid}] `;
    const keep = (chunk: Buffer) => {
      this.output += chunk
        .toString()
        .split('\n')
        .map((l) => (l ? tag + l : l))
        .join('\n');
      if (this.output.length > 2_000_000) this.output = this.output.slice(-1_000_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exitPromise = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (!this.running) {
        throw new Error(`${this.name} exited during start-up (${child.exitCode}):\n${this.output}`);
      }
      const res = await request(this.baseUrl, 'GET', '/readyz', { timeoutMs: 2000 }).catch(() => undefined);
      if (res?.status === 200) return;
      if (Date.now() > deadline) {
        throw new Error(`${this.name} not ready within ${readyTimeoutMs} ms:\n${this.output}`);
      }
      await sleep(100);
    }
  }

  /** Resolves when the process has exited (at once if it already has). */
  exited(): Promise<Exit> {
    return this.exitPromise ?? Promise.resolve({ code: null, signal: null });
  }

  /** Sends a signal; resolves with the exit once the process is gone. */
  async kill(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<Exit> {
    if (!this.child) throw new Error('not started');
    if (this.running) this.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${this.name} did not exit within ${timeoutMs} ms of ${signal}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Starts the process again (same port, environment and data directory). */
  async restart(readyTimeoutMs?: number): Promise<void> {
    if (this.running) throw new Error(`${this.name} is still running`);
    await this.spawn(readyTimeoutMs);
  }

  /** Stops the process (SIGKILL if SIGTERM is not enough) and removes its data directory. */
  async dispose(): Promise<void> {
    if (this.running) {
      await this.kill('SIGTERM', 10_000).catch(() => this.kill('SIGKILL', 5000));
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer's fields as it expects them
  json<T = any>(): T;
}

/**
 * One HTTP request on its own connection (no keep-alive: a stopped server is seen at once), with a
 * deadline: a request that hangs rejects with `timeout after N ms`.
 */
export function request(
  baseUrl: string,
  method: string,
  url: string,
  options: {
    headers?: Record<string, string>;
    body?: string;
    timeoutMs?: number;
    localAddress?: string;
  } = {},
): Promise<HttpResponse> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${url}`,
      {
        method,
        agent: false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        headers: {
          ...(options.body !== undefined
            ? { 'content-length': String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            ms: Date.now() - started,
            json: () => JSON.parse(body),
          });
        });
      },
    );
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)),
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/**
 * A browser-like client over real HTTP (harness.ts TestClient, but for a server in another process):
 * keeps cookies, sends the CSRF headers of the portal. `baseUrl` may change between calls — the
 * cookies go along, as a load balancer would send a browser to either instance.
 */
export class HttpClient {
  readonly cookies = new Map<string, string>();

  /** `from`: the loopback address requests leave from (any of 127.0.0.0/8), as the server sees the client. */
  constructor(
    public baseUrl: string,
    readonly from?: string,
  ) {}

  get csrf(): string | undefined {
    return this.cookies.get('sec-token');
  }

  private absorb(res: HttpResponse): void {
    const setCookie = res.headers['set-cookie'] ?? [];
    for (const line of setCookie) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const maxAge = attrs.find((a) => /^\s*max-age=/i.test(a));
      const expired = (maxAge !== undefined && Number(maxAge.split('=')[1]) <= 0) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { body?: string; headers?: Record<string, string>; csrf?: boolean; timeoutMs?: number } = {},
  ): Promise<HttpResponse> {
    const unsafe = method !== 'GET';
    if (unsafe && options.csrf !== false && !this.csrf) await this.get('/sdportal/rest/csrf');
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', ...options.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (unsafe && options.csrf !== false && this.csrf) {
      headers['x-csrf-token'] = this.csrf;
      headers['x-xsrf-token'] = this.csrf;
    }
    const res = await request(this.baseUrl, method, url, {
      headers,
      body: options.body,
      timeoutMs: options.timeoutMs,
      ...(this.from ? { localAddress: this.from } : {}),
    });
    this.absorb(res);
    return res;
  }

  get(url: string, options: { timeoutMs?: number } = {}) {
    return this.request('GET', url, options);
  }

  postJson(url: string, body: unknown, options: { timeoutMs?: number } = {}) {
    return this.request('POST', url, {
      ...options,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  }

  postForm(url: string, fields: Record<string, string>, options: { timeoutMs?: number } = {}) {
    return this.request('POST', url, {
      ...options,
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  /** POST /heracles/login: 200 with the URL to go to ('/app/' for a full session), or 401. */
  login(username: string, password: string, options: { timeoutMs?: number } = {}) {
    return this.postForm('/heracles/login', { username, password, 'login-form-type': 'password' }, options);
  }

  changePassword(
    userId: string,
    oldCredential: string,
    newCredential: string,
    options: { timeoutMs?: number } = {},
  ) {
    return this.postJson(
      '/services/authentication-service/public/changePassword',
      { userId, oldCredential, newCredential },
      options,
    );
  }

  forgotPassword(userId: string, answer: string, options: { timeoutMs?: number } = {}) {
    return this.postJson(
      '/services/authentication-service/public/forgotPassword',
      { userId, locale: 'en_US', securityQuestion: { questionId: 'q1', questionResponse: answer } },
      options,
    );
  }
}

/** True when the user signs in (any stage) with this password on a fresh client. */
export async function signsIn(
  baseUrl: string,
  userId: string,
  password: string,
  from?: string,
): Promise<boolean> {
  const res = await new HttpClient(baseUrl, from).login(userId, password);
  if (res.status !== 200 && res.status !== 401) {
    throw new Error(`sign-in of ${userId} answered ${res.status}: ${res.body.slice(0, 200)}`);
  }
  return res.status === 200 && !res.body.includes('locked');
}
