import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs } from './support/browser.ts';

/**
 * The card programme's transactions in the browser (issue 15 items 3 and 8): a cardholder's spend
 * picture and its table on the home page, the Transaction Summary with its filters, the page jump and
 * one transaction, with axe on each state; no full card number on any page.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('Transactions (issue 15)', () => {
  it('a cardholder sees months of spending as a picture and a table, then the transactions themselves', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'active01');
    await page.locator('#spend-by-month-chart').waitFor();
    await page.locator('#spend-by-category-chart').waitFor();
    expect(await page.locator('#spend-by-month-chart').getAttribute('role')).toBe('img');
    expect(await page.locator('#spend-by-month-chart rect').count()).toBeGreaterThan(2);
    // The figures behind the picture, as a table: six months, each with an amount in dollars.
    await page.locator('#spend-by-month-caption ~ details summary').click();
    const months = page.locator('#spend-by-month-table tbody tr');
    expect(await months.count()).toBe(6);
    expect(await months.last().textContent()).toMatch(/\$[\d,]+\.\d{2}/);
    await expectAccessible(page, 'home with spend picture');

    await page.locator('#home-transactions-link').click();
    await page.waitForURL(/\/app\/transactions$/);
    await page.locator('#transactions-results').waitFor();
    expect(await page.locator('#transactions-count').textContent()).toMatch(/^\d+ transactions found$/);
    await expectAccessible(page, 'transaction summary');
    // Only its own card, masked.
    const cards = await page.locator('#transactions-results tbody td .app-mono').allTextContents();
    expect(new Set(cards).size).toBe(1);
    expect(cards[0]).toMatch(/^542418\*+\d{4}$/);

    // Filter: a merchant name of fewer than 2 characters is named on its field before anything is sent.
    await page.locator('#transactions-q').fill('s');
    await page.locator('#transactions-submit').click();
    await page.locator('#transactions-q-error').waitFor();
    await expectAccessible(page, 'filter refused');
    await page.locator('#transactions-status').selectOption('Locked');
    await page.locator('#transactions-q').fill('');
    // The filtered answer, then the table drawn from it (the previous rows stay while it loads).
    const filtered = page.waitForResponse((r) => /\/app\/api\/transactions\?.*status=Locked/.test(r.url()));
    await page.locator('#transactions-submit').click();
    await page.waitForURL(/status=Locked/);
    await filtered;
    await page.locator('#transactions-results:not([aria-busy])').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#transactions-results tbody .app-status')].every(
        (pill) => pill.textContent === 'Locked',
      ),
    );
    const statuses = await page.locator('#transactions-results tbody .app-status').allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['Locked']));

    // One transaction.
    const first = page.locator('#transactions-results tbody a').first();
    const merchant = (await first.textContent()) ?? '';
    await first.click();
    await page.locator('#transaction-facts').waitFor();
    expect(await page.locator('h1').textContent()).toContain(merchant);
    expect(await page.locator('#transaction-amount').textContent()).toMatch(/\d/);
    await expectAccessible(page, 'one transaction');
    expect(await page.locator('body').textContent()).not.toMatch(/\d{12,19}/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an issuer group administrator pages by key and jumps to a page', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'isgadmin01');
    await page.locator('nav a', { hasText: 'Transactions' }).click();
    await page.locator('#transactions-results:not([aria-busy])').waitFor();
    const firstIds = await page.locator('#transactions-results tbody a').allTextContents();
    await page.locator('#transactions-next').click();
    await page.waitForURL(/after=/);
    await page.locator('#transactions-page', { hasText: 'Page 2 of' }).waitFor();
    await page.locator('#transactions-jump').fill('3');
    await page.locator('#transactions-jump-go').click();
    await page.waitForURL(/page=3/);
    await page.locator('#transactions-page', { hasText: 'Page 3 of' }).waitFor();
    await page.locator('#transactions-previous').click();
    await page.locator('#transactions-page', { hasText: 'Page 2 of' }).waitFor();
    await page.locator('#transactions-previous').click();
    await page.locator('#transactions-page', { hasText: 'Page 1 of' }).waitFor();
    await page.locator('#transactions-results:not([aria-busy])').waitFor();
    expect(await page.locator('#transactions-results tbody a').allTextContents()).toEqual(firstIds);
    await expectAccessible(page, 'transaction summary paged');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a cardholder reviews its transaction; the administrator approves and locks it', async () => {
    const cardholder = await newPage(browser);
    await signInAs(cardholder.page, 'active01');
    await cardholder.page.goto('/app/transactions?status=New');
    await cardholder.page.locator('#transactions-results:not([aria-busy])').waitFor();
    await cardholder.page.locator('#transactions-results tbody a').first().click();
    await cardholder.page.locator('#transaction-facts').waitFor();
    const url = cardholder.page.url();
    expect(await cardholder.page.locator('#transaction-status').textContent()).toBe('New');
    // A cardholder reviews; approving and locking are not offered to it.
    expect(await cardholder.page.locator('#transaction-approve').count()).toBe(0);
    await cardholder.page.locator('#transaction-review').click();
    await cardholder.page.locator('#transaction-done', { hasText: 'marked as reviewed' }).waitFor();
    expect(await cardholder.page.locator('#transaction-status').textContent()).toBe('Reviewed');
    await expectAccessible(cardholder.page, 'transaction reviewed');
    expect(cardholder.problems).toEqual([]);
    await cardholder.context.close();

    const admin = await newPage(browser);
    await signInAs(admin.page, 'admin01');
    await admin.page.goto(url);
    await admin.page.locator('#transaction-approve').click();
    await admin.page.locator('#transaction-done', { hasText: 'approved' }).waitFor();
    expect(await admin.page.locator('#transaction-status').textContent()).toBe('Approved');
    await admin.page.locator('#transaction-lock').click();
    await admin.page.locator('#transaction-done', { hasText: 'locked' }).waitFor();
    expect(await admin.page.locator('#transaction-status').textContent()).toBe('Locked');
    // Locked: no step is left.
    expect(await admin.page.locator('#transaction-steps-heading').count()).toBe(0);
    await expectAccessible(admin.page, 'transaction locked');
    expect(admin.problems).toEqual([]);
    await admin.context.close();
  });

  it('an issuer administrator imports a file, and sees every wrong row of a refused one', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'issadmin01');
    await page.goto('/app/transactions');
    await page.locator('#transactions-import-link').click();
    await page.waitForURL(/\/app\/transactions\/import$/);
    await page.locator('#import-form').waitFor();
    await expectAccessible(page, 'import form');
    const header =
      'reference,account_number,transaction_date,posting_date,merchant_name,merchant_city,merchant_country,mcc,amount,currency,tax_amount';
    // Grace Hopper's demo card (issuer 1001): the demo's first account number.
    const card = '5424180000000015';
    const good = `${header}\nE2E-1,${card},2026-10-01,2026-10-02,Shell,Columbus,US,5541,45.10,USD,\n`;
    await page
      .locator('#import-file')
      .setInputFiles({ name: 'october.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await page.locator('#import-submit').click();
    await page.locator('#import-done', { hasText: 'Imported: 1.' }).waitFor();
    await expectAccessible(page, 'import done');

    const bad = `${header}\nE2E-2,${card},2026-10-01,2026-10-02,Shell,Columbus,US,5541,45.101,USD,\nE2E-3,4111111111111111,2026-10-01,2026-10-02,Shell,Columbus,US,5541,1.00,USD,\n`;
    await page
      .locator('#import-file')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.locator('#import-submit').click();
    await page.locator('#import-report').waitFor();
    const rows = await page.locator('#import-report tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('amount');
    expect(rows[1]).toContain('account_number');
    await expectAccessible(page, 'import refused');
    // The refusal is the expected 422 of the upload; nothing else went wrong.
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });
});
