/**
 * A new card account application in a browser (issue 18 item 3, docs/self-registration.md): someone of
 * Norte Logística applies for a card on Banco Norte's portal with the company's code; the company's
 * administrator approves the application with the card the bank issued; the applicant's mail leads to
 * cardholder self-registration, where the card, the code and its expiry make them a user who signs in.
 * axe on every screen.
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

/** Norte Logística's self-registration code (README "Demo organisations"). */
const CODE = '20260001';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** A Luhn-valid 16-digit card number in the demo BIN, unique to this run. */
function issuedCardNumber(): string {
  const body = `542418${String(Date.now()).slice(-9)}`;
  for (let d = 0; d <= 9; d++) {
    const digits = `${body}${d}`;
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let n = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) {
        n *= 2;
        if (n > 9) n -= 9;
      }
      sum += n;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error('unreachable');
}

describe('a new card account application (issue 18 item 3)', () => {
  it('applies on the portal, the company approves it with the issued card, the applicant registers and signs in', async () => {
    const tag = Date.now().toString(36).slice(-6);
    const email = `applicant${tag}@example.com`;
    const since = Date.now();

    const applicant = await newPage(browser);
    await applicant.page.goto('/sdportal/portalstatic/signin?cobrandHost=banconorte&locale=en_US');
    await applicant.page.getByRole('link', { name: 'Apply for a new card account' }).click();
    await applicant.page.waitForURL(/\/sdportal\/portalstatic\/apply\?/);
    await applicant.page.locator('#companyCode').waitFor();
    await expectAccessible(applicant.page, 'card account application');
    for (const [id, value] of [
      ['companyCode', CODE],
      ['firstName', 'Elena'],
      ['lastName', `Vidal${tag}`],
      ['email', email],
      ['emailConfirm', email],
      ['reason', 'Trade fairs in Porto and Madrid.'],
    ] as const)
      await applicant.page.locator(`#${id}`).fill(value);
    await applicant.page.locator('#submit').click();
    await applicant.page.getByRole('heading', { name: 'Application sent' }).waitFor();
    await expectAccessible(applicant.page, 'card account application sent');
    expect((await waitForMail(mailDir(), email, since)).text).toContain('Norte Log');
    expect(applicant.problems).toEqual([]);

    const admin = await newPage(browser);
    await signIn(admin.page, 'bncadmin01', DEMO_PASSWORD, '?cobrandHost=banconorte');
    await admin.page.waitForURL(/\/app\/$/);
    await admin.page.goto('/app/organisation/200001');
    await admin.page.locator('#tab-card-applications').click();
    await admin.page.waitForURL(/\/app\/organisation\/200001\/card-applications/);
    await admin.page.locator('#applications-status').selectOption('Pending');
    const row = admin.page.locator('#applications tr', { hasText: email });
    await row.waitFor();
    await expectAccessible(admin.page, 'card applications (Spanish)');
    await row.locator('[id^="application-review-"]').click();
    await admin.page.locator('#application-facts').waitFor();
    expect(await admin.page.locator('#application-facts').textContent()).toContain('Trade fairs');
    await expectAccessible(admin.page, 'card application review');
    const number = issuedCardNumber();
    await admin.page.locator('#approve-cardNumber').fill(number);
    await admin.page.locator('#approve-expiry').fill('09/30');
    await admin.page.locator('#approve-orgPoint').fill('N110');
    await admin.page.locator('#approve-submit').click();
    await expect
      .poll(() => admin.page.locator('#applications-done').textContent())
      .toContain(number.slice(-4));
    expect(admin.problems).toEqual([]);
    await admin.context.close();

    // The approval's mail leads to self-registration with the issued card.
    const approved = await waitForMail(mailDir(), email, since, 2);
    const link = /(https?:\/\/\S+\/sdportal\/portalstatic\/register\?\S+)/.exec(approved.text)?.[1];
    expect(link, approved.text).toBeTruthy();
    await applicant.page.goto(new URL(link as string).pathname + new URL(link as string).search);
    const userId = `elena${tag}`;
    for (const [id, value] of [
      ['cardNumber', number],
      ['companyCode', CODE],
      ['cardExpiry', '09/30'],
      ['userId', userId],
      ['email', email],
      ['emailConfirm', email],
    ] as const)
      await applicant.page.locator(`#${id}`).fill(value);
    await applicant.page.locator('#submit').click();
    await applicant.page.locator('#register-done').waitFor();
    const first = passwordIn((await waitForMail(mailDir(), email, since, 3)).text);
    await signIn(applicant.page, userId, first, '?cobrandHost=banconorte&locale=en_US');
    await applicant.page.waitForURL(/\/change-password/);
    await applicant.page.locator('#old').fill(first);
    await applicant.page.locator('#new1').fill('Elena-Vidal-2026');
    await applicant.page.locator('#new2').fill('Elena-Vidal-2026');
    await applicant.page.locator('#submit').click();
    await applicant.page.waitForURL(/\/app\/$/);
    await applicant.page.locator('#welcome').waitFor();
    expect(applicant.problems).toEqual([]);
    await applicant.context.close();
  });
});
