/**
 * Cardholder self-registration in a browser (issue 18 item 2, docs/self-registration.md): the demo's
 * Mateo Ruiz (Norte Logística, a card and no user) follows the sign-in page's link, corrects what the
 * form refuses, registers with his card, the company code and the expiry date, receives his user ID and
 * first password by e-mail (over SMTP), signs in, must choose a password and reaches the application.
 * The keyboard alone drives the form; axe checks every screen.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  dataDir,
  expectAccessible,
  launch,
  mailDir,
  newPage,
  passwordIn,
  signIn,
} from './support/browser.ts';
import { sql } from './support/db.ts';
import { waitForMail } from './support/product.ts';

/** The demo's facts (apps/server/src/demo/self-registration.ts, README "Demo data"). */
const CARD = '5424 1800 0800 0017';
const CODE = '20260001';
const EXPIRY = '09/30';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('a cardholder registers himself (issue 18 item 2)', () => {
  it('proves his card on the portal, gets a first password by e-mail, signs in and chooses a password', async () => {
    const { page, problems, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=banconorte&locale=en_US');
    await page.getByRole('link', { name: 'Register as a cardholder' }).click();
    await page.waitForURL(/\/sdportal\/portalstatic\/register\?cobrandHost=banconorte&locale=en_US$/);
    await page.locator('#cardNumber').waitFor();
    await expectAccessible(page, 'cardholder self-registration');

    // By keyboard: every field in order, a wrong expiry first; the summary names it and takes focus.
    const userId = `mateo${Date.now().toString(36).slice(-5)}`;
    const email = `${userId}@example.com`;
    await page.locator('#cardNumber').focus();
    for (const value of [CARD, CODE, '13/30', userId, email, email]) {
      await page.keyboard.type(value);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    const summary = page.locator('#register-error');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('register-error');
    expect(await summary.textContent()).toContain(
      'Expiry date: Enter the expiry date as printed on the card',
    );
    await expectAccessible(page, 'self-registration with an error');
    await summary.getByRole('link').click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('cardExpiry');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(EXPIRY);

    // A wrong company code: the one answer that never says which part was wrong.
    await page.locator('#companyCode').fill('99999999');
    const since = Date.now();
    await page.locator('#submit').click();
    await expect.poll(() => summary.textContent()).toContain('We could not verify these card details');
    await page.locator('#companyCode').fill(CODE);
    await page.locator('#submit').click();
    const done = page.getByRole('heading', { name: 'Check your e-mail' });
    await done.waitFor();
    expect(await page.textContent('body')).toContain(email);
    await expectAccessible(page, 'self-registration done');

    const mail = await waitForMail(mailDir(), email, since);
    expect(mail.text).toContain(userId);
    const first = passwordIn(mail.text);
    expect(first.length).toBeGreaterThanOrEqual(12);

    await signIn(page, userId, first, '?cobrandHost=banconorte&locale=en_US');
    await page.waitForURL(/\/change-password/);
    await page.locator('#old').fill(first);
    await page.locator('#new1').fill('Mateo-Ruiz-2026');
    await page.locator('#new2').fill('Mateo-Ruiz-2026');
    await page.locator('#submit').click();
    await page.waitForURL(/\/app\/$/);
    await page.locator('#welcome').waitFor();
    expect(await page.locator('#welcome').textContent()).toContain('Mateo');
    // The refused proof's 422 is the one failed request the browser reports.
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });

  it("the company's administrator sees its code and a card locked after failed attempts, and unlocks it by keyboard", async () => {
    // Lucía Martín's card, locked as five wrong proofs leave it (the server test makes them; here the lock).
    const locked = await sql(
      dataDir(),
      `update accounts a set registration_failures = 5, registration_locked_at = now()
         from cardholders c where c.id = a.cardholder_id and c.name1 = 'Lucía' and c.name2 = 'Martín'
       returning a.id`,
    );
    const accountId = locked.rows[0]?.id as number;
    expect(accountId).toBeGreaterThan(0);
    const { page, problems, context } = await newPage(browser);
    await signIn(page, 'bncadmin01', DEMO_PASSWORD, '?cobrandHost=banconorte');
    await page.waitForURL(/\/app\/$/);
    await page.goto('/app/organisation/200001');
    await page.locator('#self-registration-facts').waitFor();
    expect(await page.locator('#self-registration-code-value').textContent()).toBe(CODE);
    await expect.poll(() => page.locator('#self-registration-locked').textContent()).toMatch(/^1\b/);
    await expectAccessible(page, "the company's self-registration (Spanish)");

    await page.goto(`/app/organisation/200001/accounts/${accountId}`);
    const unlock = page.locator('#account-unlock-registration');
    await unlock.focus();
    await page.keyboard.press('Enter');
    await page.locator('#unlock-confirm-ok').waitFor();
    await expectAccessible(page, 'unlock confirmation');
    await page.locator('#unlock-confirm-ok').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#account-done').textContent()).not.toBe('');
    await unlock.waitFor({ state: 'detached' });
    const after = await sql(dataDir(), 'select registration_locked_at from accounts where id = $1', [
      accountId,
    ]);
    expect(after.rows[0]?.registration_locked_at).toBeNull();
    await expectAccessible(page, 'account unlocked');
    expect(problems).toEqual([]);
    await context.close();
  });
});
