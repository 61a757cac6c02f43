/**
 * Company self-registration in a browser (issue 18 item 1, docs/self-registration.md): a company Banco
 * Norte has invited (the demo's "Sur Logística S.L.", code 46820135) applies on the portal with its
 * first program administrator; the issuer's administrator reviews the application in the application
 * and approves it with the company's number; the new administrator receives the first password by
 * e-mail (over SMTP), signs in, chooses a password and reaches the application. axe on every screen.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  expectAccessible,
  launch,
  mailDir,
  newPage,
  passwordIn,
  signIn,
} from './support/browser.ts';
import { waitForMail } from './support/product.ts';

/** The demo's invitation (apps/server/src/demo/self-registration.ts, README "Demo organisations"). */
const CODE = '46820135';
const COMPANY = 'Sur Logística S.L.';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('a company registers itself and is approved (issue 18 item 1)', () => {
  it('applies on the portal, the issuer approves it, its administrator signs in', async () => {
    const userId = `sur${Date.now().toString(36).slice(-6)}`;
    const email = `${userId}@sur.example`;
    const since = Date.now();

    const applicant = await newPage(browser);
    await applicant.page.goto('/sdportal/portalstatic/signin?cobrandHost=banconorte&locale=en_US');
    await applicant.page.getByRole('link', { name: 'Register your company' }).click();
    await applicant.page.waitForURL(/\/sdportal\/portalstatic\/register-company\?/);
    await applicant.page.locator('#corporateCode').waitFor();
    await expectAccessible(applicant.page, 'company registration');
    for (const [id, value] of [
      ['corporateCode', CODE],
      ['companyName', 'SUR LOGISTICA, S.L.'],
      ['companyName2', 'Oficina central'],
      ['firstName', 'Inés'],
      ['lastName', 'Sur'],
      ['userId', userId],
      ['email', email],
      ['emailConfirm', email],
    ] as const)
      await applicant.page.locator(`#${id}`).fill(value);
    // The bank knows the name with its accent: a name that differs is refused like an unknown code.
    await applicant.page.locator('#submit').click();
    await expect
      .poll(() => applicant.page.locator('#register-error').textContent())
      .toContain('We could not verify');
    await applicant.page.locator('#companyName').fill('Sur Logística, S.L.');
    await applicant.page.locator('#submit').click();
    await applicant.page.getByRole('heading', { name: 'Application sent' }).waitFor();
    await expectAccessible(applicant.page, 'company registration sent');
    const received = await waitForMail(mailDir(), email, since);
    expect(received.text).toContain(COMPANY);
    expect(applicant.problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await applicant.context.close();

    const bank = await newPage(browser);
    await signIn(bank.page, 'isgadmin01', DEMO_PASSWORD, '?cobrandHost=cardportal&locale=en_US');
    await bank.page.waitForURL(/\/app\/$/);
    await bank.page.goto('/app/issuers/2001');
    await bank.page.locator('#issuer-company-registrations').click();
    await bank.page.waitForURL(/\/app\/issuers\/2001\/company-registrations$/);
    await bank.page.locator('#registrations-status').selectOption('Applied');
    const review = bank.page.locator('[id^="registration-review-"]').first();
    await review.waitFor();
    await expectAccessible(bank.page, 'company registrations');
    await review.click();
    await bank.page.locator('#registration-facts').waitFor();
    expect(await bank.page.locator('#registration-facts').textContent()).toContain(userId);
    await expectAccessible(bank.page, 'company registration review');
    await bank.page.locator('#approve-companyNumber').fill('200055');
    await bank.page.locator('#approve-submit').click();
    await expect.poll(() => bank.page.locator('#registrations-done').textContent()).toContain('200055');
    expect(bank.problems).toEqual([]);
    await bank.context.close();

    const mail = await waitForMail(mailDir(), email, since, 2);
    const first = passwordIn(mail.text);
    const admin = await newPage(browser);
    await signIn(admin.page, userId, first, '?cobrandHost=banconorte&locale=en_US');
    await admin.page.waitForURL(/\/change-password/);
    await admin.page.locator('#old').fill(first);
    await admin.page.locator('#new1').fill('Sur-Logistica-2026');
    await admin.page.locator('#new2').fill('Sur-Logistica-2026');
    await admin.page.locator('#submit').click();
    await admin.page.waitForURL(/\/app\/$/);
    await admin.page.goto('/app/organisation/200055');
    await admin.page.locator('#company-facts').waitFor();
    expect(await admin.page.locator('#company-facts').textContent()).toContain('Sur Logística S.L.');
    await expectAccessible(admin.page, "the new company's page");
    expect(admin.problems).toEqual([]);
    await admin.context.close();
  });
});
