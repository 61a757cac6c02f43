import { emptyObjectSchema, healthSchema, readinessSchema } from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';

/** Liveness and readiness (DESIGN §3). */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/healthz',
    { schema: { querystring: emptyObjectSchema, response: { 200: healthSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    },
  );

  const readiness = {
    querystring: emptyObjectSchema,
    response: { 200: readinessSchema, 503: readinessSchema },
  };
  app.get('/readyz', { schema: readiness }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const checks: Record<string, string> = {};
    let ready = true;
    const withTimeout = <T>(p: Promise<T>) =>
      Promise.race([
        p,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
      ]);
    try {
      await withTimeout(app.database.ping());
      checks.database = 'ok';
    } catch {
      checks.database = 'unavailable';
      ready = false;
    }
    if (app.redis) {
      try {
        await withTimeout(app.redis.ping());
        checks.redis = 'ok';
      } catch {
        checks.redis = 'unavailable';
        ready = false;
      }
    }
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', ...checks });
  });
}
