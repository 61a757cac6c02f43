import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs } from './support/browser.ts';

/**
 * The application on a phone (issue 20 item 4): at 375 px the header is one line and the navigation,
 * search and logout fold into a menu; at 320 px no screen scrolls sideways — every screen each demo user
 * type reaches, the record pages included.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** How far the page is wider than the screen (0: no sideways scroll). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Opens each path, waits for its heading and for its data, and answers the ones wider than the screen. */
async function wideScreens(page: Page, paths: string[]): Promise<string[]> {
  const wide: string[] = [];
  for (const path of paths) {
    await page.goto(`/app${path}`);
    await page.locator('main h1').first().waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, {
      timeout: 10_000,
    });
    await page.waitForTimeout(300);
    const by = await overflow(page);
    if (by > 0) wide.push(`${path} (+${by} px)`);
  }
  return wide;
}

/** The href of the first link in `selector` on `path` (a record page to visit). */
async function firstLink(page: Page, path: string, selector: string): Promise<string> {
  await page.goto(`/app${path}`);
  const link = page.locator(selector).first();
  await link.waitFor();
  return ((await link.getAttribute('href')) ?? '').replace(/^\/app/, '');
}

describe('On a phone (issue 20 item 4)', () => {
  it('folds the navigation into a menu at 375 px', async () => {
    const { page, context, problems } = await newPage(browser);
    await page.setViewportSize({ width: 375, height: 800 });
    await signInAs(page, 'admin01');
    const nav = page.locator('#app-nav');
    expect(await nav.isVisible()).toBe(false);
    const heading = await page.locator('main h1').boundingBox();
    // The heading is in the first screen, well above the fold (the header is one line).
    expect(heading?.y ?? 999).toBeLessThan(160);
    const menu = page.locator('#app-menu-button');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.waitFor();
    expect(await page.locator('#logout-button').isVisible()).toBe(true);
    await expectAccessible(page, 'menu open');
    // Escape folds it and gives focus back to the button; a link taken folds it too.
    await page.keyboard.press('Escape');
    expect(await nav.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('app-menu-button');
    await menu.click();
    await nav.getByRole('link', { name: 'Transactions' }).click();
    await page.waitForURL(/\/app\/transactions$/);
    await nav.waitFor({ state: 'hidden' });
    // On a wide screen there is no menu button: the navigation shows.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await menu.isVisible()).toBe(false);
    expect(await nav.isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('scrolls no screen sideways at 320 px, for every type of demo user', async () => {
    const plan: Record<string, (page: Page) => Promise<string[]>> = {
      admin01: async (page) => [
        '/',
        '/people',
        '/people/new',
        '/people/active01',
        '/people/active01/edit',
        '/organisation',
        '/organisation/100001',
        '/organisation/100001/cardholders',
        await firstLink(page, '/organisation/100001/cardholders', '#cardholder-results tbody a'),
        '/organisation/100001/accounts',
        await firstLink(page, '/organisation/100001/accounts', '#account-results tbody a'),
        '/organisation/100001/account-groups',
        '/organisation/100001/real-cards',
        '/organisation/100001/program-options',
        '/organisation/100001/expenses/reports',
        '/expense-approvals',
        '/transactions',
        await firstLink(page, '/transactions', '#transactions-results tbody a'),
        '/transactions/exports',
        '/roles',
        '/audit',
        '/profile',
        '/issuers',
        '/no-such-page',
      ],
      sysadmin01: async () => [
        '/issuers',
        '/issuers/1001',
        '/issuers/1001/edit',
        '/issuers/1001/program-options',
        '/issuers/1001/dispute-reasons',
        '/issuers/1001/account-status-codes',
        '/issuer-groups',
        '/organisation/new',
        '/transactions/import',
        '/people/agmgr01/edit',
      ],
      active01: async (page) => [
        '/',
        '/transactions',
        await firstLink(page, '/transactions', '#transactions-results tbody a'),
        '/my-cards',
        '/expense-reports',
        await firstLink(page, '/expense-reports', '#reports tbody a'),
        '/profile',
      ],
    };
    for (const [userId, paths] of Object.entries(plan)) {
      const { page, context, problems } = await newPage(browser);
      await page.setViewportSize({ width: 320, height: 700 });
      await signInAs(page, userId);
      expect(await wideScreens(page, await paths(page)), `${userId}: screens wider than 320 px`).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
