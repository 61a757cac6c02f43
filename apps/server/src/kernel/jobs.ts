import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { PgBoss, SendOptions } from 'pg-boss';
import type { Database } from '../db/client.ts';
import { errorText } from './error-text.ts';

/**
 * Durable background work (DESIGN §7, docs/jobs.md): a job queue in the database itself (pg-boss), so
 * that a job runs once across any number of instances and a queued job survives a restart. No timers of
 * our own for durable work: a module declares its jobs (ServerModule.jobs) and pg-boss runs them.
 */
export interface JobDefinition {
  /** The queue's name, `<module>.<job>` (letters, digits, `.`, `-`, `_`). */
  name: string;
  /**
   * When the job is queued by itself: a cron expression (five fields, UTC). pg-boss files each
   * occurrence under one key, so however many instances run, one job is queued per occurrence.
   */
  cron?: string;
  /** Queue one job when the queue starts (work left from before a restart). */
  atStart?: boolean;
  /** How often an idle worker looks for a job sent with `send()` (seconds; default 10). */
  pollSeconds?: number;
  /** The work: runs on one instance per job, and must be safe to run again (delivery is at least once). */
  run(app: FastifyInstance): Promise<unknown>;
}

/**
 * PGlite as pg-boss's adapter (`fromPglite`) takes it, with each multi-statement block (pg-boss sends
 * `BEGIN; …; COMMIT` as one string) run under PGlite's transaction lock together with its rollback. Plain
 * `exec` releases the lock when a statement of the block fails, leaving the one session inside an aborted
 * transaction until the adapter's `ROLLBACK` gets the lock: a request's query queued meanwhile would fail
 * with "current transaction is aborted" (tried: docs/jobs.md). Inside `transaction()` PGlite has opened
 * a transaction of its own: it is committed (empty) first, so the block runs as sent — `REINDEX …
 * CONCURRENTLY` included — and PGlite's closing COMMIT finds nothing to commit.
 */
export function atomicBlocks(pglite: PGlite) {
  return {
    query: <T>(text: string, params?: unknown[]) => pglite.query<T>(text, params),
    exec: (text: string) =>
      pglite.transaction(async (tx) => {
        await tx.exec('COMMIT');
        try {
          return await tx.exec(text);
        } catch (error) {
          if (pglite.isInTransaction()) await tx.exec('ROLLBACK');
          throw error;
        }
      }),
    listen: (channel: string, callback: (payload: string) => void) => pglite.listen(channel, callback),
  };
}

/** What `send()` may ask of pg-boss: a key that keeps one job queued per key, and a later start. */
export type JobSendOptions = Pick<SendOptions, 'singletonKey' | 'startAfter'>;

export interface JobQueueOptions {
  /** The database the jobs live in: its `pgboss` schema, beside ours. */
  database: Database;
  /** The PostgreSQL URL (pg-boss keeps a small pool of its own there); unset on the embedded database. */
  databaseUrl?: string;
  log: FastifyBaseLogger;
  /** What each job's `run` receives. */
  app: FastifyInstance;
  /** pg-boss's own timings, shortened by tests (cron checks). */
  cronCheckSeconds?: number;
}

/**
 * The job facility. `start()` installs or updates pg-boss's schema, creates the queues, subscribes the
 * workers and registers the schedules; `stop()` lets running jobs finish. A queue that has not been
 * started — the tests that do not exercise it, the CLI — runs a job sent to it at once in this process
 * (the handlers are safe to run anywhere at any time), so `send()` always means "run this soon".
 */
export class JobQueue {
  private boss: PgBoss | undefined;
  private starting: Promise<void> | undefined;
  private readonly definitions = new Map<string, JobDefinition>();

  constructor(
    private readonly options: JobQueueOptions,
    jobs: readonly JobDefinition[],
  ) {
    for (const job of jobs) {
      if (this.definitions.has(job.name)) throw new Error(`Job ${job.name} is declared twice`);
      this.definitions.set(job.name, job);
    }
  }

  /** True once started (and until stopped). */
  get started(): boolean {
    return this.boss !== undefined;
  }

  /** The declared jobs' names. */
  get names(): string[] {
    return [...this.definitions.keys()];
  }

