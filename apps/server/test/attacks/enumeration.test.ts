/**
 * Attack suite — user enumeration through the answers themselves (issue 13 item 2; the times are
 * compared in enumeration-*.timing.test.ts). Before sign-in no answer may differ between an existing and
 * an unknown user ID: status, headers, cookies, body shape and the distribution of its values.
 */
import { canonicalUserId } from '@cardportal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { DEMO_TOKEN_PIN, DEMO_TOKEN_SECRET } from '../../src/demo/load.ts';
import { tokencodeAt } from '../../src/modules/token/soft-token.ts';
import { newLdapId } from '../../src/security/crypto.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  // An inactive user answers as an unknown one everywhere else; the descriptor must not tell either.
  await ctx.app.db.update(users).set({ status: 'Inactive' }).where(eq(users.userId, 'firstlog01'));
});
afterAll(() => ctx?.close());

/** Demo users of every login type and status, and unknown IDs of the same lengths. */
const KNOWN = ['active01', 'otpuser01', 'token01', 'locked01', 'ssouser01', 'firstlog01', 'sysadmin01'];
const UNKNOWN = ['ghost001', 'nobody001', 'phantom', 'vacant001', 'absent001', 'missing001', 'unknown001'];

type Answer = Awaited<ReturnType<TestClient['postJson']>>;

async function descriptor(userId: string): Promise<Answer> {
  return new TestClient(ctx.app).postJson('/sdportal/rest/user/loginSignin', { userId });
}

/** Everything of an answer but what must differ by ID: header values that vary per request. */
function envelope(answer: Answer) {
  const headers = Object.fromEntries(
    Object.entries(answer.headers)
      .filter(([name]) => !['date', 'content-length', 'set-cookie'].includes(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const cookies = (answer.cookies as { name: string; value: string }[])
    .map(({ value: _value, ...attributes }) => attributes)
    .sort((a, b) => a.name.localeCompare(b.name));
  const body = answer.json() as Record<string, string>;
  return {
    status: answer.statusCode,
    headers,
    cookies,
    keys: Object.keys(body).sort(),
    loginType: body.loginType,
    lengths: Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v.length : -1]),
    ),
  };
}

describe('login descriptor: an existing ID answers as an unknown one', () => {
  it('same status, headers, cookies, body shape and login type for every login type and status', async () => {
    const reference = envelope(await descriptor('active01'));
    const mask = (id: string, e: ReturnType<typeof envelope>) => ({
      ...e,
      // The alias carries the ID itself (as typed, canonical): its length follows the ID's.
      lengths: { ...e.lengths, b2BAlias: (e.lengths.b2BAlias ?? 0) - canonicalUserId(id).length },
    });
    const expected = mask('active01', reference);
    for (const userId of [...KNOWN, ...UNKNOWN]) {
      const answer = await descriptor(userId);
      expect(mask(userId, envelope(answer)), userId).toEqual(expected);
      const body = answer.json();
      expect(body.loginType, userId).toBe('pwd');
      expect(body.ldapId, userId).toMatch(/^ldap-[A-Za-z0-9]{16}$/);
      expect(body.b2BAlias, userId).toBe(`b2b-${canonicalUserId(userId)}`);
    }
  });

  it('still leads an e-mailed-code user and a token user to their second step after the first factor', async () => {
    const otp = new TestClient(ctx.app);
    const otpAnswer = await otp.login('otpuser01', DEMO_PASSWORD);
    expect(otpAnswer.statusCode).toBe(200);
    expect(otpAnswer.body).toMatch(/\/sdportal\/portalstatic\/otp\?/);
    // The token user's first factor is PIN + tokencode in the same password field.
    const token = await new TestClient(ctx.app).login(
      'token01',
      `${DEMO_TOKEN_PIN}${tokencodeAt(DEMO_TOKEN_SECRET, Date.now())}`,
    );
    expect(token.statusCode).toBe(200);
    expect(token.body).toMatch(/\/sdportal\/portalstatic\/new-pin/);
  });

  it('an ldap id of a user and a decoy are drawn from one distribution', () => {
    // Character frequencies of 4,000 new users' ids against 4,000 decoys: a two-sample chi-square over
    // the 62 alphanumerics (61 degrees of freedom: 115 is beyond the 0.01 % critical value, 112; the
    // decoys of before, base64 letters against the users' modulo mapping, scored 270 on average).
    const count = (ids: string[]) => {
      const counts = new Map<string, number>();
      for (const id of ids) for (const c of id.slice(5)) counts.set(c, (counts.get(c) ?? 0) + 1);
      return counts;
    };
    const real = count(Array.from({ length: 4000 }, () => newLdapId()));
    const decoys = count(
      Array.from({ length: 4000 }, (_, i) => ctx.app.login.descriptor(`probe${i}x${Math.random()}`).ldapId),
    );
    let chiSquare = 0;
    for (const c of new Set([...real.keys(), ...decoys.keys()])) {
      const r = real.get(c) ?? 0;
      const d = decoys.get(c) ?? 0;
      chiSquare += (r - d) ** 2 / (r + d);
    }
    expect(chiSquare).toBeLessThan(115);
  });
});
