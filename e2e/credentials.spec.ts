import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, launch, mailDir, newPage, signIn } from './support/browser.ts';
import { waitForMail } from './support/product.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function changePassword(page: Page, oldPassword: string, newPassword: string) {
  await page.locator('#old').fill(oldPassword);
  await page.locator('#new1').fill(newPassword);
  await page.locator('#new2').fill(newPassword);
  await page.locator('#submit').click();
}

describe('forgot password (spec §2, §4)', () => {
  it('walks the three steps, mails a temporary password, and forces a change at the next sign-in', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=banconorte&locale=es');
    await page.locator('a[href*="forgot-password"]').click();
    await page.waitForURL(/\/forgot-password\?.*cobrandHost=banconorte/);
    await page.locator('#userId').waitFor();
    await expectAccessible(page, 'forgot password: user ID');
    await page.locator('#userId').fill('bncuser01');
    await page.locator('form button[type=submit]').click();
    await page.locator('#securityAnswer').waitFor();
    await expectAccessible(page, 'forgot password: question');
    await page.locator('#securityAnswer').fill('Gotham');
    await page.locator('form button[type=submit]').click();
    await expect.poll(() => page.locator('#securityAnswer').getAttribute('aria-invalid')).toBe('true');
    const since = Date.now();
    await page.locator('#securityAnswer').fill('Springfield');
    await page.locator('form button[type=submit]').click();
    await page.locator('#return-to-login').waitFor();
    await expectAccessible(page, 'forgot password: confirmation');

    const mail = await waitForMail(mailDir(), 'bruno.norte@example.com', since);
    // The mail is in the co-brand's language: find the token shaped like our temporary passwords
    // (14 characters of letters, digits and #%+=?!-_ with at least one of each kind).
    const temporary =
      mail.text
        .split(/\s+/)
        .map((t) => t.replace(/[.,;:»«"]+$/, ''))
        .find(
          (t) =>
            /^[A-Za-z0-9#%+=?!_-]{14}$/.test(t) && /[A-Z]/.test(t) && /\d/.test(t) && /[#%+=?!_-]/.test(t),
        ) ?? '';
    expect(temporary).toHaveLength(14);

    await page.locator('#return-to-login').click();
    await page.waitForURL(/\/signin/);
    await page.locator('#userId').fill('bncuser01');
    await page.locator('#password').fill(temporary);
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/change-password/);
    await changePassword(page, temporary, 'Nuevo-inicio-2026');
    await page.waitForURL(/\/app\/$/);
    await context.close();
  });

  it('returns to the co-brand sign-in screen on Cancel', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/forgot-password?cobrandHost=banconorte&locale=es');
    await page.locator('#cancel').click();
    await page.waitForURL(/\/signin\?.*cobrandHost=banconorte/);
    await context.close();
  });
});

describe('change password (spec §2, §4, §5, §8)', () => {
  it('lists errors in a summary whose entries lead to their fields, then changes an expired password', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'expired01', DEMO_PASSWORD);
    await page.waitForURL(/\/change-password/);
    await page.locator('#old').waitFor();
    await expectAccessible(page, 'change password');
    await page.locator('#submit').click();
    const summary = page.locator('[role=alert], .error-summary').first();
    await summary.waitFor();
    const links = summary.locator('a[href^="#"]');
    expect(await links.count()).toBe(3);
    await links.nth(1).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new1');
    await expectAccessible(page, 'change password with errors');

    await changePassword(page, 'Not-the-password-1', 'Another-good-pass9');
    await expect.poll(() => page.locator('#old').getAttribute('aria-invalid')).toBe('true');
    await changePassword(page, DEMO_PASSWORD, 'Another-good-pass9');
    await page.waitForURL(/\/app\/$/);
    await context.close();
  });

  it('marks the current-password field from the ec code', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'firstlog01', DEMO_PASSWORD);
    await page.waitForURL(/\/change-password/);
    await page.goto(`${page.url()}&ec=0x132120c9`);
    await expect.poll(() => page.locator('#old').getAttribute('aria-invalid')).toBe('true');
    await page.locator('#cancel').click();
    await page.waitForURL(/\/logout/);
    await context.close();
  });
});
