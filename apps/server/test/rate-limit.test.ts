import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  // Per-IP limits kept in Redis, shared by every instance (DESIGN §2).
  ctx = await startTestApp({ RATE_LIMITS: 'on', REDIS_URL });
});
afterAll(() => ctx?.close());

describe('per-IP rate limits', () => {
  it('answers 429 with Retry-After once an address exceeds the sign-in limit', async () => {
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    await ctx.services.redis?.flushdb();
    const client = new TestClient(ctx.app, ip);
    let limited: Awaited<ReturnType<TestClient['login']>> | undefined;
    for (let i = 0; i < 70 && !limited; i++) {
      const res = await client.login(`nobody${i}xx`, 'x');
      if (res.statusCode === 429) limited = res;
    }
    expect(limited).toBeDefined();
    expect(limited?.headers['retry-after']).toBeDefined();
    expect(limited?.json().code).toBe('rate.limited');
    // Another address is not affected.
    const other = await new TestClient(ctx.app, '10.8.0.1').login('nobody', 'x');
    expect(other.statusCode).toBe(401);
  });
});
