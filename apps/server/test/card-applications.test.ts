import type { CardApplication, CardApplicationList } from '@cardportal/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditEvents, cardApplications, cardholders, mailOutbox } from '../src/db/schema.ts';
import { DEMO_SELF_REGISTRATION } from '../src/demo/self-registration.ts';
import { startTestApp, TestClient, type TestContext } from './harness.ts';
import { cardNumber, signedInClients } from './support/clients.ts';

/**
 * New card account applications (issue 18 item 3, docs/self-registration.md): a prospective cardholder
 * of Norte Logística applies at the portal with the company's code; the company's administrator
 * approves with the card the bank issued — the cardholder and the account exist, the applicant is told
 * how to register — or declines with a reason. An unknown code is one answer, never which.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);
const APPLY = '/sdportal/rest/registration/card-application';
const NORTE = '/app/api/org/companies/200001/card-applications';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

let seq = 0;
function form(more: Record<string, string> = {}) {
  seq += 1;
  const email = `applicant${seq}@example.com`;
  return {
    companyCode: DEMO_SELF_REGISTRATION.code,
    firstName: 'Ana',
    lastName: `Solicitante${seq}`,
    email,
    emailConfirm: email,
    reason: 'Visits to customers in Lisbon.',
    locale: 'en_US',
    cobrandName: 'banconorte',
    ...more,
  };
}
const apply = (body: unknown) => new TestClient(ctx.app, '10.7.0.1').postJson(APPLY, body);
const outcome = (res: { statusCode: number; json: () => unknown }) => ({
  statusCode: res.statusCode,
  code: (res.json() as { code: string }).code,
});

async function mailTo(kind: string, recipient: string) {
  const [mail] = await ctx.app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.recipient, recipient)))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  return mail;
}

async function applied(body: ReturnType<typeof form>): Promise<CardApplication> {
  const res = await apply(body);
  expect(res.statusCode, res.body).toBe(200);
  const list = (await (await get('bncadmin01', `${NORTE}?status=Pending`)).json()) as CardApplicationList;
  const found = list.rows.find((r) => r.email === body.email);
  expect(found).toBeDefined();
  return found as CardApplication;
}

describe('new card account applications', () => {
  it("queues an applicant's application for the company, confirms it by mail, and refuses what it must", async () => {
    const demo = (await (await get('bncadmin01', NORTE)).json()) as CardApplicationList;
    expect(demo.canModify).toBe(true);
    expect(demo.rows.find((r) => r.email === DEMO_SELF_REGISTRATION.application.email)).toMatchObject({
      status: 'Pending',
      firstName: 'Pablo',
      decision: null,
    });
    const body = form();
    const app = await applied(body);
    expect(app).toMatchObject({
      status: 'Pending',
      reason: 'Visits to customers in Lisbon.',
      locale: 'en_US',
    });
    expect((await mailTo('card-application-received', body.email))?.body).toContain('Norte Logística');
    expect((await apply({ ...body })).json()).toMatchObject({ code: 'application.pending' });
    // An unknown code and an inactive company answer alike; the co-brand must offer applications.
    const unknown = await apply(form({ companyCode: '999999' }));
    expect(outcome(unknown)).toEqual({ statusCode: 422, code: 'application.notVerified' });
    expect(outcome(await apply(form({ cobrandName: 'cardportal' })))).toEqual({
      statusCode: 403,
      code: 'application.notOffered',
    });
    const refused = await apply(form({ companyCode: '1', email: 'x', reason: 'x'.repeat(501) }));
    expect(refused.json()).toMatchObject({
      fieldErrors: {
        companyCode: 'registrationCode.format',
        email: 'email.format',
        reason: 'applicationReason.tooLong',
      },
    });
    // Who sees the queue: the company's administrators in scope and the system administrator (read only).
    expect((await get('sysadmin01', NORTE)).json()).toMatchObject({ canModify: false });
    expect((await get('bncuser01', NORTE)).statusCode).toBe(403);
    expect((await get('admin01', NORTE)).statusCode).toBe(404);
  });

  it('approves with the issued card: the cardholder and the account exist, the applicant is told how to register', async () => {
    const body = form();
    const app = await applied(body);
    const path = `${NORTE}/${app.id}`;
    const number = cardNumber('54241890', 3);
    expect(
      (await send('bncadmin01', 'POST', `${path}/approve`, { cardNumber: number, expiry: '13/30' })).json(),
    ).toMatchObject({
      fieldErrors: { expiry: 'cardExpiry.format' },
    });
    expect(
      (await send('bncadmin01', 'POST', `${path}/approve`, { cardNumber: '1234', expiry: '09/30' })).json(),
    ).toMatchObject({ fieldErrors: { cardNumber: expect.stringMatching(/^account\.number\./) } });
    expect(
      (
        await send('bncadmin01', 'POST', `${path}/approve`, {
          cardNumber: number,
          expiry: '09/30',
          orgPoint: 'ZZZ',
        })
      ).json(),
    ).toMatchObject({ fieldErrors: { orgPoint: 'cardholder.orgPoint.unknown' } });
    expect(
      (await send('sysadmin01', 'POST', `${path}/approve`, { cardNumber: number, expiry: '09/30' }))
        .statusCode,
    ).toBe(403);
    const res = await send('bncadmin01', 'POST', `${path}/approve`, {
      cardNumber: number,
      expiry: '09/30',
      orgPoint: 'N110',
    });
    expect(res.statusCode, res.body).toBe(200);
    const approved = res.json() as CardApplication;
    expect(approved).toMatchObject({ status: 'Approved', decision: { by: 'bncadmin01' } });
    expect(approved.decision?.account?.maskedNumber).toMatch(/^542418\*+\d{4}$/);
    expect(JSON.stringify(approved)).not.toContain(number);
    const [holder] = await ctx.app.db
      .select()
      .from(cardholders)
      .where(eq(cardholders.id, approved.decision?.cardholderId ?? 0));
    expect(holder).toMatchObject({ name1: 'Ana', name2: body.lastName });
    const [account] = await ctx.app.db
      .select()
      .from(accounts)
      .where(eq(accounts.cardholderId, holder?.id ?? 0));
    expect(account).toMatchObject({ expiry: '09/30', status: 'Active' });
    const mail = await mailTo('card-application-approved', body.email);
    expect(mail?.body).toContain('/sdportal/portalstatic/register?cobrandHost=banconorte');
    expect(mail?.body).not.toContain(number);
    const [row] = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'cardApplication.approved'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(row?.actorUserId).toBe('bncadmin01');
    expect((await send('bncadmin01', 'POST', `${path}/decline`, { reason: 'Late' })).json()).toMatchObject({
      code: 'cardApplication.decided',
    });
    // The new cardholder registers with the card (cardholder self-registration).
    const registered = await new TestClient(ctx.app, '10.7.0.2').postJson(
      '/sdportal/rest/registration/cardholder',
      {
        cardNumber: number,
        companyCode: DEMO_SELF_REGISTRATION.code,
        expiry: '09/30',
        userId: `anasol${seq}`,
        email: body.email,
        emailConfirm: body.email,
      },
    );
    expect(registered.statusCode, registered.body).toBe(200);
  });

  it('declines with a reason the applicant is told; a decided application stays decided', async () => {
    const body = form();
    const app = await applied(body);
    const path = `${NORTE}/${app.id}`;
    expect((await send('bncadmin01', 'POST', `${path}/decline`, { reason: '' })).json()).toMatchObject({
      fieldErrors: { reason: 'reason.required' },
    });
    const res = await send('bncadmin01', 'POST', `${path}/decline`, {
      reason: 'No travel budget this year.',
    });
    expect(res.json()).toMatchObject({
      status: 'Declined',
      decision: { reason: 'No travel budget this year.' },
    });
    expect((await mailTo('card-application-declined', body.email))?.body).toContain(
      'No travel budget this year.',
    );
    const [stored] = await ctx.app.db.select().from(cardApplications).where(eq(cardApplications.id, app.id));
    expect(stored?.accountId).toBeNull();
    expect((await get('bncadmin01', `${NORTE}/999999`)).statusCode).toBe(404);
  });
});
