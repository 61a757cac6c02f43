import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SUPPORTED_LOCALES } from '@cardportal/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DEMO_PASSWORD, dataDir, launch, signIn } from './support/browser.ts';
import { runCli } from './support/cli.ts';
import { root } from './support/product.ts';

/**
 * Issue 22, seen as a bank's customer sees the portal: every demo co-brand's header logo stands out
 * from the header behind it (measured on the rendered pixels), and the show/hide toggle of a secret
 * field never makes the field narrower than the form's other fields, in every language, at 320, 375
 * and 1280 px. Screenshots land in test-results/portal-legibility/.
 */
const cobrands = JSON.parse(readFileSync(path.join(root, 'apps/server/demo/cobrands.json'), 'utf8')) as {
  name: string;
  locales: string[];
  fssoRedirectUrl: string | null;
}[];
const WIDTHS = [320, 375, 1280] as const;
const shots = path.join(root, 'test-results/portal-legibility');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  mkdirSync(shots, { recursive: true });
});
afterAll(() => browser?.close());

/** Decodes two same-sized PNG screenshots in the page and compares them pixel by pixel. */
async function comparePixels(page: Page, shown: Buffer, behind: Buffer): Promise<number> {
  return page.evaluate(
    async ([a, b]) => {
      const decode = async (base64: string) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d');
        if (!context) throw new Error('no 2d context');
        context.drawImage(bitmap, 0, 0);
        return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      };
      const [logo, back] = await Promise.all([decode(a), decode(b)]);
      const channel = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      const lum = (d: Uint8ClampedArray, i: number) =>
        0.2126 * channel(d[i] ?? 0) + 0.7152 * channel(d[i + 1] ?? 0) + 0.0722 * channel(d[i + 2] ?? 0);
      let contrasting = 0;
      const pixels = logo.length / 4;
      for (let i = 0; i < logo.length; i += 4) {
        const x = lum(logo, i);
        const y = lum(back, i);
        // WCAG 1.4.11: graphical objects need 3:1 against the colours next to them.
        if ((Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05) >= 3) contrasting += 1;
      }
      return contrasting / pixels;
    },
    [shown.toString('base64'), behind.toString('base64')] as const,
  );
}

/**
 * How much of the logo can be seen: the share of the logo's own painted pixels (opaque in the image
 * file) that differ by 3:1 or more from what is behind them on the page (the header, or the logo's
 * plate). Measured on screenshots of the logo's content box, with and without the image's pixels.
 */
async function logoVisibility(page: Page): Promise<{ visible: number; ink: number; ratio: number }> {
  const logo = page.locator('img.cp-brand__logo');
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('img.cp-brand__logo');
    return img?.complete && img.naturalWidth > 0;
  });
  const { clip, ink } = await logo.evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.drawImage(img, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let opaque = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) >= 128) opaque += 1;
    const box = img.getBoundingClientRect();
    const style = getComputedStyle(img);
    const px = (v: string) => Number.parseFloat(v) || 0;
    const left = px(style.paddingLeft) + px(style.borderLeftWidth);
    const top = px(style.paddingTop) + px(style.borderTopWidth);
    const right = px(style.paddingRight) + px(style.borderRightWidth);
    const bottom = px(style.paddingBottom) + px(style.borderBottomWidth);
    return {
      ink: opaque / (data.length / 4),
      clip: {
        x: Math.ceil(box.left + left),
        y: Math.ceil(box.top + top),
        width: Math.floor(box.width - left - right) - 1,
        height: Math.floor(box.height - top - bottom) - 1,
      },
    };
  });
  const shown = await page.screenshot({ clip, animations: 'disabled' });
  // The image's pixels moved out of its box: what stays is what is behind the logo.
  await logo.evaluate((img: HTMLImageElement) => img.style.setProperty('object-position', '-100000px 0'));
  const behind = await page.screenshot({ clip, animations: 'disabled' });
  await logo.evaluate((img: HTMLImageElement) => img.style.removeProperty('object-position'));
  const visible = await comparePixels(page, shown, behind);
  return { visible, ink, ratio: visible / ink };
}

