import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { runCli } from '../src/commands.ts';
import { loadConfig } from '../src/config.ts';
import { socketPath } from '../src/db/client.ts';
import { closeServices, createServices } from '../src/services.ts';
import { DEMO_PASSWORD, TestClient } from './harness.ts';

const run = promisify(execFile);
const cli = path.join(import.meta.dirname, '../src/cli.ts');
const freshDirs: string[] = [];
afterAll(() => {
  for (const dir of freshDirs) rmSync(dir, { recursive: true, force: true });
});
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cp-cli-fresh-'));
  freshDirs.push(dir);
  return dir;
};

/** The admin CLI of DESIGN §3 in a process of its own, as an operator runs it (`npm run cli`). */
async function cpIn(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: { ...process.env, DATABASE_URL: '', ...env },
      // A new data directory: initdb and the demo data (argon2 hashes of every demo user) come first.
      timeout: 150_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * The server on a data directory, in this process, sharing its database over the local socket as
 * server.ts does: the CLI then works against the running server.
 */
async function withServer<T>(dir: string, fn: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    DATA_DIR: dir,
    DEMO: '1',
  });
  const services = await createServices(config);
  const app = await buildApp(config, services);
  const socket = new PGLiteSocketServer({
    db: services.database.pglite as PGlite,
    path: socketPath(dir),
    maxConnections: 4,
  });
  try {
    await socket.start();
    await app.ready();
    return await fn(app);
  } finally {
    await app.close();
    await socket.stop();
    await closeServices(services);
  }
}

describe('admin CLI on a new data directory (issue 13, item 7)', () => {
  it('creates a user as the very first command, initialising the database as the server does', async () => {
    const dir = freshDir();
    const env = { DATA_DIR: dir, DEMO: '1' };
    const created = await cpIn(
      env,
      ...['user', 'create', '--user-id', 'firstop01', '--email', 'first.op@example.com'],
      ...['--password', 'Fresh-start#2026', '--question', 'q1', '--answer', 'Springfield'],
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/created user firstop01 .*type A, company 100001/);
    expect(created.stderr).toContain('new database: demo data loaded');

    // A second command finds the same database, demo users included, and loads nothing again.
    const shown = await cpIn(env, 'user', 'show', 'otpuser01');
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ userId: 'otpuser01', loginType: 'otp-2fa' });
    expect(shown.stderr).not.toContain('demo data loaded');

    // The server starts on it: the operator's user and the demo users sign in.
    await withServer(dir, async (app) => {
      const client = new TestClient(app);
      expect((await client.login('firstop01', 'Fresh-start#2026')).statusCode).toBe(200);
      expect((await client.get('/app/api/me')).statusCode).toBe(200);

      // The demo's mailbox, read with the CLI while the server runs (over its socket, loading nothing):
      // `mail list` names the waiting one-time code mail, `mail show` prints the code.
      const otp = new TestClient(app);
      expect((await otp.login('otpuser01', DEMO_PASSWORD)).body).toMatch(/\/otp\?/);
      const listed = await cpIn(env, 'mail', 'list');
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stderr).toBe('');
      const line = listed.stdout.split('\n').find((l) => l.includes('otto.otp@example.com')) ?? '';
      expect(line).toMatch(
        /^\d+\t\d{4}-\d\d-\d\dT[\d:.]+Z\totp\totto\.otp@example\.com\t.*one-time passcode/,
      );
      const mail = await cpIn(env, 'mail', 'show', line.split('\t')[0] ?? '');
      expect(mail.code, mail.stderr).toBe(0);
      expect(mail.stdout).toMatch(/^To: otto\.otp@example\.com\nSubject: .*one-time passcode/);
      const code = /\b(\d{6})\b/.exec(mail.stdout.split('\n\n').slice(1).join('\n'))?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
      // … and that code completes the sign-in.
      const signedIn = await otp.login('otpuser01', code, { 'login-form-type': 'otp' });
      expect(signedIn.body).toBe('/app/');

      const unknown = await cpIn(env, 'mail', 'show', '999999');
      expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([2, 'no such mail: 999999']);
      expect((await cpIn(env, 'mail', 'show', 'x')).code).toBe(2);
    });
  }, 300_000);

  it('without demo data, says there is no company and creates the system administrator', async () => {
    // In-process (runCli opens and initialises the data directory itself, as in a process of its own).
    const env = { DATA_DIR: freshDir(), DEMO: '0', DATABASE_URL: '' };
    const run = async (...args: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await runCli(args, {
        env,
        io: { out: (l) => (stdout += `${l}\n`), err: (l) => (stderr += `${l}\n`) },
      });
      return { code, stdout, stderr };
    };
    const base = ['user', 'create', '--email', 'sys@example.com', '--password', 'Fresh-start#2026'];
    const refused = await run(...base, '--user-id', 'firstcard01');
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      'no company to put the user in: this database has none (no demo data, DEMO=0); create the system administrator first (--user-type Z), who creates issuers and companies in the application',
    );
    const admin = await run(...base, '--user-id', 'sysadmin01', '--user-type', 'Z');
    expect(admin.code, admin.stderr).toBe(0);
    expect(admin.stdout).toMatch(/created user sysadmin01 .*type Z$/m);
    expect((await run('org', 'list')).stdout.trim()).toBe('');
  }, 300_000);
});
