import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs, typeDate } from './support/browser.ts';

/**
 * The life of a transaction in the browser (issue 15, "Done when"): an administrator reviews, splits,
 * approves, locks and exports a transaction and downloads the general-ledger file; a cardholder disputes
 * one; axe on every state; no full card number on any page or in the file.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** Opens the first transaction of a filtered Transaction Summary; answers its URL. */
async function openFirst(page: Page, query: string): Promise<string> {
  await page.goto(`/app/transactions?${query}`);
  await page.locator('#transactions-results:not([aria-busy])').waitFor();
  await page.locator('#transactions-results tbody a').first().click();
  await page.locator('#transaction-facts').waitFor();
  return page.url();
}

describe('A transaction’s life (issue 15)', () => {
  it('an administrator reviews, splits, approves, locks and exports a transaction', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await openFirst(page, 'status=New&currency=USD&min=20');
    const reference = (await page.locator('#transaction-facts dd').last().textContent()) ?? '';
    expect(reference).toMatch(/^DEMO-/);

    await page.locator('#transaction-review').click();
    await page.locator('#transaction-done', { hasText: 'marked as reviewed' }).waitFor();

    // Split: two equal lines to start with; a third, shared equally; descriptions; saved.
    await page.locator('#transaction-split-edit').click();
    await page.locator('#transaction-split-form').waitFor();
    await expectAccessible(page, 'split editor');
    await page.locator('#split-line-add').click();
    await page.locator('#split-line-2-amount').waitFor();
    await page.locator('#transaction-split-equal').click();
    expect(await page.locator('#transaction-split-left').textContent()).toBe('Left to allocate: $0.00');
    await page.locator('#split-line-0-description').fill('Client meeting');
    await page.locator('#split-line-1-description').fill('Team');
    await page.locator('#split-line-2-description').fill('Travel');
    // One cent too much: the form says so before anything is sent.
    const first = page.locator('#split-line-0-amount');
    const even = (await first.inputValue()).trim();
    const [whole = '0', cents = '00'] = even.split('.');
    const plusOne = `${whole}.${String(Number(cents) + 1).padStart(2, '0')}`;
    await first.fill(plusOne);
    await page.locator('#transaction-split-save').click();
    await page.locator('#split-line-error', { hasText: 'Split amount does not total up' }).waitFor();
    await expectAccessible(page, 'split refused');
    await first.fill(even);
    await page.locator('#transaction-split-save').click();
    await page.locator('#transaction-split-done', { hasText: 'split into 3 lines' }).waitFor();
    expect(await page.locator('#transaction-split-lines tbody tr').count()).toBe(3);
    await expectAccessible(page, 'split saved');

    await page.locator('#transaction-approve').click();
    await page.locator('#transaction-done', { hasText: 'approved' }).waitFor();
    await page.locator('#transaction-lock').click();
    await page.locator('#transaction-done', { hasText: 'locked' }).waitFor();
    expect(await page.locator('#transaction-status').textContent()).toContain('Locked');
    // Locked: its split can no longer change, and the screen says why.
    await page.locator('#transaction-split-blocked').waitFor();
    expect(await page.locator('#transaction-split-edit').count()).toBe(0);

    // Export the day of the transaction as CSV and download the file.
    const iso = await page.evaluate(async (ref) => {
      const res = await fetch(`/app/api/transactions?q=${encodeURIComponent(ref)}`, {
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
      });
      const body = (await res.json()) as { rows: { transactionDate: string }[] };
      return body.rows[0]?.transactionDate ?? '';
    }, reference);
    await page.goto('/app/transactions');
    await page.locator('#transactions-export-link').click();
    await page.waitForURL(/\/app\/transactions\/exports$/);
    await page.locator('#transactions-export-form').waitFor();
    await expectAccessible(page, 'export form');
    await typeDate(page, 'transactions-export-from', iso);
    await typeDate(page, 'transactions-export-to', iso);
    await page.locator('#transactions-export-again').check();
    await page.locator('#transactions-export-submit').click();
    await page.locator('#transactions-export-done', { hasText: 'exported' }).waitFor();
    await expectAccessible(page, 'export done');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#transactions-export-download').click(),
    ]);
    const file = await readFile((await download.path()) ?? '', 'utf8');
    const lines = file.split('\r\n').filter((l) => l.startsWith(`${reference},`));
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => l.split(',')[1])).toEqual(['1', '2', '3']);
    expect(file).not.toMatch(/\d{13,19}/);
    expect(await page.locator('#transactions-exports tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('body').textContent()).not.toMatch(/\d{12,19}/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a cardholder disputes a transaction; the dispute cannot be changed afterwards', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'active01');
    await openFirst(page, 'status=Approved&currency=USD');
    await page.locator('#transaction-dispute-start').click();
    await page.locator('#transaction-dispute-form').waitFor();
    await page.locator('#transaction-dispute-reason option[value="DP"]').waitFor({ state: 'attached' });
    await expectAccessible(page, 'dispute form');
    // Nothing chosen: the form names the fields.
    await page.locator('#transaction-dispute-submit').click();
    await page.locator('#transaction-dispute-reason-error').waitFor();
    await page.locator('#transaction-dispute-explanation-error').waitFor();
    await expectAccessible(page, 'dispute form refused');
    await page.locator('#transaction-dispute-reason').selectOption('DP');
    await page.locator('#transaction-dispute-explanation').fill('The hotel charged the same night twice.');
    await page.locator('#transaction-dispute-submit').click();
    await page.locator('#transaction-dispute-done').waitFor();
    expect(await page.locator('#transaction-dispute-status').textContent()).toBe('Submitted');
    expect(await page.locator('#transaction-dispute-facts').textContent()).toContain('Duplicate charge');
    expect(await page.locator('#transaction-status').textContent()).toContain('(disputed)');
    expect(await page.locator('#transaction-dispute-start').count()).toBe(0);
    await expectAccessible(page, 'dispute submitted');
    // Read again: still there, still not changeable.
    await page.reload();
    await page.locator('#transaction-dispute-facts').waitFor();
    expect(await page.locator('#transaction-dispute-start').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an issuer administrator keeps its code lists; an administrator sets a status by code and a cardholder’s reasons', async () => {
    const issuer = await newPage(browser);
    await signInAs(issuer.page, 'issadmin01');
    await issuer.page.goto('/app/issuers/1001');
    await issuer.page.locator('#issuer-dispute-reasons').click();
    await issuer.page.locator('#issuer-codes tbody tr').first().waitFor();
    await expectAccessible(issuer.page, 'dispute reasons');
    await issuer.page.locator('#issuer-code-code').fill('E2');
    await issuer.page.locator('#issuer-code-description').fill('Charged after cancellation');
    await issuer.page.locator('#issuer-code-add-submit').click();
    await issuer.page.locator('#issuer-codes-done', { hasText: 'E2' }).waitFor();
    expect(await issuer.page.locator('#issuer-codes tbody').textContent()).toContain(
      'Charged after cancellation',
    );
    // Account status codes name the system status they set.
    await issuer.page.goto('/app/issuers/1001/account-status-codes');
    await issuer.page.locator('#issuer-codes tbody tr').first().waitFor();
    await issuer.page.locator('#issuer-code-code').fill('E3');
    await issuer.page.locator('#issuer-code-description').fill('Held for review');
    await issuer.page.locator('#issuer-code-systemStatus').selectOption('S');
    await issuer.page.locator('#issuer-code-add-submit').click();
    await issuer.page.locator('#issuer-codes-done', { hasText: 'E3' }).waitFor();
    await expectAccessible(issuer.page, 'account status codes');
    expect(issuer.problems).toEqual([]);
    await issuer.context.close();

    // The company administrator suspends an account by the new code and gives the cardholder reasons.
    const admin = await newPage(browser);
    await signInAs(admin.page, 'admin01');
    await admin.page.goto('/app/organisation/100001/cardholders?q=Turing');
    await admin.page.locator('#cardholder-results a', { hasText: 'Turing' }).first().click();
    await admin.page.locator('#cardholder-facts').waitFor();
    await admin.page.locator('#cardholder-reason-AD').check();
    await admin.page.locator('#cardholder-reason-RP').check();
    await admin.page.locator('#cardholder-reasons-save').click();
    await admin.page.locator('#cardholder-done', { hasText: 'reason codes have been saved' }).waitFor();
    await expectAccessible(admin.page, 'cardholder reasons');
    await admin.page
      .locator('#cardholder-accounts tbody tr', { hasText: 'Active' })
      .locator('a')
      .first()
      .click();
    await admin.page.locator('#account-facts').waitFor();
    await admin.page.locator('#account-next-status').selectOption('code:E3');
    await admin.page.locator('#account-status-submit').click();
    await admin.page.locator('#confirm-ok').click();
    await admin.page.locator('#account-status', { hasText: 'E3' }).waitFor();
    expect(await admin.page.locator('#account-status').textContent()).toContain('Suspended');
    await expectAccessible(admin.page, 'account suspended by code');
    await admin.page.locator('#account-next-status').selectOption('status:Active');
    await admin.page.locator('#account-status-submit').click();
    await admin.page.locator('#confirm-ok').click();
    await admin.page.locator('#account-status', { hasText: 'Active' }).waitFor();
    expect(admin.problems).toEqual([]);
    await admin.context.close();
  });

  it('an administrator keeps real cards: adds one, sees its alias on its transactions, and deleting one in use marks it inactive', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/organisation/100001');
    await page.locator('#tab-real-cards').click();
    await page.locator('#real-card-results tbody tr').first().waitFor();
    await expectAccessible(page, 'real cards');

    // The alias is checked against the number before anything is sent: digits 7 to 12 are refused.
    const number = '5424180000007705';
    await page.locator('#real-card-number').fill(number);
    await page.locator('#real-card-alias').fill('Lodge 000000');
    await page.locator('#real-card-submit').click();
    await page.locator('#real-card-alias-error', { hasText: 'digits 7 to 12' }).waitFor();
    await expectAccessible(page, 'real card refused');
    await page.locator('#real-card-alias').fill('Office supplies');
    await page.locator('#real-card-submit').click();
    await page.locator('#real-cards-done', { hasText: 'has been added' }).waitFor();
    await page.locator('#real-card-results th', { hasText: 'Office supplies' }).waitFor();
    expect(await page.content()).not.toContain(number);

    // Unused, it is deleted; the demo lodge card has transactions, so it is marked inactive instead.
    const cardAction = async (alias: string, action: string) => {
      await page.getByRole('button', { name: `Actions for ${alias}` }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: action }).click();
    };
    await cardAction('Office supplies', 'Delete');
    await page.getByRole('alertdialog', { name: 'Delete real card Office supplies' }).waitFor();
    await page.locator('#confirm-ok').click();
    await page.locator('#real-cards-done', { hasText: 'has been deleted' }).waitFor();
    await cardAction('Travel lodge card', 'Delete');
    await page.getByRole('alertdialog').getByText('marked inactive instead').waitFor();
    await expectAccessible(page, 'delete in use');
    await page.locator('#confirm-ok').click();
    await page.locator('#real-cards-done', { hasText: 'marked inactive instead of deleted' }).waitFor();
    await cardAction('Travel lodge card', 'Reactivate');
    await page.locator('#confirm-ok').click();
    await page.locator('#real-cards-done', { hasText: 'has been reactivated' }).waitFor();

    // Its transactions carry the alias where a cardholder's name would be.
    const masked =
      (await page
        .locator('#real-card-results tr', { hasText: 'Travel lodge card' })
        .locator('a')
        .textContent()) ?? '';
    await page.goto(`/app/transactions?q=${masked.slice(-4)}`);
    await page.locator('#transactions-results:not([aria-busy]) tbody tr').first().waitFor();
    expect(await page.locator('#transactions-results tbody tr').first().textContent()).toContain(
      'Travel lodge card',
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});
