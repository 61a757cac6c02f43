import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * argon2id off the event loop, at a lower CPU priority than it (issue 6). One worker thread per core
 * runs the hashes (the synchronous functions of @node-rs/argon2, inside the worker); each worker lowers
 * its own thread's priority (nice +5), so when sign-ins saturate the cores the event loop — every
 * other request, the public JSON calls — still gets the CPU first, and hashing takes what is left.
 * Before, the hashes ran on libuv's pool of 4 threads at the event loop's own priority, on 2 cores.
 */

type Job =
  | { op: 'hash'; secret: string; options: object }
  | { op: 'verify'; encoded: string; secret: string };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
try {
  // This thread's id (Linux): a thread's nice value is its own, so only the hashing gets lower priority.
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) require('node:os').setPriority(tid, workerData.nice);
} catch {
  // Not Linux, or not allowed: the hashes still run off the event loop.
}
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'hash'
      ? argon2.hashSync(job.secret, job.options)
      : argon2.verifySync(job.encoded, job.secret);
    parentPort.postMessage({ id: job.id, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
`;

/**
 * Nice value of the hashing threads: below the event loop (0). At +5 the scheduler gives the event loop
 * about three times their share when both want a core; at +10 (ten times) the embedded mode, whose
 * event loop also runs the database, starved the hashes into a long latency tail at 70 % load.
 */
const HASH_NICE = 5;

class HashPool {
  private readonly idle: Worker[] = [];
  private readonly queue: { job: Job; pending: Pending }[] = [];
  private readonly inFlight = new Map<Worker, Pending>();
  private readonly size: number;
  private started = 0;
  private readonly argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2');

  constructor(size: number) {
    this.size = Math.max(1, size);
  }

  run<T>(job: Job): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, pending: { resolve: resolve as (v: unknown) => void, reject } });
      this.dispatch();
    });
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { argon2: this.argon2Path, nice: HASH_NICE },
      // A hash needs 19 MiB outside the JS heap; the worker's own heap stays small.
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
    });
    worker.on('message', (message: { value?: unknown; error?: string }) => {
      const pending = this.inFlight.get(worker);
      this.inFlight.delete(worker);
      if (pending) {
        if (message.error !== undefined) pending.reject(new Error(message.error));
        else pending.resolve(message.value);
      }
      this.release(worker);
    });
    const fail = (error: Error) => {
      const pending = this.inFlight.get(worker);
      this.inFlight.delete(worker);
      this.started--;
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      pending?.reject(error);
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.inFlight.has(worker) || this.idle.includes(worker))
        fail(new Error(`hash worker exited (${code})`));
    });
    this.started++;
    return worker;
  }

  private release(worker: Worker): void {
    // An idle worker does not keep the process alive (the CLI exits when its work is done).
    worker.unref();
    this.idle.push(worker);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const next = this.queue.shift();
      if (!next) {
        this.idle.push(worker);
        return;
      }
      worker.ref();
      this.inFlight.set(worker, next.pending);
      worker.postMessage({ id: 0, ...next.job });
    }
  }
}

let pool: HashPool | undefined;
let poolSize = availableParallelism();
const shared = (): HashPool => {
  pool ??= new HashPool(poolSize);
  return pool;
};

/**
 * The number of hashing threads of this process, before its first hash (server.ts: with several worker
 * processes each gets its share of the cores, `Config.hashThreads`). One per core otherwise.
 */
export function configureHashPool(size: number): void {
  if (pool) throw new Error('the hash pool is already running');
  poolSize = Math.max(1, size);
}

export function hashInPool(secret: string, options: object): Promise<string> {
  return shared().run<string>({ op: 'hash', secret, options });
}

export function verifyInPool(encoded: string, secret: string): Promise<boolean> {
  return shared().run<boolean>({ op: 'verify', encoded, secret });
}
