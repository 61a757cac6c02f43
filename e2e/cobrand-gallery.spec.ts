import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Locale, toLanguageTag } from '@cardportal/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { axe, baseUrl, DEMO_PASSWORD, launch } from './support/browser.ts';
import { root } from './support/product.ts';

/**
 * Every demo co-brand in every one of its languages, plus de, ja and ru (mapped per spec §5 when the
 * co-brand lacks them): a demo user signs in and out, and the sign-in screen, the application's home,
 * the logout screen and the forgot-password screen render without raw keys,
 * without text overflowing its box, and with WCAG AA contrast. Screenshots land in test-results/.
 */
const cobrands = JSON.parse(readFileSync(path.join(root, 'apps/server/demo/cobrands.json'), 'utf8')) as {
  name: string;
  locales: string[];
  fssoRedirectUrl: string | null;
}[];
const keys = new Set(
  ['PortalLabels', 'Messages'].flatMap((b) =>
    Object.keys(JSON.parse(readFileSync(path.join(root, `packages/i18n/bundles/en_US/${b}.json`), 'utf8'))),
  ),
);
const shots = path.join(root, 'test-results/cobrands');
const SCREENS = ['signin', 'app', 'logout', 'forgot-password'] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  mkdirSync(shots, { recursive: true });
});
afterAll(() => browser?.close());

async function problemsOn(page: Page, checkContrast: boolean): Promise<string[]> {
  const found = await page.evaluate(
    (bundleKeys: string[]) => {
      const problems: string[] = [];
      // biome-ignore lint/performance/useDomNodeTextContent: only the visible text counts here
      const text = document.body.innerText;
      for (const key of bundleKeys) if (text.includes(key)) problems.push(`raw key shown: ${key}`);
      if (document.documentElement.scrollWidth > window.innerWidth + 1)
        problems.push('page scrolls sideways');
      for (const el of document.querySelectorAll<HTMLElement>(
        'button, label, a, h1, h2, p, legend, option, dt, dd, li',
      )) {
        const style = getComputedStyle(el);
        if (style.display === 'inline' || el.clientWidth === 0) continue;
        if (
          el.scrollWidth > el.clientWidth + 1 &&
          style.overflowX !== 'auto' &&
          style.overflowX !== 'scroll'
        ) {
          problems.push(
            `text overflows <${el.tagName.toLowerCase()}>: "${(el.textContent ?? '').slice(0, 40)}"`,
          );
        }
      }
      return problems;
    },
    [...keys],
  );
  if (!checkContrast) return found;
  const contrast = await axe(page).withRules(['color-contrast']).analyze();
  for (const v of contrast.violations) {
    found.push(`contrast: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
  return found;
}

// The cases run a few at a time (each in a browser context of its own): most of a case is waiting for
// the server and the page, so two cores carry three cases at once (docs/testing.md).
describe.concurrent.each(cobrands)('co-brand $name', ({ name, locales, fssoRedirectUrl }) => {
  const wanted = [...new Set([...locales, 'en_US', 'de', 'ja', 'ru'])];
  it.for(wanted)('renders in %s', async (locale, { expect }) => {
    // Contrast is a matter of the co-brand's colours, the same in every language: axe checks it once per
    // co-brand and screen, in the co-brand's first language. Raw keys and overflow are checked in all.
    const checkContrast = locale === locales[0];
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    const problems: string[] = [];
    for (const screen of SCREENS) {
      if (fssoRedirectUrl && (screen === 'signin' || screen === 'app')) {
        if (screen === 'app') continue;
        // A federated co-brand's sign-in screen hands the visitor to its identity provider at once.
        await page.route(fssoRedirectUrl, (route) =>
          route.fulfill({ status: 200, contentType: 'text/html', body: '<title>IdP</title>' }),
        );
        await page.goto(`/sdportal/portalstatic/signin?cobrandHost=${name}&locale=${locale}`);
        await page.waitForURL(fssoRedirectUrl);
        continue;
      }
      if (screen === 'app') {
        // Sign in from the screen just checked; the application opens in the same co-brand and language.
        await page.locator('#userId').fill('active01');
        await page.locator('#password').fill(DEMO_PASSWORD);
        await page.locator('#signin-submit').click();
        await page.waitForURL(/\/app\/$/);
        await page.locator('#welcome').waitFor();
      } else if (screen === 'logout' && !fssoRedirectUrl) {
        await page.locator('#logout-button').click();
        await page.waitForURL(/\/sdportal\/portalstatic\/logout/);
      } else {
        await page.goto(`/sdportal/portalstatic/${screen}?cobrandHost=${name}&locale=${locale}`);
      }
      await page.locator('main h1').first().waitFor();
      if (screen === 'logout') await page.locator('#return-to-login').waitFor();
      await page.locator('header img').first().waitFor();
      // <html lang> follows the locale actually shown (a language the co-brand lacks maps to its first).
      const shown = locales.includes(locale) ? locale : locales[0];
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(toLanguageTag(shown as Locale));
      await page.screenshot({ path: path.join(shots, `${name}-${locale}-${screen}.png`), fullPage: true });
      for (const p of await problemsOn(page, checkContrast)) problems.push(`${screen}: ${p}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
