/**
 * Benchmarks (not tests): `npm run bench` runs every benchmark in bench/ against the production build
 * on loopback, side by side with the bounds they are judged against:
 *  - sign-in throughput (autocannon) against the argon2id bound measured in the same run, both modes;
 *  - the same sign-ins against better-auth's on the same PostgreSQL server, in alternating rounds;
 *  - two server processes (WORKERS=2) against one;
 *  - public calls against a bare Fastify JSON route;
 *  - page weight and Chromium timings of the sign-in screen, plain and throttled;
 *  - resident memory idle and at peak sign-in load, embedded and PostgreSQL;
 *  - scale: 1,000,000 users and 200,000 sessions in PostgreSQL against 1,000 users;
 *  - paging: 1,000,000 audit events in PostgreSQL, the first page against one 90 % deep, by key;
 *  - import: a 1,000,000-row transaction file into PostgreSQL against a bare COPY of it, and memory;
 *  - summary: the Transaction Summary at 100,000 and 10,000,000 transactions, by scope, deep and filtered;
 *  - accounting: value search over 100,000 accounting code values.
 * Writes bench/results/latest.json and a table. `-- --check` exits non-zero when a budget is missed;
 * `-- --quick` runs short levels; `-- --only=signin,peer,workers,public,page,scale,paging,import,summary,accounting,expenses` picks
 * sections.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { accountingBench } from './accounting.ts';
import { expensesBench } from './expenses.ts';
import { importBench } from './import.ts';
import { type Effort, POSTGRES_ADMIN_URL, root, rssMb, type Section, startServer } from './lib.ts';
import { pageBench } from './page.ts';
import { pagingBench } from './paging.ts';
import { peerBench } from './peer.ts';
import { scaleBench } from './scale.ts';
import { summaryBench } from './summary.ts';
import { addBenchUsers, argonBound, publicBench, signInBench, workersBench } from './throughput.ts';

export interface BenchReport {
  at: string;
  effort: Effort;
  machine: Record<string, unknown>;
  bound: { perSecond: number; inFlight: number };
  sections: Section[];
}

/** A fresh PostgreSQL database for one run; dropped by the returned function. */
async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cp_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    url: POSTGRES_ADMIN_URL.replace(/\/test$/, `/${name}`),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Resident memory of a freshly started server once it has settled. */
async function idleMemory(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 2000));
  return rssMb(pid);
}

export async function runBenchmarks(effort: Effort, only?: Set<string>): Promise<BenchReport> {
  const wants = (name: string) => !only || only.has(name);
  const sections: Section[] = [];
  // The bound first, on an idle machine.
  const bound = await argonBound(effort);

  if (wants('signin') || wants('public') || wants('page')) {
    const embedded = await startServer();
    const idle = await idleMemory(embedded.pid);
    try {
      if (wants('page')) sections.push(await pageBench(embedded.base, effort));
      if (wants('public')) sections.push(await publicBench(embedded, effort));
      // The bound again right before the sign-ins it judges: a shared host's speed drifts over a run.
      if (wants('signin'))
        sections.push(await signInBench(embedded, effort, 'embedded', await argonBound(effort), idle));
    } finally {
      await embedded.stop();
    }
  }
  if (wants('signin') || wants('peer')) {
    const database = await scratchDatabase();
    const peerDatabase = await scratchDatabase();
    try {
      const server = await startServer({ DATABASE_URL: database.url, DEMO: '1' });
      const idle = await idleMemory(server.pid);
      try {
        if (wants('signin'))
          sections.push(await signInBench(server, effort, 'postgres', await argonBound(effort), idle));
        // The peer beside ours, on the same PostgreSQL server and the same users (issue 19).
        if (wants('peer')) {
          const users = await addBenchUsers(server, effort === 'smoke' ? 200 : 20_000);
          sections.push(await peerBench(server, users, peerDatabase.url, effort, await argonBound(effort)));
        }
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
      await peerDatabase.drop();
    }
  }
  if (wants('workers')) sections.push(await workersBench(effort, scratchDatabase));
  if (wants('scale')) sections.push(await scaleBench(effort));
  if (wants('paging')) sections.push(await pagingBench(effort));
  if (wants('import')) sections.push(await importBench(effort));
  if (wants('summary')) sections.push(await summaryBench(effort));
  if (wants('accounting')) sections.push(await accountingBench(effort));
  if (wants('expenses')) sections.push(await expensesBench(effort));

  return {
    at: new Date().toISOString(),
    effort,
    machine: {
      cpu: cpus()[0]?.model,
      cores: availableParallelism(),
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      note: 'load generator (autocannon, Chromium) on the same cores as the server',
    },
    bound,
    sections,
  };
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const effort: Effort = args.includes('--quick') ? 'quick' : args.includes('--smoke') ? 'smoke' : 'full';
  const onlyArg = args.find((a) => a.startsWith('--only='));
  const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : undefined;
  const report = await runBenchmarks(effort, only);
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `argon2id bound: ${report.bound.perSecond.toFixed(1)} verifications/s (${report.bound.inFlight} in flight, ${report.machine.cores} cores)`,
  );
  for (const section of report.sections) {
    console.log(`\n[${section.name}]`);
    for (const line of section.table) console.log(`  ${line}`);
  }
  const budgets = report.sections.flatMap((s) => s.budgets);
  console.log('\nbudgets');
  for (const b of budgets) console.log(`  ${b.ok ? 'met   ' : 'MISSED'}  ${b.name}: ${b.detail}`);
  if (check && budgets.some((b) => !b.ok)) {
    console.error(`\n${budgets.filter((b) => !b.ok).length} budget(s) missed`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
