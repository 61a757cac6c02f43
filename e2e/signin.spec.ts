import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, launch, newPage, signIn } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('sign-in (spec §2, §4)', () => {
  it('signs a demo user into /app/ and shows who is signed in', async () => {
    const { page, context, problems } = await newPage(browser);
    await page.goto('/');
    await page.waitForURL(/\/sdportal\/portalstatic\/signin/);
    await page.locator('#userId').waitFor();
    await expectAccessible(page, 'sign-in');
    expect(await page.title()).toMatch(/\S/);
    await page.locator('#userId').fill('  active01 ');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/app\/$/);
    await expect.poll(() => page.locator('#welcome').textContent()).toContain('Ada');
    await expectAccessible(page, 'application home');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'cpsid')?.httpOnly).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the login-failed error and clears the inputs on a wrong password', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin01', 'Wrong-password-1');
    const error = page.locator('#signin-error');
    await error.waitFor();
    expect((await error.textContent())?.trim().length).toBeGreaterThan(0);
    expect(await page.locator('#userId').inputValue()).toBe('');
    expect(await page.locator('#password').inputValue()).toBe('');
    expect(page.url()).toMatch(/\/signin/);
    await expectAccessible(page, 'sign-in with error');
    await context.close();
  });

  it('shows required-field errors without calling the server', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin');
    let posted = false;
    page.on('request', (r) => {
      if (r.url().includes('/heracles/login')) posted = true;
    });
    await page.locator('#signin-submit').click();
    await expect.poll(() => page.locator('#userId').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#password').getAttribute('aria-invalid')).toBe('true');
    expect(posted).toBe(false);
    await context.close();
  });

  it('shows the login-failed error for invalidLogin=true', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?invalidLogin=true');
    await page.locator('#signin-error').waitFor();
    await context.close();
  });

  it('toggles the password between hidden and shown', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin');
    const field = page.locator('#password');
    expect(await field.getAttribute('type')).toBe('password');
    await page.locator('button[aria-controls="password"]').click();
    expect(await field.getAttribute('type')).toBe('text');
    await context.close();
  });

  it('signs in with the keyboard alone', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin');
    await page.locator('#userId').focus();
    await page.keyboard.type('admin01');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/$/);
    await context.close();
  });

  it('sends an expired password to the change-password screen', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'e2eexpired01', DEMO_PASSWORD);
    await page.waitForURL(/\/sdportal\/portalstatic\/change-password/);
    await context.close();
  });
});