describe('header logos stand out from the header (issue 22 item 1)', () => {
  it.each(cobrands)('$name', async ({ name, locales, fssoRedirectUrl }) => {
    // an SSO co-brand's sign-in leaves for its identity provider: its forgot-password screen shows the header
    const screen = fssoRedirectUrl ? 'forgot-password' : 'signin';
    // The header is laid out by CSS alone: one page, measured at each width in turn.
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: WIDTHS[0], height: 800 },
    });
    const page = await context.newPage();
    await page.goto(`/sdportal/portalstatic/${screen}?cobrandHost=${name}&locale=${locales[0]}`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const seen = await logoVisibility(page);
      await page.screenshot({ path: path.join(shots, `${screen}-${name}-${width}.png`), fullPage: true });
      // At least a third of what the logo paints must stand out from what is behind it by 3:1: its
      // lettering, when its mark is brand-coloured (a logo on a header of its own colour shows 0-6%).
      // Anti-aliased edges and a logo's own light details (a yellow mark on white) take the rest.

      expect(
        seen.ratio,
        `${name} at ${width}px: ${(seen.visible * 100).toFixed(1)}% of the box contrasts, ink ${(seen.ink * 100).toFixed(1)}%`,
      ).toBeGreaterThanOrEqual(1 / 3);
    }
    await context.close();
  });

  it('the measurement fails a logo painted on a header of its own colour', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=cardportal&locale=en_US');
    // the defect of issue 22: the brand-blue logo straight on the brand-blue header, no plate
    await page.locator('img.cp-brand__logo').evaluate((img: HTMLImageElement) => {
      img.style.setProperty('background', 'transparent');
    });
    const seen = await logoVisibility(page);
    expect(seen.ratio).toBeLessThan(1 / 6);
    await context.close();
  });
});

describe('secret fields keep the width of the form (issue 22 item 4)', () => {
  const userId = 'e2eissue22';
  beforeAll(async () => {
    const made = await runCli(
      dataDir(),
      'user',
      'create',
      '--password',
      DEMO_PASSWORD,
      '--user-id',
      userId,
      '--email',
      'issue22@example.com',
      '--expired',
    );
    expect(made.code, made.stderr).toBe(0);
  });

  /** Width of each secret input against the widest field of its form (a form's fields share a width). */
  async function narrowest(page: Page): Promise<{ field: string; input: number; form: number }[]> {
    return page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>('.cp-password__input')].map((input) => {
        const form = input.closest('form');
        const widths = [...(form?.querySelectorAll<HTMLElement>('.cp-field__input') ?? [])].map(
          (f) => f.getBoundingClientRect().width,
        );
        const fieldBox = input.closest('.cp-field')?.getBoundingClientRect().width ?? 0;
        return {
          field: input.id,
          input: input.getBoundingClientRect().width,
          form: Math.max(fieldBox, ...widths),
        };
      }),
    );
  }

  it('on sign-in and change password, in all 23 languages, at 320, 375 and 1280 px', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, userId, DEMO_PASSWORD, '?cobrandHost=cardportal&locale=en_US');
    await page.waitForURL(/\/change-password/);
    const changeUrl = new URL(page.url());
    const problems: string[] = [];
    // The portal lays these screens out by CSS alone (no script reads the width), so each page is loaded
    // once and measured at the three widths in turn, as a resized window is.
    for (const locale of SUPPORTED_LOCALES) {
      for (const screen of ['signin', 'change-password'] as const) {
        const url =
          screen === 'signin'
            ? `/sdportal/portalstatic/signin?cobrandHost=cardportal&locale=${locale}`
            : `${changeUrl.pathname}?${new URLSearchParams({ ...Object.fromEntries(changeUrl.searchParams), locale })}`;
        await page.goto(url);
        await page.locator('.cp-password__toggle').first().waitFor();
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          const found = await narrowest(page);
          expect(found.length, `${screen} ${locale}`).toBeGreaterThan(0);
          for (const f of found) {
            if (f.input < f.form - 1)
              problems.push(`${screen} ${locale} ${width}px #${f.field}: ${f.input} < ${f.form}`);
          }
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth > window.innerWidth + 1,
          );
          if (overflow) problems.push(`${screen} ${locale} ${width}px scrolls sideways`);
          if (['en_US', 'fi', 'ru', 'de'].includes(locale)) {
            await page.screenshot({
              path: path.join(shots, `${screen}-${locale}-${width}.png`),
              fullPage: true,
            });
          }
        }
      }
    }
    expect(problems).toEqual([]);
    await context.close();
    // 46 page loads (23 languages × 2 screens), each measured at 3 widths, beside the main group's files.
  }, 900_000);
});

