/**
 * Issue 21, item 5 on PostgreSQL, where several instances share one database: a scheduled job runs once
 * across two job queues (two instances' worth: each its own pg-boss and its own connections), and a job
 * queued before a restart runs after it (kernel/jobs.ts, docs/jobs.md).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JobDefinition, JobQueue } from '../src/kernel/jobs.ts';
import { startTestApp, type TestContext } from './harness.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

let ctx: TestContext;
const queues: JobQueue[] = [];

/** A job queue on the test's database with only the given jobs, as another instance would run it. */
function queue(jobs: JobDefinition[]): JobQueue {
  const q = new JobQueue(
    {
      database: ctx.services.database,
      databaseUrl: ctx.config.databaseUrl,
      log: ctx.app.log,
      app: ctx.app,
      cronCheckSeconds: 1,
    },
    jobs,
  );
  queues.push(q);
  return q;
}

async function jobRows(name: string): Promise<number> {
  const result = await ctx.app.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = ${name}`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? -1;
}

beforeAll(async () => {
  ctx = await startTestApp();
});

afterAll(async () => {
  for (const q of queues) await q.stop(1000);
  await ctx?.close();
});

describe('jobs across instances (PostgreSQL)', () => {
  it('runs a scheduled job once, whichever of two instances checks the schedule', async () => {
    const runs: string[] = [];
    const probe = (instance: string): JobDefinition => ({
      name: 'test.every-minute',
      cron: '* * * * *',
      pollSeconds: 1,
      run: async () => {
        runs.push(instance);
      },
    });
    const a = queue([probe('a')]);
    const b = queue([probe('b')]);
    // Start early in a minute, so that the occurrence both instances find due is the same one for the
    // whole test (pg-boss queues the current minute's occurrence when the schedule is registered).
    const second = new Date().getUTCSeconds();
    if (second > 35) await sleep((61 - second) * 1000);
    // Both install pg-boss's schema at once (pg-boss serialises that under an advisory lock).
    await Promise.all([a.start(), b.start()]);
    const started = Date.now();
    while (runs.length === 0) {
      expect(Date.now() - started, 'the first occurrence within a minute and a bit').toBeLessThan(75_000);
      await sleep(250);
    }
    // Both instances check the schedule every second: give the other several chances to queue the same
    // occurrence again. (Should a slow machine cross a minute, the next occurrence is a job of its own.)
    await sleep(5_000);
    const occurrences = await ctx.app.db.execute(
      sql`select date_trunc('minute', created_on)::text as slot, count(*)::int as jobs from pgboss.job
        where name = 'test.every-minute' group by 1 order by 1`,
    );
    const slots = (occurrences as unknown as { rows: { slot: string; jobs: number }[] }).rows;
    expect(slots.length).toBeGreaterThanOrEqual(1);
    expect(slots.length).toBeLessThanOrEqual(2);
    // One job per occurrence, and each job ran once, on one of the two instances.
    for (const slot of slots) expect(slot.jobs, `occurrence ${slot.slot}`).toBe(1);
    await sleep(1_500);
    expect(runs).toHaveLength(slots.length);
    expect(await jobRows('test.every-minute')).toBe(slots.length);
    await Promise.all([a.stop(), b.stop()]);
  }, 130_000);

  it('keeps a queued job across a restart: the next instance runs it', async () => {
    const runs: string[] = [];
    const later = (instance: string): JobDefinition => ({
      name: 'test.later',
      pollSeconds: 1,
      run: async () => {
        runs.push(instance);
      },
    });
    const first = queue([later('first')]);
    await first.start();
    await first.send('test.later', { startAfter: 3 });
    await first.stop();
    expect(runs).toEqual([]);
    expect(await jobRows('test.later')).toBe(1);

    const second = queue([later('second')]);
    await second.start();
    const started = Date.now();
    while (runs.length === 0) {
      expect(Date.now() - started, 'the queued job ran after the restart').toBeLessThan(20_000);
      await sleep(200);
    }
    expect(runs).toEqual(['second']);
    await second.stop();
  }, 60_000);
});
