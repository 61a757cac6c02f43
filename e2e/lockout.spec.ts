import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, launch, newPage } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('temporarily locked (spec §2, seed 001 §9)', () => {
  it('locks after 6 failed sign-ins and shows the locked screen, even for the right password', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=cardportal&locale=en_US');
    for (let i = 1; i <= 5; i++) {
      await page.locator('#userId').fill('e2elock01');
      await page.locator('#password').fill(`Wrong-password-${i}`);
      await page.locator('#signin-submit').click();
      await expect.poll(() => page.locator('#userId').inputValue()).toBe('');
      await page.locator('#signin-submit:not([disabled])').waitFor();
    }
    await page.locator('#userId').fill('e2elock01');
    await page.locator('#password').fill('Wrong-password-6');
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/locked\?cobrandHost=cardportal/);
    await page.locator('#return-to-login').waitFor();
    await expectAccessible(page, 'locked');

    await page.locator('#return-to-login').click();
    await page.waitForURL(/\/signin/);
    await page.locator('#userId').fill('e2elock01');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/locked/);
    await context.close();
  });

  it('tells a user an administrator locked to contact the administrator, not to wait 30 minutes', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=cardportal&locale=de');
    await page.locator('#userId').fill('locked01');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/locked\?.*reason=locked/);
    const message = (await page.locator('#locked-message').textContent()) ?? '';
    expect(message).not.toMatch(/30/);
    expect(message.length).toBeGreaterThan(10);
    await expectAccessible(page, 'locked by an administrator');
    // A wrong password is told nothing more than any locked user.
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=cardportal&locale=de');
    await page.locator('#userId').fill('locked01');
    await page.locator('#password').fill('Not-the-password-1');
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/locked\?cobrandHost=cardportal&locale=de$/);
    expect(await page.locator('#locked-message').textContent()).toMatch(/30/);
    await context.close();
  });
});
