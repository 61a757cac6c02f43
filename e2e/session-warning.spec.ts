import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, launch } from './support/browser.ts';
import { type Product, startProduct } from './support/product.ts';

let browser: Browser;
let product: Product;
beforeAll(async () => {
  // A product of its own with a 3-second idle time before the warning, on a new data directory it
  // initialises itself, exactly as `npm start` on a fresh checkout (the other specs' products start from a
  // prepared copy, support/global-setup.ts).
  [browser, product] = await Promise.all([launch(), startProduct({ SESSION_WARNING_MS: '3000' })]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('session-expiry warning (spec §2, §4)', () => {
  it('opens after the idle time, traps focus, continues with a ping, and logs out on request', async () => {
    const context = await browser.newContext({ baseURL: product.baseUrl });
    const page = await context.newPage();
    await page.goto('/sdportal/portalstatic/signin');
    await page.locator('#userId').fill('firstlog01');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/change-password/);
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: 15_000 });
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await dialog.textContent()).toMatch(/\d+/);
    await expectAccessible(page, 'session warning modal');
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    const first = await focused();
    await page.keyboard.press('Tab');
    const second = await focused();
    expect(second).not.toBe(first);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(first);

    const ping = page.waitForResponse(/pingPortal\.json/);
    await dialog.getByRole('button').first().click();
    expect((await ping).status()).toBe(200);
    await dialog.waitFor({ state: 'hidden' });

    await dialog.waitFor({ timeout: 15_000 });
    await dialog.getByRole('button').nth(1).click();
    await page.waitForURL(/\/logout/);
    await context.close();
  });

  it('warns in the application too, and Continue keeps the session', async () => {
    const context = await browser.newContext({ baseURL: product.baseUrl });
    const page = await context.newPage();
    await page.goto('/sdportal/portalstatic/signin');
    await page.locator('#userId').fill('active01');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/app\/$/);
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'session warning in the application');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await page.request.get('/app/api/me')).status()).toBe(200);
    await context.close();
  });
});
