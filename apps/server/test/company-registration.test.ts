import type { CompanyRegistration, CompanyRegistrationList } from '@cardportal/domain';
import { SELF_REGISTRATION_MAX_ATTEMPTS } from '@cardportal/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, companies, companyRegistrations, mailOutbox, users } from '../src/db/schema.ts';
import { DEMO_SELF_REGISTRATION } from '../src/demo/self-registration.ts';
import { startTestApp, TestClient, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * Company self-registration (issue 18 item 1, docs/self-registration.md): Banco Norte's administrator
 * invites a company with a corporate code, the company applies at the portal with the code and its name
 * as the bank knows it, and the administrator approves (the company and its first program administrator
 * exist, the first password goes by mail) or declines (the applicant is told why). Wrong names lock a
 * code until unlocked; no answer tells a code that exists from one that does not.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);
const APPLY = '/sdportal/rest/registration/company';
const NORTE = '/app/api/org/issuers/2001/company-registrations';
const DEMO = DEMO_SELF_REGISTRATION.invitation;

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

let seq = 0;
function application(code: string, companyName: string, more: Record<string, string> = {}) {
  seq += 1;
  const email = `company${seq}@example.com`;
  return {
    code,
    companyName,
    companyName2: 'Head office',
    firstName: 'Inés',
    lastName: `Applicant${seq}`,
    userId: `coadmin${seq}x`,
    email,
    emailConfirm: email,
    locale: 'es',
    cobrandName: 'banconorte',
    ...more,
  };
}
const apply = (body: unknown, ip = '10.8.0.1') => new TestClient(ctx.app, ip).postJson(APPLY, body);
const outcome = (res: { statusCode: number; json: () => unknown }) => ({
  statusCode: res.statusCode,
  code: (res.json() as { code: string }).code,
});
const NOT_VERIFIED = { statusCode: 422, code: 'registration.notVerified' };

async function invite(companyName: string, code?: string): Promise<CompanyRegistration> {
  const res = await send('isgadmin01', 'POST', NORTE, { companyName, ...(code ? { code } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CompanyRegistration;
}

async function mailTo(kind: string, recipient: string) {
  const [mail] = await ctx.app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.recipient, recipient)))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  return mail;
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

describe('company self-registration: the issuer invites', () => {
  it("lists the issuer's invitations to those in scope, and invites with a drawn or a chosen code", async () => {
    const list = (await (await get('isgadmin01', NORTE)).json()) as CompanyRegistrationList;
    expect(list).toMatchObject({ canModify: true, enabled: true });
    expect(list.rows.find((r) => r.code === DEMO.code)).toMatchObject({
      status: 'Invited',
      companyName: DEMO.companyName,
      application: null,
    });
    expect((await get('issadmin01', NORTE)).statusCode).toBe(404);
    expect((await get('sysadmin01', NORTE)).json()).toMatchObject({ canModify: false });
    expect((await send('sysadmin01', 'POST', NORTE, { companyName: 'Nope' })).statusCode).toBe(403);
    expect((await get('admin01', NORTE)).statusCode).toBe(403);

    const drawn = await invite('Andes Transportes');
    expect(drawn.code).toMatch(/^\d{8}$/);
    expect(drawn.invitedBy).toBe('isgadmin01');
    const taken = await send('isgadmin01', 'POST', NORTE, { companyName: 'Other', code: drawn.code });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ fieldErrors: { code: 'registrationCode.taken' } });
    expect(
      (await send('isgadmin01', 'POST', NORTE, { companyName: '<b>x</b>', code: '12' })).json(),
    ).toMatchObject({
      fieldErrors: { companyName: 'companyName.invalidCharacters', code: 'registrationCode.format' },
    });
    // The demo bank (1001) does not offer self-registration: nobody can be invited there.
    const off = await send('isgadmin01', 'POST', '/app/api/org/issuers/1001/company-registrations', {
      companyName: 'Acme Two',
    });
    expect(off.json()).toMatchObject({ code: 'companyRegistration.optionOff' });
    // A status filter pages by key over the issuer's index.
    const invited = (await (
      await get('isgadmin01', `${NORTE}?status=Invited`)
    ).json()) as CompanyRegistrationList;
    expect(invited.rows.every((r) => r.status === 'Invited')).toBe(true);
    expect((await get('isgadmin01', `${NORTE}?status=Nope`)).statusCode).toBe(400);
  });
});

