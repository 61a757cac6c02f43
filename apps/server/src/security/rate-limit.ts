import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { rateLimitStore, Throttle } from './throttle.ts';

/** The global rate limit (600 a minute per client), unless RATE_LIMITS=off. */
export async function registerRateLimit(app: FastifyInstance, config: Config, redis?: Redis): Promise<void> {
  if (config.rateLimits) {
    await app.register(fastifyRateLimit, {
      global: true,
      max: 600,
      timeWindow: '1 minute',
      // Global through Redis; per instance while Redis is down (security/throttle.ts).
      store: rateLimitStore(new Throttle(redis, 'cardportal:rl:'), ''),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        code: 'rate.limited',
        message: `Too many requests: try again in ${Math.ceil(context.ttl / 1000)} seconds`,
      }),
    });
  }
}
