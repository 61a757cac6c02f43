import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** The id and text of the focused element. */
const focused = (page: Page) =>
  page.evaluate(() => ({
    id: document.activeElement?.id ?? '',
    tag: document.activeElement?.tagName ?? '',
    text: document.activeElement?.textContent?.trim() ?? '',
  }));

/** Presses Tab until an element whose text is `text` has focus (at most `limit` presses). */
async function tabTo(page: Page, text: string, limit = 20): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if ((await focused(page)).text === text) return;
  }
  throw new Error(`no focusable "${text}" within ${limit} tabs`);
}

describe('application frame (issue 7)', () => {
  it('is usable with the keyboard alone: skip link, navigation, focus on the new screen', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await expectAccessible(page, 'app home');
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Skip to main content');
    expect(await page.locator('.skip-link').isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('main');

    await page.locator('body').focus();
    await tabTo(page, 'My Profile');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/profile$/);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect((await focused(page)).text).toBe('My Profile');
    await expectAccessible(page, 'my profile');

    await tabTo(page, 'People', 30);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/people$/);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect((await focused(page)).text).toBe('Search people');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('checks the global search on the client and opens the People results on Enter', async () => {
    const { page, context } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.locator('#global-search').fill('a');
    await page.keyboard.press('Enter');
    await page.locator('#global-search-error').waitFor();
    await expectAccessible(page, 'global search error');
    await page.locator('#global-search').fill('admin');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/people\?q=admin$/);
    await context.close();
  });
});

