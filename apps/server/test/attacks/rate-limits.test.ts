/**
 * Attack suite — request limits. Per-IP limits (every call, tighter on the sign-in calls) and per-user
 * limits (calls naming one user ID, across all addresses) answer 429 with Retry-After, in Redis so that
 * every instance shares them. When Redis is down, sign-in throttling fails closed (503) while ordinary
 * calls keep a per-instance limit, and both recover by themselves when Redis returns.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { USER_LIMIT } from '../../src/http/user-limit.ts';
import { DEMO_PASSWORD, REDIS_URL, startTestApp, TestClient, type TestContext } from '../harness.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';

const redisPort = Number(new URL(REDIS_URL).port);
const proxy = new TcpProxy(redisPort);
let ctx: TestContext;
/** Addresses unique to this run, so counters left in the shared Redis by other runs do not matter. */
const run = Math.floor(Math.random() * 200) + 20;
let nextHost = 1;
const freshIp = () => `10.${run}.${Math.floor(nextHost / 250)}.${(nextHost++ % 250) + 1}`;

beforeAll(async () => {
  await proxy.start();
  ctx = await startTestApp({ RATE_LIMITS: 'on', REDIS_URL: `redis://${proxy.url}` });
});
afterEach(async () => {
  await proxy.start().catch(() => {});
});
afterAll(async () => {
  await ctx?.close();
  await proxy.stop();
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('rate limits answer 429 with Retry-After (ASVS V2.2.1, V11.1.4)', () => {
  it('per IP: one address exceeding the sign-in limit, other addresses unaffected', async () => {
    const client = new TestClient(ctx.app, freshIp());
    let limited: Awaited<ReturnType<TestClient['login']>> | undefined;
    for (let i = 0; i < 70 && !limited; i++) {
      const res = await client.login(`nobody${run}x${i}`, 'x');
      if (res.statusCode === 429) limited = res;
    }
    expect(limited?.statusCode).toBe(429);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited?.json().code).toBe('rate.limited');
    const other = await new TestClient(ctx.app, freshIp()).login(`nobody${run}y`, 'x');
    expect(other.statusCode).toBe(401);
  });

  it('per user ID: one ID probed from many addresses, known and unknown alike', async () => {
    for (const userId of ['active01', `ghost${run}zz`]) {
      const answers: number[] = [];
      let limited: Awaited<ReturnType<TestClient['postJson']>> | undefined;
      for (let i = 0; i <= USER_LIMIT.max + 2; i++) {
        const res = await new TestClient(ctx.app, freshIp()).postJson('/sdportal/rest/user/loginSignin', {
          userId: `  ${i % 2 ? userId.toUpperCase() : userId} `,
        });
        answers.push(res.statusCode);
        if (res.statusCode === 429) limited ??= res;
      }
      // The first USER_LIMIT.max calls pass, the rest are refused, whatever the spelling of the ID.
      expect(answers.slice(0, USER_LIMIT.max).every((s) => s === 200)).toBe(true);
      expect(answers.slice(USER_LIMIT.max).every((s) => s === 429)).toBe(true);
      expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited?.json().message).toMatch(/too many requests/i);
      // The same ID is refused on the other calls that name it too, and the sign-in itself.
      const login = await new TestClient(ctx.app, freshIp()).login(userId, DEMO_PASSWORD);
      expect(login.statusCode).toBe(429);
      const question = await new TestClient(ctx.app, freshIp()).postJson(
        '/cpae/public/users/securityquestions',
        {
          userId,
        },
      );
      expect(question.statusCode).toBe(429);
    }
    // Another ID is not affected.
    const other = await new TestClient(ctx.app, freshIp()).login('otpuser01', DEMO_PASSWORD);
    expect(other.statusCode).toBe(200);
  });
});

describe('Redis down: limits fall back safely and recover (DESIGN §6)', () => {
  it('fails closed for sign-in throttling, keeps ordinary calls limited per instance, recovers', async () => {
    const ip = freshIp();
    const before = await new TestClient(ctx.app, ip).login('firstlog01', DEMO_PASSWORD);
    expect(before.statusCode).toBe(200);

    await proxy.stop();
    // Sign-in calls that name a user cannot be counted: refused with 503 and Retry-After, not let through.
    const descriptor = await new TestClient(ctx.app, freshIp()).postJson('/sdportal/rest/user/loginSignin', {
      userId: 'expired01',
    });
    expect(descriptor.statusCode).toBe(503);
    expect(descriptor.headers['retry-after']).toBeDefined();
    expect(descriptor.json().message).toMatch(/temporarily unavailable/i);
    const login = await new TestClient(ctx.app, freshIp()).login('expired01', DEMO_PASSWORD);
    expect(login.statusCode).toBe(503);
    // Ordinary public calls still answer, and are still limited per address (in this instance's memory).
    const client = new TestClient(ctx.app, freshIp());
    const statuses: number[] = [];
    for (let i = 0; i < 605; i++)
      statuses.push((await client.get('/sdportal/rest/cobrand/cardportal')).statusCode);
    expect(statuses.slice(0, 600).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(600).every((s) => s === 429)).toBe(true);
    // Readiness reports Redis.
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().redis).toBe('unavailable');

    await proxy.start();
    // Recovery without a restart.
    const after = await until('sign-in to recover', async () => {
      const res = await new TestClient(ctx.app, freshIp()).login('expired01', DEMO_PASSWORD);
      return res.statusCode === 503 ? undefined : res;
    });
    expect(after.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});
