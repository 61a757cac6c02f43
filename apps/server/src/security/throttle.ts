import type { Redis } from 'ioredis';

/** Counting needs Redis and Redis did not answer: the caller fails closed. */
export class ThrottleUnavailable extends Error {
  constructor(cause: unknown) {
    super('The request counter is unavailable', { cause });
  }
}

export interface ThrottleResult {
  allowed: boolean;
  count: number;
  /** Seconds until the window ends (for Retry-After). */
  retryAfterS: number;
}

/** INCR with the window set on the first hit; answers the count and the window's remaining ms. */
const HIT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}
`;

/** How long a Redis round trip may take before the counter counts as unavailable. */
const REDIS_TIMEOUT_MS = 1000;
const MEMORY_SWEEP_AT = 10_000;

/**
 * Fixed-window request counters. With Redis they are global to every instance (DESIGN §6); an
 * unreachable Redis raises ThrottleUnavailable so that the throttle fails closed rather than letting
 * an attacker through while the counters are blind. Without Redis (one embedded instance) the counts
 * live in memory.
 */
export class Throttle {
  private readonly memory = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly prefix = 'cardportal:th:',
  ) {}

  async hit(key: string, max: number, windowMs: number): Promise<ThrottleResult> {
    const [count, ttlMs] = this.redis ? await this.hitRedis(key, windowMs) : this.hitMemory(key, windowMs);
    return { allowed: count <= max, count, retryAfterS: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }

  /** The count of a window without adding to it (0 when none is open), and the seconds it has left. */
  async peek(key: string): Promise<{ count: number; retryAfterS: number }> {
    let count = 0;
    let ttlMs = 0;
    if (this.redis) {
      const redis = this.redis;
      const [value, ttl] = await this.redisCall(
        Promise.all([redis.get(this.prefix + key), redis.pttl(this.prefix + key)]),
      );
      count = Number(value ?? 0);
      ttlMs = Math.max(0, ttl);
    } else {
      const entry = this.memory.get(key);
      if (entry && entry.resetAt > Date.now()) {
        count = entry.count;
        ttlMs = entry.resetAt - Date.now();
      }
    }
    return { count, retryAfterS: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }

  /**
   * Like `hit`, but when Redis does not answer it counts in this instance's memory instead: the
   * per-IP limits of ordinary calls stay on (per instance) while Redis is down.
   */
  async hitOrLocal(key: string, windowMs: number): Promise<[number, number]> {
    if (!this.redis) return this.hitMemory(key, windowMs);
    try {
      return await this.hitRedis(key, windowMs);
    } catch {
      return this.hitMemory(key, windowMs);
    }
  }

  private async hitRedis(key: string, windowMs: number): Promise<[number, number]> {
    const result = (await this.redisCall(
      (this.redis as Redis).eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs)),
    )) as [number, number];
    return [Number(result[0]), Number(result[1])];
  }

  /** A Redis round trip bounded by REDIS_TIMEOUT_MS; a failure or timeout is ThrottleUnavailable. */
  private async redisCall<T>(call: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        call,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('Redis timeout')), REDIS_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      throw new ThrottleUnavailable(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private hitMemory(key: string, windowMs: number): [number, number] {
    const now = Date.now();
    if (this.memory.size > MEMORY_SWEEP_AT) {
      for (const [k, v] of this.memory) if (v.resetAt <= now) this.memory.delete(k);
    }
    let entry = this.memory.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      this.memory.set(key, entry);
    }
    entry.count += 1;
    return [entry.count, entry.resetAt - now];
  }
}

/** What the plugin hands `child`: its merged route parameters, with the route under `routeInfo`. */
interface RateLimitRoute {
  routeInfo?: { method?: unknown; url?: unknown };
  method?: unknown;
  url?: unknown;
}
type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit over a Throttle: global through Redis, and on a Redis outage it falls
 * back to counting per instance (the plugin's own Redis store would fail every request, or with
 * skipOnError let every request through).
 */
export function rateLimitStore(throttle: Throttle, prefix = 'rl:') {
  return class FallbackStore {
    constructor(
      _options?: unknown,
      private readonly keyPrefix = prefix,
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      throttle.hitOrLocal(this.keyPrefix + key, timeWindow).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (error: Error) => callback(error),
      );
    }

    child(route: object): FallbackStore {
      const info = (route as RateLimitRoute).routeInfo ?? (route as RateLimitRoute);
      return new FallbackStore(undefined, `${this.keyPrefix}${String(info.method)}${String(info.url)}:`);
    }
  };
}
