import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/**
 * Before any page script runs, remembers the server-rendered card once the HTML is parsed (module
 * scripts run after that): a hydrated page keeps that very element, a page rendered again replaces it.
 */
const REMEMBER_SSR_NODE = `document.addEventListener('readystatechange', () => {
  if (document.readyState === 'interactive') window.__ssrCard = document.querySelector('#root[data-ssr] .cp-card');
});`;

async function hydrated(page: Page): Promise<void> {
  // The server-rendered submit button is disabled until the client took the page over.
  await page.locator('#signin-submit:not([disabled])').waitFor({ timeout: 30_000 });
}

const keptSsrCard = (page: Page) =>
  page.evaluate(() => {
    const remembered = (window as unknown as { __ssrCard?: Element | null }).__ssrCard;
    return Boolean(remembered?.isConnected && remembered === document.querySelector('#root .cp-card'));
  });

// Issue 6: the sign-in screen arrives rendered by the server and the client hydrates it.
describe('server-rendered sign-in (issue 6)', () => {
  it.each([
    ['cardportal', 'en_US', ''],
    ['banconorte', 'es', ''],
    ['banconorte', 'pt', '&locale=pt'],
    ['rheinland-kredit', 'de', ''],
    ['sakura-trust', 'ja', ''],
    ['bnc', 'es', '&invalidLogin=true'],
  ])('%s (%s%s) hydrates without a mismatch and keeps the server markup', async (cobrand, locale, extra) => {
    const { page, context, problems } = await newPage(browser);
    await page.addInitScript(REMEMBER_SSR_NODE);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`/sdportal/portalstatic/signin?cobrandHost=${cobrand}${extra}`);
    await hydrated(page);
    expect(await keptSsrCard(page)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.replace('_', '-'));
    // Everything the bootstrap needs was in the page: no co-brand, locale or text bundle fetch, no
    // HEAD probe for the logos.
    expect(requests.filter((p) => p.startsWith('/sdportal/rest/') || p.includes('/i18n/'))).toEqual([]);
    if (extra.includes('invalidLogin')) {
      expect((await page.locator('#signin-error').textContent())?.trim()).not.toBe('');
    }
    // React reports a hydration mismatch as a recoverable error (console / pageerror).
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps what was typed before the script arrived, and signs in with it', async () => {
    const { page, context, problems } = await newPage(browser);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/sdportal\/portalstatic\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const posted: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/heracles/login')) posted.push(r.postData() ?? '');
    });
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=cardportal', { waitUntil: 'commit' });
    await page.locator('#userId').fill('admin01');
    await page.locator('#password').fill('Wrong-password-1');
    expect(await page.locator('#signin-submit').isDisabled()).toBe(true);
    release();
    await hydrated(page);
    expect(await page.locator('#userId').inputValue()).toBe('admin01');
    await page.locator('#signin-submit').click();
    await page.locator('#signin-error h2').waitFor();
    expect(posted).toHaveLength(1);
    expect(new URLSearchParams(posted[0]).get('username')).toBe('admin01');
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    await context.close();
  });
});
