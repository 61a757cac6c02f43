import { Writable } from 'node:stream';
import type { AccountDetail, SelfRegistrationSettings } from '@cardportal/domain';
import { SELF_REGISTRATION_MAX_ATTEMPTS } from '@cardportal/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  auditEvents,
  cardholders,
  companies,
  mailOutbox,
  orgPoints,
  programOptions,
  users,
} from '../src/db/schema.ts';
import { DEMO_SELF_REGISTRATION } from '../src/demo/self-registration.ts';
import { issueAccount } from '../src/modules/accounts/index.ts';
import { startTestApp, TestClient, type TestContext } from './harness.ts';
import { cardNumber, signedInClients } from './support/clients.ts';

/**
 * Cardholder self-registration (issue 18 item 2, docs/self-registration.md): a cardholder proves a card
 * (number, the company's corporate code, the card's expiry) and becomes a user in first-login state with
 * a first password by mail; failed proofs of a known card lock its registration until an administrator
 * unlocks it; no answer tells an unknown card from a wrong code or expiry, a locked card or a switched-off
 * option.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);
const PATH = '/sdportal/rest/registration/cardholder';
const DEMO = DEMO_SELF_REGISTRATION;
const NORTE = '/app/api/org/companies/200001';

/** Every log line of the file's server, at the most verbose level: no card number or code may be in it. */
let log = '';
const logStream = new Writable({
  write(chunk, _encoding, done) {
    log += chunk.toString();
    done();
  },
});

beforeAll(async () => {
  ctx = await startTestApp({ LOG_LEVEL: 'trace' }, { logStream });
});
afterAll(async () => {
  await ctx?.close();
});

let seq = 0;
/** A form for the card; a fresh user ID and address unless given. */
function form(card: string, more: Record<string, string> = {}) {
  seq += 1;
  const email = `selfreg${seq}@example.com`;
  return {
    cardNumber: card,
    companyCode: DEMO.code,
    expiry: DEMO.expiry,
    userId: `selfreg${seq}x`,
    email,
    emailConfirm: email,
    locale: 'en_US',
    ...more,
  };
}

const register = (body: unknown, ip = '10.9.0.1') => new TestClient(ctx.app, ip).postJson(PATH, body);

/** A new cardholder of Norte with a card (no user), as the bank would have issued it. */
async function newCardholderWithCard(n: number, expiry: string | null = DEMO.expiry) {
  const [company] = await ctx.app.db.select().from(companies).where(eq(companies.number, DEMO.company));
  const [point] = await ctx.app.db.select().from(orgPoints).where(eq(orgPoints.number, DEMO.orgPoint));
  const [holder] = await ctx.app.db
    .insert(cardholders)
    .values({
      companyId: company?.id as number,
      orgPointId: point?.id ?? null,
      name1: 'Test',
      name2: `Holder${n}`,
    })
    .returning();
  // cardNumber varies its digits by the seed's last digit alone: a prefix per card keeps them apart.
  const number = cardNumber(`5424187${n}`, n);
  const issued = await ctx.app.db.transaction((tx) =>
    issueAccount(tx, ctx.app.secrets.cards, {
      companyId: company?.id as number,
      cardholderId: holder?.id as number,
      groupId: null,
      number,
      expiry,
    }),
  );
  expect(issued.problem).toBeUndefined();
  return { number, accountId: issued.accountId as number, cardholderId: holder?.id as number };
}

async function lastAudit(event: string) {
  const [row] = await ctx.app.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.event, event))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row;
}

async function mailBody(recipient: string): Promise<string> {
  const [mail] = await ctx.app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, 'first-password'), eq(mailOutbox.recipient, recipient)))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  return mail?.body ?? '';
}

const NOT_VERIFIED = { statusCode: 422, code: 'registration.notVerified' };
const outcome = (res: { statusCode: number; json: () => unknown }) => ({
  statusCode: res.statusCode,
  code: (res.json() as { code: string }).code,
});

