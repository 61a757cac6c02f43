import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

/**
 * The sign-in's prepared statements (db/prepared.ts, issue 19) live on the pool's connections. Another
 * instance deploying runs its migrations while this one serves: a statement selecting `*` would then fail
 * on every connection that prepared it ("cached plan must not change result type"). Ours name their
 * columns, so a new column in `users`, `sessions` or `audit_events` changes nothing.
 */
describe('prepared statements of the sign-in (PostgreSQL)', () => {
  it('keep signing in after a migration adds columns while the server runs', async () => {
    const signIn = async () => {
      const client = new TestClient(ctx.app);
      await client.postJson('/sdportal/rest/user/loginSignin', { userId: 'active01' });
      return (await client.login('active01', DEMO_PASSWORD)).body;
    };
    // Five at once (below the six guesses a user may have in flight): five connections prepare them, and
    // the pool hands the same ones out again (its idle clients are reused last in, first out).
    const fiveAtOnce = async () => {
      for (const answer of await Promise.all(Array.from({ length: 5 }, signIn))) expect(answer).toBe('/app/');
    };
    await fiveAtOnce();
    await ctx.app.db.execute(sql`alter table users add column added_by_a_migration integer`);
    await ctx.app.db.execute(sql`alter table sessions add column added_by_a_migration integer`);
    await ctx.app.db.execute(sql`alter table audit_events add column added_by_a_migration integer`);
    await fiveAtOnce();
    await fiveAtOnce();
  });
});
