import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { suiteScale } from './product.ts';

/**
 * The product this file's worker owns (global-setup.ts starts one per worker): `VITEST_POOL_ID` is the
 * worker's number, 1 to the project's `maxWorkers`, and no two files run at once in one worker. A copy
 * of a spec made by scripts/suite-at-scale.ts (`name-scaleN.spec.ts`) uses the N-th set of products.
 */
function product() {
  const products = inject('products');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const copy = Number(/-scale(\d+)\./.exec(expect.getState().testPath ?? '')?.[1] ?? '1');
  const perCopy = products.length / suiteScale();
  const found = products[(copy - 1) * perCopy + worker - 1];
  if (!found) throw new Error(`no product for worker ${worker}, copy ${copy} (${products.length} started)`);
  return found;
}

export const baseUrl = (): string => product().baseUrl;
export const mailDir = (): string => product().mailDir;
export const dataDir = (): string => product().dataDir;

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed page requests seen, for assertions. */
  problems: string[];
}

export async function newPage(browser: Browser, options: { locale?: string } = {}): Promise<Session> {
  const context = await browser.newContext({ baseURL: baseUrl(), locale: options.locale ?? 'en-US' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 40[14]/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return { context, page, problems };
}

/**
 * axe-core for the current page, run inside it (`axe.run`). The builder's default splits a run into
 * `runPartial` per frame and a `finishRun` in a new blank page of the context: a page (and often a
 * renderer process) more per check, which cost ~0.7 s of CPU a check against ~0.2 s (docs/testing.md).
 * The product's screens have no cross-origin frames, the one thing only the split run reaches; same-origin
 * frames are still checked, each given 30 s to answer axe's ping.
 */
export const axe = (page: Page): AxeBuilder =>
  // A frame that does not answer axe's ping within pingWaitTime (default 500 ms) is skipped without a word;
  // on a loaded machine a same-origin frame took longer and its violations went unseen (CI, session 16).
  new AxeBuilder({ page }).setLegacyMode(true).options({ pingWaitTime: 30_000 });

/** axe-core on the current page: no serious or critical violation (STYLE: accessibility is tested). */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // On a settled page: a table refreshing (aria-busy) is dimmed on purpose, and axe would judge the dimming.
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, {
    timeout: 15_000,
  });
  const result = await axe(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${label}`,
  ).toEqual([]);
}

export const DEMO_PASSWORD = 'Cardportal#2026';

/** The first password in a mail: the token shaped like the generated passwords (any language around it). */
export function passwordIn(text: string): string {
  return (
    text
      .split(/\s+/)
      .map((t) => t.replace(/[.,;:»«"”“]+$/, ''))
      .find(
        (t) =>
          /^[A-Za-z0-9#%+=?!_-]{12,20}$/.test(t) &&
          /[A-Z]/.test(t) &&
          /[a-z]/.test(t) &&
          /\d/.test(t) &&
          /[#%+=?!_-]/.test(t),
      ) ?? ''
  );
}

export async function signIn(page: Page, userId: string, password: string, query = ''): Promise<void> {
  await page.goto(`/sdportal/portalstatic/signin${query}`);
  await page.locator('#userId').fill(userId);
  await page.locator('#password').fill(password);
  await page.locator('#signin-submit').click();
}

/**
 * Signs a demo user in for a spec whose subject is the application, not the sign-in: the call the
 * portal's sign-in screen makes (`POST /heracles/login`, in the page's own context, so its cookies are the
 * page's), then the application's home page. The sign-in screen itself is tested in signin.spec.ts and
 * the portal's specs; skipping it here saves a page load of the portal per sign-in (docs/testing.md).
 */
export async function signInAs(page: Page, userId: string): Promise<void> {
  // The CSRF token the sign-in screen fetches first (a cookie, sent back as a header).
  await page.request.get('/sdportal/rest/csrf', { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  const token = (await page.context().cookies()).find((c) => c.name === 'sec-token')?.value ?? '';
  const answer = await page.request.post('/heracles/login', {
    form: { username: userId, password: DEMO_PASSWORD, 'login-form-type': 'password' },
    headers: { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': token, 'x-xsrf-token': token },
    maxRedirects: 0,
  });
  expect(answer.status(), `sign-in of ${userId}: ${await answer.text()}`).toBeLessThan(400);
  await page.goto('/app/');
  await page.locator('#welcome').waitFor();
}

/** Types an ISO date into a date field's segments (month, day, year), as a keyboard user does. */
export async function typeDate(page: Page, id: string, iso: string): Promise<void> {
  const [year = '', month = '', day = ''] = iso.split('-');
  for (const [type, digits] of [
    ['month', month],
    ['day', day],
    ['year', year],
  ] as const) {
    await page.locator(`#${id} [data-type="${type}"]`).click();
    await page.keyboard.type(digits);
  }
}
