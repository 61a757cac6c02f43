import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, launch, newPage, signIn } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('logout (spec §2, §4)', () => {
  it('signs out from the application, shows the logout screen, and the session is gone', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin01', DEMO_PASSWORD, '?cobrandHost=cardportal&locale=en_US');
    await page.waitForURL(/\/app\/$/);
    await page.locator('#logout-button').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/logout/);
    await page.locator('#return-to-login').waitFor();
    await expectAccessible(page, 'logout');
    const res = await page.request.get('/app/api/me');
    expect(res.status()).toBe(401);
    await page.goto('/app/');
    await page.waitForURL(/\/sdportal\/portalstatic\/signin/);
    await context.close();
  });

  it('returns to the sign-in screen of the same co-brand', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/logout?cobrandHost=banconorte&locale=es');
    await page.locator('#return-to-login').click();
    await page.waitForURL(/\/signin\?.*cobrandHost=banconorte/);
    await context.close();
  });
});

describe('not found (spec §2)', () => {
  it('shows the not-found screen for any other portal path', async () => {
    const { page, context } = await newPage(browser);
    const res = await page.goto('/sdportal/portalstatic/no-such-screen');
    expect(res?.status()).toBe(404);
    await page.locator('#not-found').waitFor();
    await expectAccessible(page, 'not found');
    await context.close();
  });
});
