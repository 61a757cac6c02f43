/**
 * Issue 7, end to end: a company administrator creates a cardholder in the application; the new user
 * receives the first password by e-mail (over SMTP, to the test's peer), signs in, is made to choose a
 * password, and lands in the application.
 */
import type { Browser, Page } from 'playwright-core';
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

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function createCardholder(page: Page, userId: string, email: string): Promise<void> {
  await page.goto('/app/people/new');
  await page.locator('#user-userId').waitFor();
  await page.locator('#user-userId').fill(userId);
  await page.locator('#user-firstName').fill('Fiona');
  await page.locator('#user-lastName').fill('First');
  await page.locator('#user-email').fill(email);
  await page.locator('#user-emailConfirm').fill(email);
  await page.locator('#user-userType').selectOption('A');
  await page.locator('#user-save').click();
  await page.waitForURL(new RegExp(`/app/people/${userId}$`, 'i'));
}

describe('a new cardholder signs in for the first time (issue 7)', () => {
  it('gets the first password by e-mail, must change it at the first sign-in, then reaches the application', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin01', DEMO_PASSWORD, '?cobrandHost=cardportal&locale=en_US');
    await admin.page.waitForURL(/\/app\/$/);
    const userId = `e2ef${Date.now().toString(36).slice(-6)}`;
    const email = `${userId}@example.com`;
    const since = Date.now();
    await createCardholder(admin.page, userId, email);
    expect(admin.problems).toEqual([]);
    await admin.context.close();

    const mail = await waitForMail(mailDir(), email, since);
    expect(mail.text).toContain(userId);
    const first = passwordIn(mail.text);
    expect(first.length).toBeGreaterThanOrEqual(12);

    const user = await newPage(browser);
    await signIn(user.page, userId, first, '?cobrandHost=cardportal&locale=en_US');
    await user.page.waitForURL(/\/change-password/);
    await user.page.locator('#old').waitFor();
    await expectAccessible(user.page, 'first sign-in: change password');
    await user.page.locator('#old').fill(first);
    await user.page.locator('#new1').fill('Fiona-first-2026');
    await user.page.locator('#new2').fill('Fiona-first-2026');
    await user.page.locator('#submit').click();
    await user.page.waitForURL(/\/app\/$/);
    await user.page.locator('#welcome').waitFor();
    expect(await user.page.locator('#welcome').textContent()).toContain('Fiona');
    expect(user.problems).toEqual([]);
    await user.context.close();
  });
});
