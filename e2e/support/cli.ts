import { execFile } from 'node:child_process';
import path from 'node:path';
import { root } from './product.ts';

export interface CliResult {
  /** The exit code (0 = success). */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The built admin CLI (`node apps/server/dist/cli.js ...`) against the running product's embedded
 * database, which the server shares over its local socket in `dataDir` (DESIGN §3). Resolves with the
 * exit code and output instead of throwing, so tests can assert on refusals.
 */
export function runCli(dataDir: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'apps/server/dist/cli.js'), ...args],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' },
        // A CLI process beside a loaded browser run took over 60 s on 2026-11-29 (killed: exit 1, no stderr).
        timeout: 300_000,
        maxBuffer: 4 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}
