import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TestSmtp } from '../../apps/server/test/smtp.ts';

export const root = path.resolve(import.meta.dirname, '../..');

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

/** How many copies of each spec this run holds (1 unless scripts/suite-at-scale.ts runs it). */
export function suiteScale(): number {
  const scale = Number(process.env.SUITE_SCALE ?? '1');
  return Number.isInteger(scale) && scale >= 1 ? scale : 1;
}

export interface Product {
  baseUrl: string;
  dataDir: string;
  /** Where the SMTP peer writes each mail it receives, as JSON. */
  mailDir: string;
  stop(): Promise<void>;
}

/** The environment the built server and CLI run with in the browser tests, over a data directory. */
function productEnv(dataDir: string, extraEnv: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    DEMO: '1',
    DATABASE_URL: '',
    REDIS_URL: '',
    ...extraEnv,
  };
}

/** The built admin CLI over a data directory (its own embedded database, or a running server's socket). */
function builtCli(env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync(process.execPath, [path.join(root, 'apps/server/dist/cli.js'), ...args], {
    env,
    stdio: 'pipe',
  }).toString();
}

/**
 * A data directory initialised once as a product initialises a new one (`cli db init`: initdb,
 * migrations, demo data) plus the browser tests' own users, for products to start from a copy of
 * (docs/testing.md): a copy takes ~0.3 s, an initialisation ~8 s of CPU a product.
 */
export function prepareDataDir(users: string[][]): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-e2e-template-'));
  const env = productEnv(dataDir);
  builtCli(env, ['db', 'init']);
  for (const args of users) builtCli(env, args);
  return dataDir;
}

/**
 * Starts the built product exactly as `npm start` runs it — the bundled server, the embedded database
 * in a data directory of its own, the demo data — with a real SMTP peer (smtp-server on loopback). With
 * `from`, that data directory starts as a copy of a prepared one (prepareDataDir); without, it is new and
 * the product initialises it.
 */
export async function startProduct(
  extraEnv: Record<string, string> = {},
  options: { from?: string } = {},
): Promise<Product> {
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
  if (options.from) cpSync(options.from, dataDir, { recursive: true });
  const mailDir = path.join(dataDir, 'mail');
  mkdirSync(mailDir);
  const smtp = new TestSmtp((mail) => {
    // Written under another name and renamed: a spec in another process reading the folder meanwhile
    // sees the whole mail or none of it (a half-written file once failed first-login.spec.ts).
    const file = path.join(mailDir, `${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(`${file}.part`, JSON.stringify(mail));
    renameSync(`${file}.part`, file);
  });
  const smtpUrl = await smtp.start();
  const port = await freePort();
  const env = productEnv(dataDir, { PORT: String(port), SMTP_URL: smtpUrl, ...extraEnv });
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  // A fresh data directory (initdb, migrations, demo data) on a loaded two-core machine took over 180 s;
  // below the browser project's hook timeout, so this error, not the hook's, names the cause.
  const deadline = Date.now() + 480_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become ready in 480 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    dataDir,
    mailDir,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      await smtp.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SavedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Waits until at least `count` mails to `to` arrived after `since` (ms epoch); returns the newest. */
export async function waitForMail(
  mailDir: string,
  to: string,
  since: number,
  count = 1,
  timeoutMs = 20_000,
): Promise<SavedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = readdirSync(mailDir)
      .filter((f) => f.endsWith('.json') && Number(f.split('-')[0]) >= since)
      .sort()
      .map((file) => JSON.parse(readFileSync(path.join(mailDir, file), 'utf8')) as SavedMail)
      .filter((mail) => mail.to.includes(to));
    const newest = mails.at(-1);
    if (newest && mails.length >= count) return newest;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
