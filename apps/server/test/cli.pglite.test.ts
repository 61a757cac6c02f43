import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = path.join(import.meta.dirname, '../src/cli.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The admin CLI of DESIGN §3, run as an operator runs it, against a stopped server's data directory. */
async function cp(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DEMO: '0', DATABASE_URL: '' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
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
      'Rex the dog',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/created user cliuser01 \(ldap id ldap-[A-Za-z0-9]{16}\)/);

    const shown = await cp('user', 'show', 'CLIUSER01');
    expect(shown.code).toBe(0);
    const user = JSON.parse(shown.stdout);
    expect(user).toMatchObject({
      userId: 'cliuser01',
      loginType: 'token',
      status: 'Active',
      email: 'cli@example.com',
    });
    expect(shown.stdout).not.toMatch(/passwordHash|argon2/);

    const token = await cp('token', 'assign', '--user-id', 'cliuser01');
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(
      /otpauth:\/\/totp\/[^\s]*\?[^\s]*secret=[A-Z2-7]+[^\s]*digits=8[^\s]*period=60/,
    );
    expect(token.stdout).toMatch(/default PIN: [1-9]\d{3}/);

    const unlocked = await cp('user', 'unlock', 'cliuser01');
    expect(unlocked.stdout).toContain('is Active');
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
