import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, launch, mailDir, newPage, signIn } from './support/browser.ts';
import { waitForMail } from './support/product.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const codeOf = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

describe('one-time passcode (spec §2, §4, §5)', () => {
  it('signs in with the code read from the e-mail that really went out over SMTP', async () => {
    const { page, context } = await newPage(browser);
    const since = Date.now();
    await signIn(page, 'otpuser01', DEMO_PASSWORD, '?cobrandHost=cardportal&locale=en_US');
    await page.waitForURL(/\/sdportal\/portalstatic\/otp\?.*delivery=o\*\*\*%40example\.com/);
    await page.locator('#otp-0').waitFor();
    expect(await page.locator('main').textContent()).toContain('o***@example.com');
    await expectAccessible(page, 'one-time passcode');

    // A wrong code first: the screen comes back with every box marked invalid.
    await page.locator('#otp-0').focus();
    await page.keyboard.type('000000');
    expect(await page.locator('#otp-5').inputValue()).toBe('0');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/error=true/);
    await expect.poll(() => page.locator('#otp-0').getAttribute('aria-invalid')).toBe('true');

    const mail = await waitForMail(mailDir(), 'otto.otp@example.com', since);
    const code = codeOf(mail.text);
    expect(code).toMatch(/^\d{6}$/);
    await page.locator('#otp-0').focus();
    await page.keyboard.type(`a${code}`); // non-digits are stripped
    for (let i = 0; i < 6; i++) expect(await page.locator(`#otp-${i}`).inputValue()).toBe(code[i]);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/app\/$/);
    await expect.poll(() => page.locator('#welcome').textContent()).toContain('Otto');
    await context.close();
  });

  it('resends a new code on request', async () => {
    const { page, context } = await newPage(browser);
    const since = Date.now();
    await signIn(page, 'otpuser01', DEMO_PASSWORD);
    await page.waitForURL(/\/otp/);
    await page.locator('#otp-0').fill('1');
    await page.getByRole('button', { name: /resend|send a new code/i }).click();
    await expect.poll(() => page.locator('#otp-0').inputValue()).toBe('');
    await page.getByRole('status').filter({ hasText: 'o***@example.com' }).waitFor();
    // The second mail since sign-in carries the new code; the first one no longer works.
    const code = codeOf((await waitForMail(mailDir(), 'otto.otp@example.com', since, 2)).text);
    await page.locator('#otp-0').focus();
    await page.keyboard.type(code);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/app\/$/);
    await context.close();
  });
});
