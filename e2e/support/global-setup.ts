import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
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
 * Starts the built product once for all browser tests, exactly as `npm start` runs it: the bundled
 * server, the embedded database in a fresh data directory, the demo data.
 */
export default async function setup(project: TestProject) {
  for (const file of [
    'apps/server/dist/server.js',
    'apps/portal/dist/index.html',
    'apps/web/dist/index.html',
  ]) {
    if (!existsSync(path.join(root, file))) throw new Error(`${file} is missing: run npm run build first`);
  }
  if (!existsSync('/usr/bin/chromium'))
    throw new Error('/usr/bin/chromium is missing: apt-get install -y chromium');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-e2e-'));
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    DEMO: '1',
    DATABASE_URL: '',
    REDIS_URL: '',
  };
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become ready in 120 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  // Users of the browser tests' own, made with the admin CLI while the server runs (DESIGN §3).
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(root, 'apps/server/dist/cli.js'), ...args], {
      env,
      stdio: 'pipe',
    });
  cli(
    'user',
    'create',
    '--user-id',
    'e2elock01',
    '--email',
    'lock@example.com',
    '--password',
    'Cardportal#2026',
  );
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
