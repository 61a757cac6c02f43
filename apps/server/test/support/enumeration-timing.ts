/**
 * The timing comparison of the enumeration suites (`attacks/enumeration-*.timing.test.ts`, DESIGN §5):
 * for a known and an unknown user ID, each call answers the same status and body shape, and the median
 * times of 30 interleaved tries differ by less than 10 %. A try is a few calls of each side, alternating
 * one by one (HASHING_REPS for the calls that hash, REPS for the quick ones), so that scheduler jitter
 * does not drown the difference being measured.
 */
import { performance } from 'node:perf_hooks';
import { expect } from 'vitest';
import { DEMO_ANSWER } from '../../src/demo/load.ts';
import { createUser } from '../../src/modules/users/users.ts';
import { DEMO_PASSWORD, startTestApp, type TestContext } from '../harness.ts';

const TRIES = 30;
const MAX_DIFFERENCE = 0.1;
export const REPS = 10;
/** Calls that hash (argon2id, tens of ms) are a few calls a try: thread-pool jitter averages out. */
export const HASHING_REPS = 3;

/** A test server with the known users the comparisons name. */
export async function startWithUsers(userIds: string[]): Promise<TestContext> {
  const ctx = await startTestApp();
  for (const userId of userIds) {
    await createUser(ctx.app.db, {
      userId,
      email: `${userId}@example.com`,
      password: DEMO_PASSWORD,
      cobrand: 'cardportal',
      answer: DEMO_ANSWER,
    });
  }
  return ctx;
}

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
export async function compare(
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
