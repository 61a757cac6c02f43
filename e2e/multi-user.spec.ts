import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, launch, newPage, signIn, signInAs } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const QUERY = '?cobrandHost=cardportal&locale=en_US';

/** The user ID the home page says is signed in. */
const signedInAs = (page: Page) =>
  page.locator('.app-facts dt:has-text("User ID") + dd').first().textContent();

describe('multi-user and access as user (issue 7)', () => {
  it('a linked person chooses, by keyboard, which user ID to work as after sign-in', async () => {
    const { page, context, problems } = await newPage(browser);
    await signIn(page, 'multi01', DEMO_PASSWORD, QUERY);
    await page.waitForURL(/\/app\/$/);
    const heading = page.getByRole('heading', { level: 1, name: 'Choose your user ID' });
    await heading.waitFor();
    // Focus starts on the heading; the first choice is the ID signed in with.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await expectAccessible(page, 'multi-user choice');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('multi01');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('multi02');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#welcome').waitFor();
    expect(await signedInAs(page)).toBe('multi02');
    expect(await page.locator('.app-facts').textContent()).toContain('Level Manager');
    // The choice is final for the session: reloading does not offer it again.
    await page.reload();
    await page.locator('#welcome').waitFor();
    expect(await heading.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a super user accesses the application as a cardholder, sees the banner everywhere, and returns', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/people/active01');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('button', { name: /access as/i }).click();
    const banner = page.getByRole('region', { name: 'Access as user' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain(
      'You are working as Ada Active (active01). Signed in as Carl Admin (admin01).',
    );
    await page.locator('#welcome').waitFor();
    expect(await signedInAs(page)).toBe('active01');
    await expectAccessible(page, 'access as user');
    // The banner stays on every screen.
    await page.getByRole('navigation').getByRole('link', { name: 'My Profile' }).click();
    await page.waitForURL(/\/app\/profile$/);
    await banner.waitFor();
    await page.getByRole('button', { name: 'Return to my session' }).click();
    await page.waitForURL(/\/app\/$/);
    await page.locator('#welcome').waitFor();
    expect(await signedInAs(page)).toBe('admin01');
    expect(await banner.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
