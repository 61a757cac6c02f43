import pg from 'pg';
import { POSTGRES_ADMIN_URL, startServer } from './lib.ts';
import { addPeerUsers, peerSignInLoad, startPeer } from './peer.ts';
import { addBenchUsers, CLOCK_TICK_MS, cpuTicks, signInLoad } from './throughput.ts';

async function db(name: string) {
  const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.query(`create database ${name}`);
  await c.end();
  return POSTGRES_ADMIN_URL.replace(/\/test$/, `/${name}`);
}
const ourUrl = await db('cp_try_ours');
const peerUrl = await db('cp_try_peer');
const ours = await startServer({
  DATABASE_URL: ourUrl,
  DEMO: '1',
  ...(process.env.WORKERS ? { WORKERS: process.env.WORKERS, REDIS_URL: 'redis://127.0.0.1:6379' } : {}),
});
const peer = await startPeer(peerUrl);
const users = await addBenchUsers(ours, 20000);
const emails = await addPeerUsers(peerUrl, 20000);
await signInLoad(ours.base, users, 4, 2);
await peerSignInLoad(peer.base, emails, 4, 2);
const secs = Number(process.env.SECS ?? 5);
for (const c of (process.env.LEVELS ?? '8,32').split(',').map(Number)) {
  for (let r = 0; r < Number(process.env.ROUNDS ?? 1); r++) {
    for (const side of (process.env.SIDES ?? 'ours,peer').split(',') as ('ours' | 'peer')[]) {
      const pid = side === 'ours' ? ours.pid : peer.pid;
      const b = cpuTicks(pid);
      const run =
        side === 'ours'
          ? await signInLoad(ours.base, users, c, secs)
          : await peerSignInLoad(peer.base, emails, c, secs);
      const a = cpuTicks(pid);
      const per = (k: keyof typeof a) => (((a[k] - b[k]) * CLOCK_TICK_MS) / run.signIns).toFixed(2);
      console.log(
        side,
        c,
        run.perSecond.toFixed(1),
        'fail',
        run.failures,
        run.requestErrors,
        'p50',
        run.p50.toFixed(0),
        'main',
        per('main'),
        'thr',
        per('threads'),
        'db',
        per('database'),
        'gen',
        per('self'),
      );
    }
  }
}
await ours.stop();
await peer.stop();