  start(): Promise<void> {
    this.starting ??= this.open().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async open(): Promise<void> {
    const { database, databaseUrl, log } = this.options;
    const { PgBoss, fromPglite } = await import('pg-boss');
    const common = {
      // Each occurrence of a schedule is queued by whichever instance checks first; the others find it
      // queued (pg-boss's singleton key per occurrence).
      cronMonitorIntervalSeconds: this.options.cronCheckSeconds ?? 30,
      cronWorkerIntervalSeconds: this.options.cronCheckSeconds ?? 5,
      // A worker woken by NOTIFY when a job is sent: a new mail goes out at once, not on the next poll.
      useListenNotify: true,
      instanceName: 'cardportal',
      // The queue's own housekeeping (expiry, retention, index bloat) is pg-boss's: `supervise` stays on.
      persistWarnings: false,
    };
    let boss: PgBoss;
    if (database.kind === 'pglite' && database.pglite) {
      // The embedded database, in the process that owns it: pg-boss's own PGlite adapter, on the one
      // connection every query of this process shares (docs/jobs.md: why not over the socket).
      boss = new PgBoss({ ...common, backend: 'pglite', db: fromPglite(atomicBlocks(database.pglite)) });
    } else if (database.kind === 'postgres' && databaseUrl) {
      boss = new PgBoss({
        ...common,
        connectionString: databaseUrl,
        max: 3,
        application_name: 'cardportal-jobs',
        connectionTimeoutMillis: 5000,
      });
    } else {
      throw new Error(
        `The job queue needs the database itself (PostgreSQL or the embedded one), not ${database.kind}`,
      );
    }
    boss.on('error', (err: unknown) => log.warn({ err: { message: errorText(err) } }, 'job queue error'));
    boss.on('warning', (warning: { message?: string }) =>
      log.warn({ warning: warning.message }, 'job queue warning'),
    );
    await boss.start();
    try {
      for (const job of this.definitions.values()) {
        await boss.createQueue(job.name, {
          // One job per key waiting and one running (stately): a burst of sends queues one more pass.
          policy: 'stately',
          notify: true,
          retryLimit: 1,
          retryDelay: 5,
          expireInSeconds: 15 * 60,
          deleteAfterSeconds: 60 * 60,
        });
        await boss.work(
          job.name,
          {
            pollingIntervalSeconds: job.pollSeconds ?? 10,
            notifyPollingIntervalSeconds: job.pollSeconds ?? 10,
          },
          async () => {
            await this.run(job);
          },
        );
        if (job.cron) await boss.schedule(job.name, job.cron, null, { tz: 'UTC' });
        else await boss.unschedule(job.name);
        if (job.atStart) await boss.send(job.name, null, { singletonKey: 'now' });
      }
    } catch (error) {
      await boss.stop({ graceful: false, close: true }).catch(() => {});
      throw error;
    }
    this.boss = boss;
    log.debug({ jobs: this.names }, 'job queue started');
  }

  private async run(job: JobDefinition): Promise<void> {
    try {
      await job.run(this.options.app);
    } catch (error) {
      // The driver's message only (a Drizzle error's own message lists the query's parameters).
      this.options.log.warn({ job: job.name, err: { message: errorText(error) } }, 'job failed');
      throw new Error(`${job.name} failed: ${errorText(error)}`);
    }
  }

  /**
   * Queues a declared job (on whichever instance picks it up). Before `start()`, runs it at once in this
   * process instead, unless it asks for a later start (nothing would run it then: it is dropped, and the
   * job's schedule or the next send covers it).
   */
  async send(name: string, options: JobSendOptions = {}): Promise<void> {
    const job = this.definitions.get(name);
    if (!job) throw new Error(`No job named ${name}`);
    if (this.boss) {
      await this.boss.send(name, null, options);
      return;
    }
    if (options.startAfter !== undefined) return;
    await this.run(job);
  }

  /** Runs a declared job here and now, outside the queue (tests; an operator's command). */
  async runNow(name: string): Promise<void> {
    const job = this.definitions.get(name);
    if (!job) throw new Error(`No job named ${name}`);
    await this.run(job);
  }

  /** The underlying pg-boss instance, once started (tests inspect queues and schedules through it). */
  get pgBoss(): PgBoss | undefined {
    return this.boss;
  }

  /** Stops the workers and the schedules' checks, letting running jobs finish (up to `timeoutMs`). */
  async stop(timeoutMs = 10_000): Promise<void> {
    await this.starting?.catch(() => {});
    const boss = this.boss;
    this.boss = undefined;
    this.starting = undefined;
    await boss?.stop({ graceful: true, close: true, timeout: timeoutMs });
  }
}
