/**
 * Attack suite — user enumeration (DESIGN §5: unknown user IDs behave exactly like known ones), in the
 * account calls: change password and the two self-registrations. For a known and an unknown user ID
 * (card, invitation code), each call answers the same status and body shape, and the median times
 * differ by less than 10 % (support/enumeration-timing.ts). Runs in the vitest project server-timing-*,
 * after the main group, beside the other enumeration file and the other engine's two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SELF_REGISTRATION } from '../../src/demo/self-registration.ts';
import { DEMO_PASSWORD, TestClient, type TestContext } from '../harness.ts';
import { compare, HASHING_REPS, REPS, startWithUsers } from '../support/enumeration-timing.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startWithUsers(['enumknown1', 'enumknown2', 'enumself01']);
});
afterAll(() => ctx?.close());

describe('enumeration: change password and self-registration answer alike for known and unknown IDs and cards, in status, shape and time (DESIGN §5)', () => {
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
      // Both answer at the secret floor (40 ms): a few calls a try are enough.
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
