/**
 * The access log at the production level (info): one line per request, except the public cacheable
 * reads every page load makes, which succeed quickly and go to debug (docs/security.md, Logs).
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
let log = '';
const logStream = new Writable({
  write(chunk, _encoding, done) {
    log += chunk.toString();
    done();
  },
});

beforeAll(async () => {
  ctx = await startTestApp({ LOG_LEVEL: 'info' }, { logStream });
});
afterAll(async () => {
  await ctx?.close();
});

/** The access-log lines since `from`, as `METHOD path status`. */
function accessLines(from: number): string[] {
  return log
    .slice(from)
    .split('\n')
    .filter((line) => line.includes('"msg":"request completed"'))
    .map((line) => {
      const entry = JSON.parse(line) as { req: { method: string; url: string }; res: { statusCode: number } };
      return `${entry.req.method} ${entry.req.url} ${entry.res.statusCode}`;
    });
}

describe('access log at info', () => {
  it('logs sign-in calls, application calls and errors, not the routine public reads', async () => {
    const client = new TestClient(ctx.app);
    const from = log.length;
    await client.get('/sdportal/rest/cobrand/cardportal');
    await client.get('/sdportal/portalstatic/assets/i18n/en_US/Messages.json');
    await client.get('/healthz');
    await client.get('/sdportal/rest/cobrand/no-such-brand');
    await client.postJson('/sdportal/rest/user/loginSignin', { userId: 'active01' });
    await client.get('/app/api/me');
    await new Promise((r) => setTimeout(r, 50));
    expect(accessLines(from)).toEqual([
      'GET /sdportal/rest/cobrand/no-such-brand 404',
      'GET /sdportal/rest/csrf 200',
      'POST /sdportal/rest/user/loginSignin 200',
      'GET /app/api/me 401',
    ]);
    // Never a header, a cookie or a query string.
    expect(log).not.toMatch(/cpsid=|sec-token=|"cookie"/i);
  });
});
