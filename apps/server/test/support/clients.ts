import { expect } from 'vitest';
import { DEMO_PASSWORD, TestClient, type TestContext } from '../harness.ts';

/**
 * Signed-in demo users for a test file: each user ID signs in once (with the demo password) and keeps
 * its session; `send` writes JSON with the session's CSRF handling, `get` reads. `ctx` is read lazily
 * (the file's `beforeAll` starts the application).
 */
export function signedInClients(ctx: () => TestContext) {
  const clients = new Map<string, TestClient>();
  const as = async (userId: string): Promise<TestClient> => {
    let client = clients.get(userId);
    if (!client) {
      client = new TestClient(ctx().app);
      const res = await client.login(userId, DEMO_PASSWORD);
      expect(res.body, `${userId} signs in`).toBe('/app/');
      clients.set(userId, client);
    }
    return client;
  };
  const send = async (
    userId: string,
    method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ) =>
    (await as(userId)).request({
      method,
      url,
      ...(body === undefined
        ? {}
        : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  const get = async (userId: string, url: string) => (await as(userId)).get(url);
  return { as, send, get };
}

/** A card number of `length` digits starting with `prefix`, with a right Luhn check digit; `seed` varies the rest. */
export function cardNumber(prefix: string, seed: number, length = 16): string {
  let body = prefix;
  let n = seed;
  while (body.length < length - 1) {
    n = (n * 31 + 17) % 1000;
    body += String(n % 10);
  }
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}