describe('People (issue 7)', () => {
  it('a company administrator searches, creates a cardholder, sees it, deactivates and reactivates it', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');

    await page.goto('/app/people');
    await page.locator('#people-q').fill('x');
    await page.locator('#people-search-submit').click();
    await page.locator('#people-q-error').waitFor();
    await expectAccessible(page, 'people search error');

    await page.locator('#people-q').fill('admin');
    await page.locator('#people-search-submit').click();
    await page.locator('#people-count').waitFor();
    await expectAccessible(page, 'people results');

    const userId = `e2ep${Date.now().toString(36).slice(-6)}`;
    await page.locator('#create-user-link').click();
    await page.locator('#user-userId').waitFor();
    await expectAccessible(page, 'create user');
    await page.locator('#user-userId').fill(userId);
    await page.locator('#user-firstName').fill('Petra');
    await page.locator('#user-lastName').fill('People');
    await page.locator('#user-email').fill(`${userId}@example.com`);
    await page.locator('#user-emailConfirm').fill(`${userId}@example.com`);
    await page.locator('#user-userType').selectOption('A');
    await page.locator('#user-save').click();
    await page.waitForURL(new RegExp(`/app/people/${userId}$`, 'i'));
    await page.locator('#user-facts').waitFor();
    expect(await page.locator('#user-done').textContent()).toContain('created');
    expect(await page.locator('#user-facts').textContent()).toContain(`${userId}@example.com`);
    await expectAccessible(page, 'view user');

    await page.locator('#user-deactivate').click();
    await page.locator('#confirm-ok').waitFor();
    await expectAccessible(page, 'confirm deactivate');
    await page.locator('#confirm-ok').click();
    await page.locator('#user-reactivate').waitFor();
    expect(await page.locator('#user-status').textContent()).toBe('Inactive');

    await page.locator('#user-reactivate').click();
    await page.locator('#confirm-ok').click();
    await page.locator('#user-deactivate').waitFor();
    expect(await page.locator('#user-status').textContent()).toBe('Active');

    await page.locator('#main a', { hasText: 'Back to search' }).click();
    await page.locator('#people-q').fill(userId);
    await page.locator('#people-search-submit').click();
    await page.locator(`#people-results a:text-is("${userId}")`).waitFor();

    await page.locator('nav a', { hasText: 'Home' }).click();
    await page.locator('#recent-items').waitFor();
    expect(await page.locator('#recent-items').textContent()).toContain(userId);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a page the user may not use says so: read-only edit for a system administrator, Issuers for a company administrator (issue 20 item 2)', async () => {
    const z = await newPage(browser);
    await signInAs(z.page, 'sysadmin01');
    await z.page.goto('/app/people/agmgr01/edit');
    await z.page.locator('#not-permitted-notice').waitFor();
    expect(await z.page.locator('#not-permitted-notice').textContent()).toContain(
      'may see user agmgr01 but not change it',
    );
    expect(await z.page.locator('main form').count()).toBe(0);
    await expectAccessible(z.page, 'read-only edit');
    await z.page.locator('#not-permitted-notice a').click();
    await z.page.waitForURL(/\/app\/people\/agmgr01$/);
    expect(z.problems).toEqual([]);
    await z.context.close();

    const c = await newPage(browser);
    await signInAs(c.page, 'admin01');
    await c.page.goto('/app/issuers');
    await c.page.locator('#not-permitted-heading').waitFor();
    expect(c.page.url()).toMatch(/\/app\/issuers$/);
    await expectAccessible(c.page, 'not permitted');
    await c.page.goto('/app/no-such-page');
    await c.page.locator('#not-found-heading').waitFor();
    expect(c.problems).toEqual([]);
    await c.context.close();
  });

  it('forms mark what is required and say what the marker means; help text under the field (issue 20 item 1)', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/people/new');
    await page.locator('#user-form-required-note').waitFor();
    expect(await page.locator('#user-form-required-note').textContent()).toBe(
      'Fields marked * are required.',
    );
    // Seen (a red star after the label), not read: the control's `required` is announced instead.
    const marker = await page
      .locator('label[for="user-lastName"]')
      .evaluate((label) => getComputedStyle(label, '::after').content);
    expect(marker).toContain('*');
    expect(await page.locator('#user-lastName').getAttribute('required')).not.toBeNull();
    expect(await page.locator('#user-locale').getAttribute('required')).toBeNull();
    expect(await page.locator('#user-locale').getAttribute('aria-describedby')).toBe('user-locale-hint');
    // One control height for text fields and selects.
    const heights = await page
      .locator('#user-lastName, #user-userType')
      .evaluateAll((nodes) => nodes.map((n) => Math.round(n.getBoundingClientRect().height)));
    expect(heights[0]).toBe(heights[1]);
    await expectAccessible(page, 'create user form');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a list exports what it shows as CSV and takes one action on the rows chosen (issue 20 item 3)', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/people?q=agmgr01');
    await page.locator('#people-results tbody tr').first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#people-export').click(),
    ]);
    const csv = await readFile((await download.path()) as string, 'utf8');
    expect(csv.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'userId,firstName,lastName,email,userType,status,company',
    );
    expect(csv).toContain('agmgr01,');

    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.locator('#people-bulk legend', { hasText: '1 user selected' }).waitFor();
    await expectAccessible(page, 'bulk actions');
    await page.locator('#people-bulk-deactivate').click();
    await page.locator('#people-bulk-confirm-ok').click();
    await page.locator('#people-bulk-outcome', { hasText: 'Changed: 1.' }).waitFor();
    await page.locator('#people-results tbody tr', { hasText: 'Inactive' }).waitFor();
    await page.getByRole('checkbox', { name: 'Select agmgr01' }).check();
    await page.locator('#people-bulk-reactivate').click();
    await page.locator('#people-bulk-confirm-ok').click();
    await page.locator('#people-bulk-outcome', { hasText: 'Changed: 1.' }).waitFor();
    await page.locator('#people-results tbody tr', { hasNotText: 'Inactive' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
  it('sorts a list by its column headers, on the server, with the order announced (issue 20 item 3)', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/people?status=Active');
    const rows = page.locator('#people-results tbody tr');
    await rows.first().waitFor();
    const userIds = () => page.locator('#people-results tbody th[scope="row"]').allTextContents();
    const header = (name: string) => page.locator('#people-results thead th', { hasText: name });
    expect(await header('Name').getAttribute('aria-sort')).toBe('ascending');
    expect(await header('User ID').getAttribute('aria-sort')).toBe('none');
    // E-mail is not an order the server offers: no button in its header.
    expect(await header('E-mail').locator('button').count()).toBe(0);
    expect(await header('E-mail').getAttribute('aria-sort')).toBeNull();

    // The rows of the new order have arrived: the header says so and the table is no longer busy.
    const sortedBy = (name: string, sort: string) =>
      page.waitForFunction(
        ([n, s]) => {
          const table = document.querySelector('#people-results');
          const th = table?.querySelector(`thead th[aria-sort="${s}"]`);
          return th?.textContent === n && !table?.hasAttribute('aria-busy');
        },
        [name, sort],
      );
    // By keyboard: focus the User ID header's button and press Enter.
    await header('User ID').locator('button').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/sort=userId&dir=asc/);
    await sortedBy('User ID', 'ascending');
    const ascending = await userIds();
    expect(ascending).toEqual([...ascending].sort());
    await header('User ID').locator('button').click();
    await page.waitForURL(/sort=userId&dir=desc/);
    await sortedBy('User ID', 'descending');
    const descending = await userIds();
    expect(descending).toEqual([...descending].sort().reverse());
    expect(descending[0]).not.toBe(ascending[0]);
    expect(await header('User ID').getAttribute('aria-sort')).toBe('descending');
    await expectAccessible(page, 'people sorted by user ID, descending');
    // The order is in the URL: a reload shows the same order, and the CSV exports it.
    await page.reload();
    await rows.first().waitFor();
    expect(await header('User ID').getAttribute('aria-sort')).toBe('descending');
    expect(await page.locator('#people-export').getAttribute('href')).toContain('sort=userId&dir=desc');
    expect(problems).toEqual([]);
    await context.close();
  });
});
