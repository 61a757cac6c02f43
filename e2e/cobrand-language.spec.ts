import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function logoSrc(page: import('playwright-core').Page): Promise<string> {
  const logo = page.locator('header img').first();
  await logo.waitFor();
  return (await logo.getAttribute('src')) ?? '';
}

describe('co-brand and language (spec §1, §4, §5)', () => {
  it('switches co-brand with cobrandHost: logo, colours and title follow', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=cardportal&locale=en_US');
    const defaultLogo = await logoSrc(page);
    const defaultColour = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--cp-primary'),
    );
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=banconorte&locale=es');
    const bncLogo = await logoSrc(page);
    expect(bncLogo).toContain('banconorte');
    expect(bncLogo).not.toBe(defaultLogo);
    const bncColour = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--cp-primary'),
    );
    expect(bncColour).not.toBe(defaultColour);
    // The co-brand is remembered in session storage for links without cobrandHost.
    await page.goto('/sdportal/portalstatic/signin');
    expect(await logoSrc(page)).toContain('banconorte');
    await expectAccessible(page, 'sign-in (banconorte)');
    await context.close();
  });

  it('falls back to the default co-brand for an unknown cobrandHost', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=nosuchbank');
    expect(await logoSrc(page)).toContain('cardportal');
    await context.close();
  });

  it('switches language with the selector: html lang and the locale cookie follow', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=cardportal');
    await page.locator('#locale-select').waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await page.locator('#locale-select').selectOption('de');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    const cookie = (await context.cookies()).find((c) => c.name === 'user_locale');
    expect(cookie?.value).toBe('de');
    expect(page.url()).toContain('locale=de');
    await context.close();
  });

  it('offers only the co-brand languages, and maps an unsupported locale to the first', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=banconorte&locale=ja');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('es');
    const options = await page
      .locator('#locale-select option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options[0]).toBe('es');
    expect(options).not.toContain('ja');
    await context.close();
  });
});