describe('company self-registration: the company applies', () => {
  it('answers an unknown code and a wrong name alike; the 5th wrong name locks the code until unlocked', async () => {
    const reg = await invite('Pampa Agro S.A.');
    const answers = [
      await apply(application('99999999', 'Pampa Agro S.A.')),
      await apply(application(reg.code, 'Pampa Agro')),
    ];
    for (const res of answers) {
      expect(outcome(res)).toEqual(NOT_VERIFIED);
      expect(res.body).toBe(answers[0]?.body);
    }
    for (let i = 2; i <= SELF_REGISTRATION_MAX_ATTEMPTS; i++)
      expect(outcome(await apply(application(reg.code, `Wrong ${i}`)))).toEqual(NOT_VERIFIED);
    expect((await lastAudit('companyRegistration.locked'))?.detail).toMatchObject({ registration: reg.id });
    // Locked: the right name answers the same.
    expect((await apply(application(reg.code, 'PAMPA agro, s.a.'))).body).toBe(answers[0]?.body);
    const seen = (await (await get('isgadmin01', `${NORTE}/${reg.id}`)).json()) as CompanyRegistration;
    expect(seen.locked).toBe(true);
    expect((await send('isgadmin01', 'POST', `${NORTE}/${reg.id}/unlock`, {})).json()).toMatchObject({
      locked: false,
    });
    // The name compares without case, punctuation or extra spaces.
    const ok = await apply(application(reg.code, '  PAMPA agro,  s.a. '));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('is offered only where the co-brand offers it, names a taken user ID only after the proof, and takes a code once', async () => {
    const reg = await invite('Litoral Foods');
    expect(
      outcome(await apply(application(reg.code, 'Litoral Foods', { cobrandName: 'cardportal' }))),
    ).toEqual({
      statusCode: 403,
      code: 'registration.notOffered',
    });
    expect(outcome(await apply(application(reg.code, 'Wrong', { userId: 'active01' })))).toEqual(
      NOT_VERIFIED,
    );
    expect(
      await apply(application(reg.code, 'Litoral Foods', { userId: 'active01' })).then((r) => r.json()),
    ).toMatchObject({
      code: 'userId.exists',
      fieldErrors: { userId: 'userId.exists' },
    });
    const body = application(reg.code, 'Litoral Foods');
    const res = await apply(body);
    expect(res.statusCode, res.body).toBe(200);
    const received = await mailTo('company-registration-received', body.email);
    expect(received?.body).toContain('Litoral Foods');
    expect(outcome(await apply(application(reg.code, 'Litoral Foods')))).toEqual(NOT_VERIFIED);
    expect((await lastAudit('companyRegistration.refused'))?.detail).toMatchObject({ reason: 'used' });
    // An applied invitation is no longer withdrawn.
    expect((await send('isgadmin01', 'DELETE', `${NORTE}/${reg.id}`)).json()).toMatchObject({
      code: 'companyRegistration.notInvited',
    });
    // A form the rules refuse is answered field by field, before anything is looked up.
    const refused = await apply({ ...application('1', ''), email: 'x' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      fieldErrors: {
        code: 'registrationCode.format',
        companyName: 'companyName.required',
        email: 'email.format',
      },
    });
  });
});

describe('company self-registration: the issuer decides', () => {
  it('approves: the company and its program administrator exist, the first password by mail, who signs in', async () => {
    const body = application(DEMO.code, DEMO.companyName, { userId: 'inesur01' });
    expect((await apply(body)).statusCode).toBe(200);
    const [reg] = await ctx.app.db
      .select()
      .from(companyRegistrations)
      .where(eq(companyRegistrations.code, DEMO.code));
    const path = `${NORTE}/${reg?.id}`;
    expect(
      (await send('isgadmin01', 'POST', `${path}/approve`, { companyNumber: 'abc' })).json(),
    ).toMatchObject({
      fieldErrors: { companyNumber: 'company.number.format' },
    });
    expect(
      (await send('isgadmin01', 'POST', `${path}/approve`, { companyNumber: '200001' })).json(),
    ).toMatchObject({
      fieldErrors: { companyNumber: 'company.number.duplicate' },
    });
    expect(
      (await send('sysadmin01', 'POST', `${path}/approve`, { companyNumber: '200077' })).statusCode,
    ).toBe(403);
    const approved = await send('isgadmin01', 'POST', `${path}/approve`, { companyNumber: '200077' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'Approved',
      decision: { by: 'isgadmin01', companyNumber: '200077' },
      application: { userId: 'inesur01', email: body.email },
    });
    const [company] = await ctx.app.db.select().from(companies).where(eq(companies.number, '200077'));
    expect(company).toMatchObject({ name1: DEMO.companyName, name2: 'Head office', active: true });
    const [admin] = await ctx.app.db.select().from(users).where(eq(users.userId, 'inesur01'));
    expect(admin).toMatchObject({ userType: 'C', companyId: company?.id, firstLogin: true, locale: 'es' });
    expect((await lastAudit('companyRegistration.approved'))?.detail).toMatchObject({ company: '200077' });
    const mail = await mailTo('first-password', body.email);
    // The mail is in the applicant's language (es): the password is the token shaped like one.
    const firstPassword = mail?.body
      .split(/\s+/)
      .find((w) => w.length >= 12 && /[A-Z]/.test(w) && /\d/.test(w) && /[#%+=?!_-]/.test(w));
    expect(firstPassword).toBeTruthy();
    const client = new TestClient(ctx.app, '10.8.0.9');
    const signin = await client.login('inesur01', firstPassword ?? '');
    expect(signin.body).toMatch(/change-password/);
    expect(
      (await send('isgadmin01', 'POST', `${path}/approve`, { companyNumber: '200078' })).json(),
    ).toMatchObject({
      code: 'companyRegistration.notApplied',
    });
  });

  it('declines with a reason the applicant is told, and withdraws an unused invitation', async () => {
    const reg = await invite('Cumbre Minería');
    const body = application(reg.code, 'Cumbre Minería');
    expect((await apply(body)).statusCode).toBe(200);
    const path = `${NORTE}/${reg.id}`;
    expect((await send('isgadmin01', 'POST', `${path}/decline`, { reason: '  ' })).json()).toMatchObject({
      fieldErrors: { reason: 'reason.required' },
    });
    const declined = await send('isgadmin01', 'POST', `${path}/decline`, {
      reason: 'No agreement on file for this company.',
    });
    expect(declined.json()).toMatchObject({
      status: 'Declined',
      decision: { reason: 'No agreement on file for this company.' },
    });
    expect((await mailTo('company-registration-declined', body.email))?.body).toContain(
      'No agreement on file for this company.',
    );
    const unused = await invite('Valle Textil');
    expect((await send('isgadmin01', 'DELETE', `${NORTE}/${unused.id}`)).statusCode).toBe(204);
    expect((await get('isgadmin01', `${NORTE}/${unused.id}`)).statusCode).toBe(404);
    expect(outcome(await apply(application(unused.code, 'Valle Textil')))).toEqual(NOT_VERIFIED);
  });
});