/** A PortalLabels text of a locale, from the bundles the server serves. */
function label(locale: string, key: string): string {
  const bundle = JSON.parse(
    readFileSync(path.join(root, `packages/i18n/bundles/${locale}/PortalLabels.json`), 'utf8'),
  ) as Record<string, string>;
  return bundle[key] ?? '';
}

describe('one language per page: the logout screen (issue 22 item 2)', () => {
  // Each co-brand's page in its languages while the user_locale cookie holds another language.
  const cases = cobrands.flatMap(({ name, locales }) =>
    locales.slice(0, 3).map((locale) => ({ name, locale, cookie: locale === 'de' ? 'ja' : 'de' })),
  );
  it('heading, advice and button follow the page locale, not the cookie', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    for (const { name, locale, cookie } of cases) {
      await context.clearCookies();
      await context.addCookies([{ name: 'user_locale', value: cookie, url: baseUrl() }]);
      await page.goto(`/sdportal/portalstatic/logout?cobrandHost=${name}&locale=${locale}`);
      await page.locator('h1').waitFor();
      const lang = await page.evaluate(() => document.documentElement.lang);
      const shown = {
        heading: (await page.locator('h1').textContent())?.trim(),
        advice: (await page.locator('.cp-card .cp-text').first().textContent())?.trim(),
        button: (await page.locator('#return-to-login').count())
          ? (await page.locator('#return-to-login').textContent())?.trim()
          : label(locale, 'logout.returnToLogin'),
      };
      const wanted = {
        heading: label(locale, 'logout.loggedOut'),
        advice: label(locale, 'logout.securityAdvice'),
        button: label(locale, 'logout.returnToLogin'),
      };
      if (JSON.stringify(shown) !== JSON.stringify(wanted)) {
        problems.push(`${name} ${locale} (cookie ${cookie}, lang ${lang}): ${JSON.stringify(shown)}`);
      }
      if (name === 'cardportal' || locale === 'ja') {
        await page.screenshot({ path: path.join(shots, `logout-${name}-${locale}.png`), fullPage: true });
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the sign-in heading and <title> in the page language (issue 22 item 3)', () => {
  const records = JSON.parse(readFileSync(path.join(root, 'apps/server/demo/cobrands.json'), 'utf8')) as {
    name: string;
    locales: string[];
    fssoRedirectUrl: string | null;
    appName: string;
    signInToLabel: string;
    texts?: Record<string, { appName?: string; signInToLabel?: string }>;
  }[];
  it('every demo co-brand in each of its languages (the default co-brand: all 23)', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    for (const record of records.filter((r) => !r.fssoRedirectUrl)) {
      for (const locale of record.locales) {
        const own = record.texts?.[locale];
        const heading = `${own?.signInToLabel ?? record.signInToLabel} ${own?.appName ?? record.appName}`;
        const url = `/sdportal/portalstatic/signin?cobrandHost=${record.name}&locale=${locale}`;
        // the server's page (its <title> and rendered h1), then the page as the browser shows it
        const html = await (await page.request.get(url)).text();
        const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
        const fromHtml = (s: string) => s.replaceAll('&#39;', "'").replaceAll('&amp;', '&');
        if (fromHtml(title) !== heading) problems.push(`${record.name} ${locale}: server <title> "${title}"`);
        await page.goto(url);
        const h1 = (await page.locator('h1').textContent())?.trim();
        if (h1 !== heading) problems.push(`${record.name} ${locale}: h1 "${h1}", wanted "${heading}"`);
        const shownTitle = await page.title();
        if (shownTitle !== heading) problems.push(`${record.name} ${locale}: title "${shownTitle}"`);
      }
    }
    expect(problems).toEqual([]);
    // the default co-brand greets a German user in German
    expect(records[0]?.texts?.de?.appName).toBe('Firmenkarten-Services');
    await context.close();
  });
});

describe('the user_id cookie of spec §3 (issue 22 item 5)', () => {
  it('is set by a successful sign-in only, and the sign-in form offers the remembered ID', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    const userIdCookie = async () => (await context.cookies()).find((c) => c.name === 'user_id');
    await signIn(page, 'active01', 'Wrong-password-1', '?cobrandHost=banconorte&locale=es');
    await page.locator('#signin-error').waitFor();
    expect(await userIdCookie()).toBeUndefined();
    await page.locator('#userId').fill('ACTIVE01');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.locator('#signin-submit').click();
    await page.waitForURL(/\/app\/$/);
    const cookie = await userIdCookie();
    expect(cookie).toMatchObject({ value: 'active01', path: '/sdportal/portalstatic', sameSite: 'Strict' });
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);
    // At 375 px the logout sits in the header's menu (issue 20 item 4).
    await page.locator('#app-menu-button').click();
    await page.locator('#logout-button').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/logout/);
    await page.locator('#return-to-login').click();
    await page.waitForURL(/\/signin/);
    await expect.poll(() => page.locator('#userId').inputValue()).toBe('active01');
    expect(await page.locator('#password').inputValue()).toBe('');
    await page.screenshot({ path: path.join(shots, 'signin-remembered-id-375.png'), fullPage: true });
    await context.close();
  });
});

