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
import { loadConfig } from '../src/config.ts';
import { socketPath } from '../src/db/client.ts';
import { closeServices, createServices } from '../src/services.ts';
import { DEMO_PASSWORD, TestClient } from './harness.ts';

const run = promisify(execFile);
const cli = path.join(import.meta.dirname, '../src/cli.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-cli-'));
const freshDirs: string[] = [];
afterAll(() => {
  for (const dir of [dataDir, ...freshDirs]) rmSync(dir, { recursive: true, force: true });
});
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cp-cli-fresh-'));
  freshDirs.push(dir);
  return dir;
};

/** The admin CLI of DESIGN §3, run as an operator runs it, against a stopped server's data directory. */
function cp(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // Demo mode: the demo organisations give `user create` its default company.
  return cpIn({ DATA_DIR: dataDir, DEMO: '1' }, ...args);
}

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

describe('admin CLI', () => {
  it('creates, shows, unlocks a user and assigns a token', async () => {
    expect((await cp('db', 'init')).stdout).toContain('database ready');
    const created = await cp(
      'user',
      'create',
      '--user-id',
      'cliuser01',
      '--email',
      'cli@example.com',
      '--password',
      'Cli-password-2026',
      '--login-type',
      'token',
      '--question',
      'q2',
      '--answer',
      'Rexthedog',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(
      /created user cliuser01 \(ldap id ldap-[A-Za-z0-9]{16}\), type A, company 100001/,
    );

    const shown = await cp('user', 'show', 'CLIUSER01');
    expect(shown.code).toBe(0);
    const user = JSON.parse(shown.stdout);
    expect(user).toMatchObject({
      userId: 'cliuser01',
      loginType: 'token',
      status: 'Active',
      email: 'cli@example.com',
      userType: 'A',
    });
    // A cardholder of the first demo company, with a cardholder record of its own.
    expect(user.companyId).toEqual(expect.any(Number));
    expect(user.cardholderId).toEqual(expect.any(Number));
    expect(shown.stdout).not.toMatch(/passwordHash|argon2/);

    const token = await cp('token', 'assign', '--user-id', 'cliuser01');
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(
      /otpauth:\/\/totp\/[^\s]*\?[^\s]*secret=[A-Z2-7]+[^\s]*digits=8[^\s]*period=60/,
    );
    expect(token.stdout).toMatch(/default PIN: [1-9]\d{3}/);

    const unlocked = await cp('user', 'unlock', 'cliuser01');
    expect(unlocked.stdout).toContain('is Active');
    // db init loads the demo data (argon2 hashes of every demo user): slow on a loaded machine.
  }, 180_000);

  it('lists issuers and companies with their numbers', async () => {
    const listed = await cp('org', 'list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^issuer\t1001\tCardportal Demo Bank\tICA 12345\tbank 0042\tgroup Cardportal Demo Banking Group\tactive$/,
    );
    expect(listed.stdout).toMatch(
      /^ {2}company\t100001\tAcme Industries\tgroup Demo Manufacturing Group\tmulti-user\tactive$/m,
    );
    expect(listed.stdout).toMatch(/^ {2}company\t100002\tBorealis Logistics\t.*\tsingle-user\t/m);
    expect(listed.stdout).toMatch(/^issuer\t2001\tBanco Norte Demo\t/m);
    expect(listed.stdout).toMatch(/^ {2}company\t200001\t/m);
  });

  it('creates users of every type in the company given', async () => {
    const make = (id: string, type: string, company?: string) =>
      cp(
        'user',
        'create',
        '--user-id',
        id,
        '--email',
        `${id}@example.com`,
        '--password',
        'Cli-password-2026',
        '--user-type',
        type,
        ...(company ? ['--company', company] : []),
      );
    const expected: Record<string, string[]> = {
      Z: [],
      H: ['issuerGroupId'],
      I: ['issuerId'],
      G: ['companyGroupId'],
      C: ['companyId'],
      O: ['companyId', 'orgPointId'],
      S: ['companyId', 'accountGroupId'],
      A: ['companyId', 'cardholderId'],
    };
    const scopeColumns = [
      'issuerGroupId',
      'issuerId',
      'companyGroupId',
      'companyId',
      'orgPointId',
      'accountGroupId',
      'cardholderId',
    ];
    for (const [type, columns] of Object.entries(expected)) {
      const id = `clitype${type.toLowerCase()}01`;
      const made = await make(id, type, '200001');
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain(`type ${type}`);
      const user = JSON.parse((await cp('user', 'show', id)).stdout);
      expect(user.userType).toBe(type);
      for (const column of scopeColumns) {
        if (columns.includes(column)) expect(user[column], `${type} ${column}`).toEqual(expect.any(Number));
        else expect(user[column], `${type} ${column}`).toBeNull();
      }
    }
    const admin = JSON.parse((await cp('user', 'show', 'clitypec01')).stdout);
    const defaulted = await make('clidefault01', 'C');
    expect(defaulted.stdout).toContain('company 100001');
    const placed = JSON.parse((await cp('user', 'show', 'clidefault01')).stdout);
    expect(placed.companyId).not.toBe(admin.companyId);
  }, 180_000);

  it('refuses an unknown company or user type with one clear line', async () => {
    const base = ['user', 'create', '--email', 'z@example.com', '--password', 'Cli-password-2026'];
    const noCompany = await cp(...base, '--user-id', 'clinoco01', '--company', '999999');
    expect(noCompany.code).toBe(2);
    expect(noCompany.stderr.trim()).toBe('no such company: 999999');
    const badType = await cp(...base, '--user-id', 'clibadtype01', '--user-type', 'X');
    expect(badType.code).toBe(2);
    expect(badType.stderr.split('\n')[0]).toBe('--user-type must be one of A, C, G, H, I, O, S, Z');
    expect((await cp('user', 'show', 'clinoco01')).code).toBe(2);
    const spacedAnswer = await cp(...base, '--user-id', 'clianswer01', '--answer', 'Rex the dog');
    expect(spacedAnswer.code).toBe(2);
    expect(spacedAnswer.stderr).toContain('securityAnswer.spaces');
  });

  it('refuses bad input with one clear line and exit code 2', async () => {
    const duplicate = await cp(
      'user',
      'create',
      '--user-id',
      'cliuser01',
      '--email',
      'x@example.com',
      '--password',
      'Cli-password-2026',
    );
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('already exists');
    const weak = await cp(
      'user',
      'create',
      '--user-id',
      'cliuser02',
      '--email',
      'y@example.com',
      '--password',
      'short',
    );
    expect(weak.code).toBe(2);
    expect(weak.stderr).toMatch(/password/);
    const unknown = await cp('user', 'show', 'nobody01');
    expect(unknown.code).toBe(2);
    expect((await cp('frobnicate')).code).toBe(2);
    const badEnv = await run(process.execPath, ['--import', 'tsx', cli, 'cobrand', 'list'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: 'eighty' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toMatch(/PORT/);
  });
});

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
    const dir = freshDir();
    const env = { DATA_DIR: dir, DEMO: '0' };
    const base = ['user', 'create', '--email', 'sys@example.com', '--password', 'Fresh-start#2026'];
    const refused = await cpIn(env, ...base, '--user-id', 'firstcard01');
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      'no company to put the user in: this database has none (no demo data, DEMO=0); create the system administrator first (--user-type Z), who creates issuers and companies in the application',
    );
    const admin = await cpIn(env, ...base, '--user-id', 'sysadmin01', '--user-type', 'Z');
    expect(admin.code, admin.stderr).toBe(0);
    expect(admin.stdout).toMatch(/created user sysadmin01 .*type Z$/m);
    expect((await cpIn(env, 'org', 'list')).stdout.trim()).toBe('');
  }, 300_000);
});
