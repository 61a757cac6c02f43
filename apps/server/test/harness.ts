import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type Services } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, migrate, openPglite, openPostgres } from '../src/db/client.ts';
import { loadDemoData } from '../src/demo/load.ts';
import { loadSecrets } from '../src/kernel/secrets.ts';
import { connectRedis } from '../src/services.ts';
import { TextBundles } from '../src/text/bundles.ts';
import { pgliteTemplate } from './support/db-template.ts';

export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = 'redis://127.0.0.1:6379';
export const dbKind = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';

/** This run's template database (support/db-template.ts), when the project built one. */
function template(): string | undefined {
  try {
    return inject('dbTemplate') || undefined;
  } catch {
    return undefined; // outside a vitest project with the template's globalSetup
  }
}

export interface TestContext {
  app: FastifyInstance;
  config: Config;
  services: Services;
  close(): Promise<void>;
}

/**
 * A real server on a fresh database: an in-memory PGlite, or a new database on the PostgreSQL server
 * (dropped afterwards). PostgreSQL and Redis must be reachable: a missing server fails the run loudly.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-test-'));
  let database: Database;
  let dropDatabase: (() => Promise<void>) | undefined;
  let redis: Redis | undefined;
  const baseEnv: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMITS: 'off',
    DATA_DIR: dataDir,
    DEMO: '0',
    ...env,
  };
  if (dbKind === 'postgres') {
    const name = `cp_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    try {
      await admin.connect();
    } catch (error) {
      throw new Error(`PostgreSQL at ${POSTGRES_URL} is unreachable: ${(error as Error).message}`);
    }
    const from = template();
    await admin.query(`create database ${name}${from ? ` template ${from}` : ''}`);
    await admin.end();
    const url = POSTGRES_URL.replace(/\/test$/, `/${name}`);
    baseEnv.DATABASE_URL = url;
    baseEnv.REDIS_URL ??= REDIS_URL;
    database = openPostgres(url, 5);
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    const from = template();
    database = await openPglite('memory://', from ? { loadDataDir: await pgliteTemplate(from) } : {});
  }
  const config = loadConfig({ ...baseEnv, ...env });
  if (config.redisUrl) {
    try {
      redis = await connectRedis(config.redisUrl);
    } catch (error) {
      throw new Error(`Redis at ${config.redisUrl} is unreachable: ${(error as Error).message}`);
    }
  }
  // On a copy of the template both find their work done (one read each).
  await migrate(database, config.migrationsDir);
  const secrets = await loadSecrets(database.db, config);
  await loadDemoData(database.db, config, secrets);
  const services: Services = {
    database,
    secrets,
    texts: new TextBundles(config.bundlesDir),
    redis,
    logStream: options.logStream,
  };
  const app = await buildApp(config, services);
  await app.ready();
  return {
    app,
    config,
    services,
    async close() {
      await app.close();
      redis?.disconnect();
      await database.close();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A browser-like client: keeps cookies and sends the CSRF headers the portal sends. */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  get csrf(): string | undefined {
    return this.cookies.get('sec-token');
  }

  private absorb(res: LightMyRequestResponse): void {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      if (c.value === '' || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(options: {
    method: 'GET' | 'POST' | 'PUT' | 'HEAD' | 'DELETE' | 'PATCH';
    url: string;
    payload?: string | object;
    headers?: Record<string, string>;
    csrf?: boolean;
  }): Promise<LightMyRequestResponse> {
    const unsafe = !['GET', 'HEAD'].includes(options.method);
    if (unsafe && options.csrf !== false && !this.csrf) await this.get('/sdportal/rest/csrf');
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (unsafe && options.csrf !== false && this.csrf) {
      headers['x-csrf-token'] = this.csrf;
      headers['x-xsrf-token'] = this.csrf;
    }
    const res = await this.app.inject({
      method: options.method,
      url: options.url,
      payload: options.payload as string | undefined,
      headers,
      remoteAddress: this.ip,
    });
    this.absorb(res);
    return res;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, headers });
  }

  postJson(url: string, body: unknown, headers?: Record<string, string>) {
    return this.request({
      method: 'POST',
      url,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
  }

  login(username: string, password: string, extra: Record<string, string> = {}) {
    const form = new URLSearchParams({ username, password, 'login-form-type': 'password', ...extra });
    return this.request({
      method: 'POST',
      url: '/heracles/login',
      payload: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
}

export { DEMO_PASSWORD } from '../src/demo/load.ts';