describe('the user_locale cookie en of spec §3 (issue 22 item 6)', () => {
  it('is accepted as it is: no rewrite, no reload, the page in en_US', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    await context.addCookies([{ name: 'user_locale', value: 'en', url: baseUrl() }]);
    const page = await context.newPage();
    let documents = 0;
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents += 1;
    });
    await page.goto('/sdportal/portalstatic/signin?cobrandHost=cardportal');
    await page.locator('#signin-submit').waitFor();
    await page.waitForLoadState('networkidle');
    expect(documents).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    expect((await context.cookies()).find((c) => c.name === 'user_locale')?.value).toBe('en');
    await context.close();
  });
});

describe('no logo probes where the server knows the logos (issue 22 item 6)', () => {
  it('every screen of every demo co-brand loads without a 404 or a console error', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    const problems: string[] = [];
    let where = '';
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${where}: ${response.status()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error')
        problems.push(`${where}: console ${message.text()} ${message.location().url}`);
    });
    for (const { name, locales, fssoRedirectUrl } of cobrands) {
      const screens = ['forgot-password', 'logout', 'locked', ...(fssoRedirectUrl ? [] : ['signin'])];
      for (const screen of screens) {
        where = `${name} ${screen}`;
        await page.goto(`/sdportal/portalstatic/${screen}?cobrandHost=${name}&locale=${locales.at(-1)}`);
        await page.locator('h1').waitFor();
        await page.locator('.cp-brand__logo, .cp-brand__name').first().waitFor();
        // a probe, had there been one, is sent at once on hydration: give its answer time to come back
        await page.waitForTimeout(300);
      }
    }
    // the co-brand from session storage (spec §1) on a page whose link lost its cobrandHost
    for (const { name, locales } of cobrands.filter((c) => !c.fssoRedirectUrl)) {
      where = `${name} from session storage`;
      await page.goto(`/sdportal/portalstatic/signin?cobrandHost=${name}&locale=${locales[0]}`);
      await page.locator('h1').waitFor();
      for (const screen of ['forgot-password', 'locked']) {
        await page.goto(`/sdportal/portalstatic/${screen}`);
        await page.locator('h1').waitFor();
        await page.locator('.cp-brand__logo, .cp-brand__name').first().waitFor();
        await page.waitForTimeout(300);
        expect(await page.locator('.cp-brand__logo').getAttribute('src'), where).toContain(name);
      }
    }
    expect(problems).toEqual([]);
    await context.close();
    // About 40 page loads, each waiting for a probe that must not come: sized to the work under load.
  }, 900_000);
});
