/**
 * The admin CLI's `user create --password` refuses a common password (issue 13 item 5): exit code 2 and
 * one clear line, as every refused input of the CLI (DESIGN §3).
 */

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = path.join(import.meta.dirname, '../src/cli.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-cli-pw-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cp(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DEMO: '1', DATABASE_URL: '' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const create = (userId: string, password: string) =>
  cp('user', 'create', '--user-id', userId, '--email', `${userId}@example.com`, '--password', password);

describe('admin CLI: common passwords', () => {
  it('refuses `user create --password` with a common one: exit 2 and one clear line', async () => {
    expect((await cp('db', 'init')).code).toBe(0);
    const refused = await create('clicommon01', 'Password123!');
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      'password is too common: it is on the list of commonly used passwords (or is one with digits or symbols added); choose another',
    ]);
    // Nothing was created: the same user ID with a good password goes through.
    const created = await create('clicommon01', 'Lantern-Quay-2026');
    expect(created.code, created.stderr).toBe(0);
  }, 180_000);
});
