/**
 * Attack suite — user enumeration (DESIGN §5: unknown user IDs behave exactly like known ones), on the
 * way in: sign-in, its descriptor, the security question and the forgotten password. For a known and an
 * unknown user ID, each call answers the same status and body shape, and the median times differ by
 * less than 10 % (support/enumeration-timing.ts). Runs in the vitest project server-timing-*, after the
 * main group, beside the other enumeration file and the other engine's two.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { TestClient, type TestContext } from '../harness.ts';
import { compare, HASHING_REPS, REPS, startWithUsers } from '../support/enumeration-timing.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startWithUsers(['enumknown1', 'enumknown2', 'enumknown3', 'enumknown4']);
});
afterAll(() => ctx?.close());

describe('enumeration: sign-in and forgotten password answer alike for known and unknown user IDs, in status, shape and time (DESIGN §5)', () => {
  it('sign-in (/heracles/login), through the lock and past it', async () => {
    await compare(
      (userId, i) => new TestClient(ctx.app, `10.31.0.${(i + 2) % 250}`).login(userId, `Wrong-pass-${i}`),
      'enumknown1',
      'enumghost1',
      HASHING_REPS,
    );
  });

  it('login descriptor (loginSignin)', async () => {
    const client = new TestClient(ctx.app, '10.32.0.1');
    await compare(
      (userId) => client.postJson('/sdportal/rest/user/loginSignin', { userId }),
      'enumknown2',
      'enumghost2',
      REPS,
    );
  });

  it('security question', async () => {
    const client = new TestClient(ctx.app, '10.33.0.1');
    await compare(
      (userId) => client.postJson('/cpae/public/users/securityquestions', { userId, locale: 'en_US' }),
      'enumknown3',
      'enumghost3',
      REPS,
    );
  });

  it('forgot password (wrong answers, through the lock)', async () => {
    const client = new TestClient(ctx.app, '10.34.0.1');
    await compare(
      (userId, i) =>
        client.postJson('/services/authentication-service/public/forgotPassword', {
          userId,
          securityQuestion: { questionId: 'q1', questionResponse: `Not the answer ${i}` },
        }),
      'enumknown4',
      'enumghost4',
      HASHING_REPS,
    );
  });
});
