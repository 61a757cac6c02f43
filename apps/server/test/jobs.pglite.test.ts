/**
 * Issue 21, item 5 on the embedded database: pg-boss runs on PGlite in the process that owns it
 * (docs/jobs.md), its schema beside ours in the data directory, so a job queued before a restart runs
 * after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { fromPglite } from 'pg-boss';
import pino from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Database, openPglite } from '../src/db/client.ts';
import { atomicBlocks, type JobDefinition, JobQueue } from '../src/kernel/jobs.ts';
import { pgliteTemplate } from './support/db-template.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-jobs-'));
const open: { database?: Database; queue?: JobQueue } = {};
/** A database from this run's template (no initdb): support/db-template.ts. */
const template = async () => ({ loadDataDir: await pgliteTemplate(inject('dbTemplate')) });

afterAll(async () => {
  await open.queue?.stop(1000);
  await open.database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The embedded database in `dataDir` and a job queue on it with one job, as a (re)started server has. */
async function start(
  runs: string[],
  label: string,
  first: boolean,
): Promise<{ database: Database; queue: JobQueue }> {
  const database = await openPglite(dataDir, first ? await template() : {});
  const job: JobDefinition = {
    name: 'test.later',
    pollSeconds: 1,
    run: async () => {
      runs.push(label);
    },
  };
  const queue = new JobQueue({ database, log: pino({ level: 'silent' }), app: {} as FastifyInstance }, [job]);
  open.database = database;
  open.queue = queue;
  await queue.start();
  return { database, queue };
}

describe('jobs on the embedded database', () => {
  it('runs a job sent before start at once in this process, and none that asks for later', async () => {
    const runs: string[] = [];
    const queue = new JobQueue(
      { database: {} as Database, log: pino({ level: 'silent' }), app: {} as FastifyInstance },
      [{ name: 'test.now', run: async () => void runs.push('now') }],
    );
    await queue.send('test.now');
    await queue.send('test.now', { startAfter: 60 });
    expect(runs).toEqual(['now']);
    await expect(queue.send('test.unknown')).rejects.toThrow(/No job named test.unknown/);
  });

  it("never leaves the one session in an aborted transaction for a request's query when a pg-boss block fails", async () => {
    const database = await openPglite('memory://', await template());
    try {
      const pglite = database.pglite;
      if (!pglite) throw new Error('no PGlite');
      const adapter = fromPglite(atomicBlocks(pglite));
      // pg-boss sends a block as one string; a request's query is queued right behind it.
      const [block, query] = await Promise.allSettled([
        adapter.executeSql('BEGIN; SELECT 1/0; COMMIT;'),
        pglite.query<{ ok: number }>('select 1 as ok'),
      ]);
      expect(block.status).toBe('rejected');
      expect(query.status === 'fulfilled' ? query.value.rows : query.reason).toEqual([{ ok: 1 }]);
      expect(pglite.isInTransaction()).toBe(false);
      // A block that succeeds returns its rows; a statement that may not run in a transaction block runs.
      await pglite.exec('create table t (n int)');
      const rows = await adapter.executeSql('BEGIN; INSERT INTO t VALUES (1) RETURNING n; COMMIT;');
      expect(rows.rows).toEqual([{ n: 1 }]);
      await adapter.executeSql('CREATE INDEX CONCURRENTLY t_n ON t (n)');
      await adapter.executeSql('REINDEX INDEX CONCURRENTLY t_n');
      expect(pglite.isInTransaction()).toBe(false);
    } finally {
      await database.close();
    }
  });

  it('keeps a queued job across a restart of the embedded database', async () => {
    const runs: string[] = [];
    const first = await start(runs, 'first', true);
    await first.queue.send('test.later', { startAfter: 3 });
    await first.queue.stop();
    await first.database.close();
    expect(runs).toEqual([]);

    const second = await start(runs, 'second', false);
    const started = Date.now();
    while (runs.length === 0) {
      expect(Date.now() - started, 'the queued job ran after the restart').toBeLessThan(20_000);
      await sleep(200);
    }
    expect(runs).toEqual(['second']);
    await second.queue.stop();
  }, 90_000);
});
