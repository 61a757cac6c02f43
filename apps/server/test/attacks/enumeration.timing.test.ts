/**
 * Attack suite — user enumeration (DESIGN §5: unknown user IDs behave exactly like known ones). For a
 * known and an unknown user ID, each call answers the same status and body shape, and the median times
 * of 30 interleaved tries differ by less than 10 %. A try is a few calls of each side, alternating one
 * by one (HASHING_REPS for the calls that hash, REPS for the quick ones), so that scheduler jitter does
 * not drown the difference being measured. The file runs alone (vitest project server-timing-*).
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ANSWER } from '../../src/demo/load.ts';
import { DEMO_SELF_REGISTRATION } from '../../src/demo/self-registration.ts';
import { createUser } from '../../src/modules/users/users.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

const TRIES = 30;
const MAX_DIFFERENCE = 0.1;
const REPS = 10;
/** Calls that hash (argon2id, tens of ms) are a few calls a try: thread-pool jitter averages out. */
const HASHING_REPS = 3;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp();
  for (const userId of ['enumknown1', 'enumknown2', 'enumknown3', 'enumknown4', 'enumself01']) {
    await createUser(ctx.app.db, {
      userId,
      email: `${userId}@example.com`,
      password: DEMO_PASSWORD,
      cobrand: 'cardportal',
      answer: DEMO_ANSWER,
    });
  }
});
afterAll(() => ctx?.close());

type Answer = { statusCode: number; body: string; headers: Record<string, unknown> };

/** The shape of a body: JSON keys and value types (recursively), or the text itself for text answers. */
function shape(answer: Answer): unknown {
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.includes('json')) return { type, text: answer.body };
  const walk = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(walk)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, walk(x)]),
          )
        : typeof v;
  return { type, json: walk(JSON.parse(answer.body)) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/**
 * Runs `call` for the known and the unknown ID alternately, checks that each pair answers alike, and
 * compares the median times of the tries.
 */
async function compare(
  call: (userId: string, i: number) => Promise<Answer>,
  known: string,
  unknown: string,
  reps = 1,
) {
  // Warm-up on both real paths: the first calls pay for compilation, query plans and caches.
  for (let w = 0; w < Math.max(2, reps); w++) {
    await call(known, -1);
    await call(unknown, -1);
  }
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < TRIES; i++) {
    const spent = { known: 0, unknown: 0 };
    const answers: Partial<Record<'known' | 'unknown', Answer>> = {};
    // Calls alternate one by one (and which goes first alternates), so a burst of machine noise falls
    // on both sides alike.
    for (let r = 0; r < reps; r++) {
      const order = (i + r) % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
      for (const which of order) {
        const start = performance.now();
        answers[which] = await call(which === 'known' ? known : unknown, i);
        spent[which] += performance.now() - start;
      }
    }
    times.known.push(spent.known / reps);
    times.unknown.push(spent.unknown / reps);
    const a = answers.known as Answer;
    const b = answers.unknown as Answer;
    expect(b.statusCode, `try ${i}: status`).toBe(a.statusCode);
    expect(shape(b), `try ${i}: body shape`).toEqual(shape(a));
    expect(a.statusCode).toBeLessThan(500);
  }
  const mk = median(times.known);
  const mu = median(times.unknown);
  const difference = Math.abs(mk - mu) / Math.min(mk, mu);
  expect(difference, `median ${mk.toFixed(2)} ms (known) vs ${mu.toFixed(2)} ms (unknown)`).toBeLessThan(
    MAX_DIFFERENCE,
  );
  return { known: mk, unknown: mu };
}

describe('enumeration: known and unknown user IDs answer alike, in status, shape and time (DESIGN §5)', () => {
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

  it('change password (a signed-in user naming another, known or unknown, ID)', async () => {
    const client = new TestClient(ctx.app, '10.35.0.1');
    expect((await client.login('enumself01', DEMO_PASSWORD)).body).toBe('/app/');
    await compare(
      (userId) =>
        client.postJson('/services/authentication-service/public/changePassword', {
          userId,
          oldCredential: DEMO_PASSWORD,
          newCredential: 'Another-pass-2027',
        }),
      'enumknown1',
      'enumghost5',
      REPS,
    );
    // Without a session, both answer 401 alike.
    const anonymous = new TestClient(ctx.app, '10.35.0.2');
    await compare(
      (userId) =>
        anonymous.postJson('/services/authentication-service/public/changePassword', {
          userId,
          oldCredential: DEMO_PASSWORD,
          newCredential: 'Another-pass-2027',
        }),
      'enumknown2',
      'enumghost6',
      REPS,
    );
  });

  it('cardholder self-registration: a known card with a wrong expiry and an unknown card, through the lock', async () => {
    const demo = DEMO_SELF_REGISTRATION;
    await compare(
      (card, i) =>
        new TestClient(ctx.app, `10.36.0.${(i + 2) % 250}`).postJson(
          '/sdportal/rest/registration/cardholder',
          {
            cardNumber: card,
            companyCode: demo.code,
            expiry: '01/31',
            userId: `enumreg${i + 2}`,
            email: 'enum@example.com',
            emailConfirm: 'enum@example.com',
          },
        ),
      demo.cardNumber,
      '5424180008000025',
      // Both answer at the secret floor (a quarter second): a few calls a try are enough.
      HASHING_REPS,
    );
  });

  it('company self-registration: a known code with a wrong name and an unknown code, through the lock', async () => {
    const demo = DEMO_SELF_REGISTRATION.invitation;
    await compare(
      (code, i) =>
        new TestClient(ctx.app, `10.37.0.${(i + 2) % 250}`).postJson('/sdportal/rest/registration/company', {
          code,
          companyName: `Not the company ${i}`,
          companyName2: '',
          firstName: 'Enum',
          lastName: 'Company',
          userId: `enumco${i + 2}`,
          email: 'enum@example.com',
          emailConfirm: 'enum@example.com',
          cobrandName: 'banconorte',
        }),
      demo.code,
      '11223344',
      HASHING_REPS,
    );
  });
});