describe('cardholder self-registration', () => {
  it('registers the demo cardholder: a type-A user of his cardholder in first-login state, the first password by mail, then signs in to change it', async () => {
    const body = form(DEMO.cardNumber.replace(/(\d{4})(?=\d)/g, '$1 '), { userId: 'mateoruiz' });
    const res = await register(body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const [user] = await ctx.app.db.select().from(users).where(eq(users.userId, 'mateoruiz'));
    expect(user).toMatchObject({
      userType: 'A',
      firstLogin: true,
      status: 'Active',
      firstName: 'Mateo',
      lastName: 'Ruiz',
      email: body.email,
      cobrand: 'banconorte',
    });
    const [holder] = await ctx.app.db
      .select()
      .from(cardholders)
      .where(eq(cardholders.id, user?.cardholderId ?? 0));
    expect(holder?.name2).toBe('Ruiz');
    const mail = await mailBody(body.email);
    const password = /First password: (\S+)/.exec(mail)?.[1];
    expect(password, mail).toBeTruthy();
    const audit = await lastAudit('registration.cardholderRegistered');
    expect(audit?.userPk).toBe(user?.id);
    expect(JSON.stringify(audit)).not.toContain(DEMO.cardNumber);
    expect(JSON.stringify(audit)).not.toContain(DEMO.code);
    // The first sign-in asks for a new password (first-login state).
    const client = new TestClient(ctx.app, '10.9.0.2');
    const signin = await client.login('mateoruiz', password as string);
    expect(signin.statusCode).toBe(200);
    expect(signin.body).toMatch(/\/sdportal\/portalstatic\/change-password/);
    // The same card again: proven, but its cardholder has a user already.
    expect(outcome(await register(form(DEMO.cardNumber)))).toEqual({
      statusCode: 409,
      code: 'registration.alreadyRegistered',
    });
  });

  it('answers every field it can judge alone at once (400), before anything is looked up', async () => {
    const res = await register({
      cardNumber: '1234',
      companyCode: '12a',
      expiry: '13/30',
      userId: 'a b',
      email: 'not-mail',
      emailConfirm: 'other@example.com',
    });
    expect(res.statusCode).toBe(400);
    const body = res.json() as {
      code: string;
      fieldErrors: Record<string, string>;
      errors: { code: string }[];
    };
    expect(body.code).toBe('form.invalid');
    expect(body.errors[0]?.code).toBe('form.invalid');
    expect(body.fieldErrors).toEqual({
      cardNumber: 'registrationCard.format',
      companyCode: 'registrationCode.format',
      expiry: 'cardExpiry.format',
      userId: 'userId.spaces',
      email: 'email.format',
      emailConfirm: 'emailConfirm.mismatch',
    });
    // A card number failing Luhn, a field too long, a field more: refused without a 5xx.
    expect((await register(form('5424180000000000'))).json()).toMatchObject({
      fieldErrors: { cardNumber: 'registrationCard.format' },
    });
    expect((await register(form(DEMO.cardNumber, { cardNumber: '4'.repeat(41) }))).statusCode).toBe(400);
    expect((await register({ ...form(DEMO.cardNumber), admin: true })).statusCode).toBe(400);
  });

  it('answers an unknown card, a wrong code and a wrong expiry alike; the 5th failure of a known card locks it until an administrator unlocks it', async () => {
    const card = await newCardholderWithCard(1);
    const unknown = cardNumber('54241899', 1);
    const answers = [
      await register(form(unknown)),
      await register(form(card.number, { companyCode: '99999999' })),
      await register(form(card.number, { expiry: '10/30' })),
    ];
    for (const res of answers) {
      expect(outcome(res)).toEqual(NOT_VERIFIED);
      expect(res.body).toBe(answers[0]?.body);
    }
    const failures = async () =>
      (await ctx.app.db.select().from(accounts).where(eq(accounts.id, card.accountId)))[0];
    expect((await failures())?.registrationFailures).toBe(2);
    for (let i = 3; i <= SELF_REGISTRATION_MAX_ATTEMPTS; i++)
      expect(outcome(await register(form(card.number, { expiry: '11/31' })))).toEqual(NOT_VERIFIED);
    expect((await failures())?.registrationLockedAt).toBeInstanceOf(Date);
    expect((await lastAudit('registration.locked'))?.detail).toMatchObject({
      failures: SELF_REGISTRATION_MAX_ATTEMPTS,
      company: DEMO.company,
    });
    // Locked: the right facts answer the same, and nothing is created.
    const right = await register(form(card.number));
    expect(right.body).toBe(answers[0]?.body);
    expect((await lastAudit('registration.refused'))?.detail).toMatchObject({ reason: 'locked' });
    expect(await ctx.app.db.select().from(users).where(eq(users.cardholderId, card.cardholderId))).toEqual(
      [],
    );

    // The company's administrator sees it, on the card and in the count, and unlocks it.
    const settings = (await (
      await get('bncadmin01', `${NORTE}/self-registration`)
    ).json()) as SelfRegistrationSettings;
    expect(settings).toMatchObject({ enabled: true, code: DEMO.code });
    expect(settings.lockedCards).toBeGreaterThanOrEqual(1);
    const detail = (await (
      await get('bncadmin01', `${NORTE}/accounts/${card.accountId}`)
    ).json()) as AccountDetail;
    expect(detail).toMatchObject({ registrationLocked: true, expiry: DEMO.expiry });
    const unlockPath = `${NORTE}/accounts/${card.accountId}/registration-unlock`;
    // The system administrator reads only; a cardholder may not; another issuer's administrator sees no company.
    expect((await send('sysadmin01', 'POST', unlockPath)).statusCode).toBe(403);
    expect((await send('bncuser01', 'POST', unlockPath)).statusCode).toBe(403);
    expect((await send('admin01', 'POST', unlockPath)).statusCode).toBe(404);
    expect((await send('bncadmin01', 'POST', unlockPath)).statusCode).toBe(204);
    expect((await send('bncadmin01', 'POST', unlockPath)).json()).toMatchObject({
      code: 'registration.notLocked',
    });
    expect((await lastAudit('registration.unlocked'))?.entityId).toMatch(/^542418\*+\d{4}$/);
    expect((await failures())?.registrationFailures).toBe(0);
    const ok = await register(form(card.number));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('names a taken user ID only after the proof, and refuses a card the option, its status or its expiry rules out without counting', async () => {
    const card = await newCardholderWithCard(2);
    // A taken user ID with a wrong proof: the proof's answer; with the right one: the user ID.
    expect(outcome(await register(form(card.number, { userId: 'active01', expiry: '01/29' })))).toEqual(
      NOT_VERIFIED,
    );
    expect(await register(form(card.number, { userId: 'active01' })).then((r) => r.json())).toMatchObject({
      code: 'userId.exists',
      fieldErrors: { userId: 'userId.exists' },
    });

    // The company switches self-registration off: the right facts answer as an unknown card.
    const [company] = await ctx.app.db.select().from(companies).where(eq(companies.number, DEMO.company));
    await ctx.app.db.insert(programOptions).values({
      key: 'selfRegistration',
      level: 'company',
      companyId: company?.id as number,
      enabled: false,
    });
    try {
      expect(outcome(await register(form(card.number)))).toEqual(NOT_VERIFIED);
      expect((await lastAudit('registration.refused'))?.detail).toMatchObject({ reason: 'option-off' });
      expect((await get('bncadmin01', `${NORTE}/self-registration`)).json()).toMatchObject({
        enabled: false,
      });
    } finally {
      await ctx.app.db.delete(programOptions).where(eq(programOptions.companyId, company?.id as number));
    }
    // An expired card and a suspended one: refused, not counted.
    const expired = await newCardholderWithCard(3, '01/20');
    expect(outcome(await register(form(expired.number, { expiry: '01/20' })))).toEqual(NOT_VERIFIED);
    expect((await lastAudit('registration.refused'))?.detail).toMatchObject({ reason: 'expired' });
    await ctx.app.db.update(accounts).set({ status: 'Suspended' }).where(eq(accounts.id, card.accountId));
    expect(outcome(await register(form(card.number)))).toEqual(NOT_VERIFIED);
    expect((await lastAudit('registration.refused'))?.detail).toMatchObject({ reason: 'account' });
    const [row] = await ctx.app.db.select().from(accounts).where(eq(accounts.id, card.accountId));
    expect(row?.registrationFailures).toBe(1);
    // A card whose expiry the bank does not hold cannot be proven.
    const unknownExpiry = await newCardholderWithCard(4, null);
    expect(outcome(await register(form(unknownExpiry.number)))).toEqual(NOT_VERIFIED);
  });
});

describe("the company's corporate code", () => {
  it('is set, changed and removed by the company administrator (6–10 digits, one company each), audited without the code', async () => {
    const path = `${NORTE}/self-registration`;
    expect((await send('bncadmin01', 'PUT', path, { code: '12345' })).json()).toMatchObject({
      fieldErrors: { code: 'registrationCode.format' },
    });
    // Acme's administrators cannot take Norte's code for Acme.
    const taken = await send('admin01', 'PUT', '/app/api/org/companies/100001/self-registration', {
      code: DEMO.code,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ fieldErrors: { code: 'registrationCode.taken' } });
    const changed = await send('bncadmin01', 'PUT', path, { code: '3141592653' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ code: '3141592653' });
    const audit = await lastAudit('company.registrationCodeChanged');
    expect(audit?.detail).toMatchObject({ change: 'changed' });
    expect(JSON.stringify(audit)).not.toContain('3141592653');
    expect((await send('bncadmin01', 'PUT', path, { code: null })).json()).toMatchObject({ code: null });
    // Without a code no card can be proven.
    const card = await newCardholderWithCard(5);
    expect(outcome(await register(form(card.number)))).toEqual(NOT_VERIFIED);
    expect((await send('bncadmin01', 'PUT', path, { code: DEMO.code })).statusCode).toBe(200);
    expect((await send('sysadmin01', 'PUT', path, { code: DEMO.code })).statusCode).toBe(403);
    expect((await get('sysadmin01', path)).statusCode).toBe(200);
    expect((await get('bncuser01', path)).statusCode).toBe(403);
    expect((await get('admin01', path)).statusCode).toBe(404);
  });

  it('takes a card expiry when an account is issued, MM/YY, and refuses anything else with the field named', async () => {
    const [holder] = await ctx.app.db
      .select()
      .from(cardholders)
      .where(and(eq(cardholders.name1, 'Test'), eq(cardholders.name2, 'Holder5')));
    const issue = (expiry: string) =>
      send('bncadmin01', 'POST', `${NORTE}/accounts`, {
        cardholderId: holder?.id,
        number: cardNumber(`5424188${expiry.length}`, 1),
        expiry,
      });
    expect((await issue('1/31')).json()).toMatchObject({ expiry: '01/31' });
    expect((await issue('2031-01')).json()).toMatchObject({ fieldErrors: { expiry: 'cardExpiry.format' } });
  });
});

describe('secrets in the log', () => {
  it('never logs a card number, a company code, an expiry with its card or a first password, at trace level', async () => {
    // A refused proof, a malformed form and a registration of this file's own card, all logged at trace.
    const card = await newCardholderWithCard(6);
    expect(outcome(await register(form(card.number, { companyCode: '31415926' })))).toEqual(NOT_VERIFIED);
    expect((await register({ ...form(card.number), cardNumber: `${card.number}x` })).statusCode).toBe(400);
    const body = form(card.number);
    expect((await register(body)).statusCode).toBe(200);
    const password = /First password: (\S+)/.exec(await mailBody(body.email))?.[1] ?? '';
    expect(password.length).toBeGreaterThan(11);
    expect(log.length).toBeGreaterThan(1000);
    const spaced = card.number.replace(/(\d{4})(?=\d)/g, '$1 ');
    for (const secret of [card.number, spaced, DEMO.cardNumber, DEMO.code, '31415926', password])
      expect(log, secret).not.toContain(secret);
  });
});
