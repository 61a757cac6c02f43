/**
 * Attack suite — account states do not leak (DESIGN §5). An inactive user answers sign-in and
 * forgot-password exactly as an unknown ID does, through the lock; forgot-password tells that a user
 * has never signed in only to someone who knew the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ANSWER } from '../../src/demo/load.ts';
import { createUser } from '../../src/modules/users/users.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  const base = { password: DEMO_PASSWORD, cobrand: 'cardportal', answer: DEMO_ANSWER };
  await createUser(ctx.app.db, {
    ...base,
    userId: 'stateinact1',
    email: 'i1@example.com',
    status: 'Inactive',
  });
  await createUser(ctx.app.db, {
    ...base,
    userId: 'stateinact2',
    email: 'i2@example.com',
    status: 'Inactive',
  });
  await createUser(ctx.app.db, { ...base, userId: 'statefirst1', email: 'f1@example.com', firstLogin: true });
});
afterAll(() => ctx?.close());

const answerOf = (res: { statusCode: number; body: string }) =>
  res.statusCode === 401 ? '401' : res.body.includes('/locked') ? 'locked' : `${res.statusCode} ${res.body}`;

describe('inactive users are indistinguishable from unknown IDs', () => {
  it('sign-in: the same answers, attempt by attempt, through the lock — even with the right password', async () => {
    const inactive: string[] = [];
    const unknown: string[] = [];
    for (let i = 0; i < 8; i++) {
      inactive.push(answerOf(await new TestClient(ctx.app).login('stateinact1', DEMO_PASSWORD)));
      unknown.push(answerOf(await new TestClient(ctx.app).login('stateghost1', DEMO_PASSWORD)));
    }
    expect(inactive).toEqual(unknown);
    expect(unknown).toEqual(['401', '401', '401', '401', '401', 'locked', 'locked', 'locked']);
  });

  it('forgot password: the same answers, attempt by attempt, even with the right answer', async () => {
    const codes = async (userId: string) => {
      const out: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await new TestClient(ctx.app).postJson(
          '/services/authentication-service/public/forgotPassword',
          {
            userId,
            securityQuestion: { questionId: 'q1', questionResponse: DEMO_ANSWER },
          },
        );
        out.push(`${res.statusCode} ${res.json().code}`);
      }
      return out;
    };
    const inactive = await codes('stateinact2');
    expect(inactive).toEqual(await codes('stateghost2'));
    expect(inactive.at(-1)).toMatch(/ user.locked$/);
  });
});

describe('forgot password before a first sign-in', () => {
  it('answers a wrong answer as for anyone, and refuses the reset only after the right one', async () => {
    const post = (userId: string, answer: string) =>
      new TestClient(ctx.app).postJson('/services/authentication-service/public/forgotPassword', {
        userId,
        securityQuestion: { questionId: 'q1', questionResponse: answer },
      });
    const wrong = await post('statefirst1', 'Not the answer');
    const ghost = await post('stateghost3', 'Not the answer');
    expect(wrong.statusCode).toBe(ghost.statusCode);
    expect(wrong.json().code).toBe('answer.wrong');
    expect(ghost.json().code).toBe('answer.wrong');
    const right = await post('statefirst1', DEMO_ANSWER);
    expect(right.json().code).toBe('forgot.firstLogin');
  });
});

describe('each call takes one body type (ASVS V13.1.5, V13.2.5)', () => {
  it('refuses a form body on a JSON call and a JSON body on the sign-in form, with 415', async () => {
    const client = new TestClient(ctx.app);
    const form = await client.request({
      method: 'POST',
      url: '/sdportal/rest/user/loginSignin',
      payload: 'userId=active01',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().message).toMatch(/application\/json/);
    const json = await client.request({
      method: 'POST',
      url: '/heracles/login',
      payload: JSON.stringify({ username: 'active01', password: DEMO_PASSWORD }),
      headers: { 'content-type': 'application/json' },
    });
    expect(json.statusCode).toBe(415);
    // The right types still work.
    expect(
      (await client.postJson('/sdportal/rest/user/loginSignin', { userId: 'active01' })).statusCode,
    ).toBe(200);
    expect((await client.login('active01', DEMO_PASSWORD)).body).toBe('/app/');
  });

  it('serves no dot-files from the static folders (ASVS V4.3.2)', async () => {
    for (const url of [
      '/sdportal/portalstatic/assets/.gitkeep',
      '/sdportal/portalstatic/assets/.env',
      '/app/assets/.env',
      '/sdportal/portalstatic/assets/../../package.json',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect([403, 404], url).toContain(res.statusCode);
    }
  });
});
