/**
 * Benchmarks (not tests): `npm run bench` measures, on loopback against the production build,
 *  - the bound: argon2id verifications per second on these cores with the product's parameters;
 *  - complete password sign-ins per second (CSRF token, descriptor, /heracles/login) and their latency;
 *  - a public JSON call (the co-brand record) per second while idle;
 *  - the server's resident memory idle and after the sign-in load.
 * Writes bench/results/latest.json and a table. `-- --check` exits non-zero when a budget is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { hash, verify } from '@node-rs/argon2';

const root = path.resolve(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const quick = process.argv.includes('--quick');
const SECONDS = quick ? 2 : 8;
const PASSWORD = 'Cardportal#2026';
const USERS = ['active01', 'admin01', 'ssouser01', 'bncuser01'];

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function argonBound(): Promise<number> {
  const encoded = await hash(PASSWORD, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  const workers = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  let done = 0;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < end) {
        await verify(encoded, PASSWORD);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

class Jar {
  cookies = new Map<string, string>();
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair?.indexOf('=') ?? -1;
      if (pair && i > 0) this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
}

async function signIn(base: string, user: string): Promise<boolean> {
  const jar = new Jar();
  const headers = () => ({
    cookie: jar.header(),
    'x-requested-with': 'XMLHttpRequest',
    'x-csrf-token': jar.cookies.get('sec-token') ?? '',
  });
  jar.take(await fetch(`${base}/sdportal/rest/csrf`));
  const d = await fetch(`${base}/sdportal/rest/user/loginSignin`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify({ userId: user }),
  });
  await d.arrayBuffer();
  const res = await fetch(`${base}/heracles/login`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: user,
      password: PASSWORD,
      'login-form-type': 'password',
    }).toString(),
  });
  return (await res.text()) === '/app/';
}

async function load(concurrency: number, seconds: number, task: (i: number) => Promise<boolean>) {
  const latencies: number[] = [];
  let failures = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      let i = w;
      while (Date.now() < end) {
        const t = performance.now();
        const ok = await task(i).catch(() => false);
        latencies.push(performance.now() - t);
        if (!ok) failures++;
        i += concurrency;
      }
    }),
  );
  return {
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
  };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-bench-'));
  const port = 18000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      DEMO: '1',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      if (i > 480) throw new Error('server did not start');
      if (
        await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const pid = server.pid ?? 0;
    await new Promise((r) => setTimeout(r, 2000));
    const idleRss = rssMb(pid);
    const bound = await argonBound();
    const publicCall = await load(
      16,
      SECONDS,
      async () => (await fetch(`${base}/sdportal/rest/cobrand/cardportal`)).ok,
    );
    const levels = quick ? [4] : [2, 4, 8, 16];
    const signin: Record<string, Awaited<ReturnType<typeof load>>> = {};
    let peakRss = idleRss;
    for (const c of levels) {
      signin[c] = await load(c, SECONDS, (i) => signIn(base, USERS[i % USERS.length] ?? 'active01'));
      peakRss = Math.max(peakRss, rssMb(pid));
    }
    const peak = Math.max(...Object.values(signin).map((s) => s.perSecond));
    const cores = availableParallelism();
    const result = {
      at: new Date().toISOString(),
      machine: { cpu: cpus()[0]?.model, cores, node: process.version },
      seconds: SECONDS,
      argon2BoundPerSecond: bound,
      signinPeakPerSecond: peak,
      signinPerSecondPerCore: peak / cores,
      signinRatioToBound: peak / bound,
      signin,
      publicCobrand: publicCall,
      memoryMb: { idle: idleRss, peak: peakRss },
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`argon2id bound            ${bound.toFixed(1)} verifications/s`);
    for (const [c, s] of Object.entries(signin)) {
      console.log(
        `sign-in x${c.padEnd(3)}            ${s.perSecond.toFixed(1)}/s  p50 ${s.p50.toFixed(0)} ms  p99 ${s.p99.toFixed(0)} ms  failures ${s.failures}`,
      );
    }
    console.log(`sign-in peak / bound      ${(100 * result.signinRatioToBound).toFixed(0)} %`);
    console.log(
      `co-brand record x16       ${publicCall.perSecond.toFixed(0)}/s  p99 ${publicCall.p99.toFixed(1)} ms`,
    );
    console.log(`memory (embedded)         idle ${idleRss.toFixed(0)} MB, peak ${peakRss.toFixed(0)} MB`);
    if (check) {
      const missed: string[] = [];
      if (result.signinRatioToBound < 0.85) missed.push('sign-ins below 85 % of the argon2id bound');
      if (idleRss > 250) missed.push('embedded idle memory above 250 MB');
      if (peakRss - idleRss > 250) missed.push('more than 250 MB added at peak sign-in load');
      if (Object.values(signin).some((s) => s.failures > 0)) missed.push('failed sign-ins under load');
      for (const m of missed) console.error(`budget missed: ${m}`);
      if (missed.length > 0) process.exitCode = 1;
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
