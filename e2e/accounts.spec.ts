import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, launch, newPage, signIn, signInAs } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** Puts the account back to Active (the demo data other specs see), through the same screen. */
async function setStatus(page: Page, status: string): Promise<void> {
  await page.locator('#account-next-status').selectOption(status);
  await page.locator('#account-status-submit').click();
  await page.locator('#confirm-ok').waitFor();
  await page.locator('#confirm-ok').click();
  await page.locator('#account-status', { hasText: status }).waitFor();
}

describe('Accounts and cardholders, audit trail (issue 7)', () => {
  it('admin01 finds a cardholder, suspends a masked account, and finds the change in the audit trail and its CSV', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/organisation/100001');
    await page.locator('#company-facts').waitFor();
    await page.locator('#tab-cardholders').click();
    await page.waitForURL(/\/app\/organisation\/100001\/cardholders$/);
    await page.locator('#cardholder-results').waitFor();
    await expectAccessible(page, 'cardholder list');

    // Criteria under 2 characters are refused on the spot.
    await page.locator('#cardholder-q').fill('h');
    await page.locator('#cardholder-search-submit').click();
    await page.locator('#cardholder-q-error', { hasText: 'at least 2 characters' }).waitFor();
    await page.locator('#cardholder-q').fill('Hopper');
    await page.locator('#cardholder-search-submit').click();
    await page.locator('#cardholder-count', { hasText: '1 cardholder found' }).waitFor();
    await page.locator('#cardholder-results a', { hasText: 'Grace Hopper' }).click();
    await page.locator('#cardholder-accounts').waitFor();
    await expectAccessible(page, 'cardholder view');

    const link = page.locator('#cardholder-accounts tbody a').first();
    const masked = (await link.textContent()) ?? '';
    expect(masked).toMatch(/^542418\*+\d{4}$/);
    await link.click();
    await page.locator('#account-facts').waitFor();
    expect(await page.locator('#account-number').textContent()).toBe(masked);
    expect(await page.locator('#account-status').textContent()).toBe('Active');
    // No full card number anywhere on the page.
    expect(await page.locator('body').textContent()).not.toMatch(/\d{12,19}/);

    await page.locator('#account-next-status').selectOption('Suspended');
    await page.locator('#account-status-submit').click();
    await page.locator('#confirm-ok').waitFor();
    await expectAccessible(page, 'confirm status change');
    await page.locator('#confirm-ok').click();
    await page.locator('#account-done', { hasText: 'The account status has been changed.' }).waitFor();
    expect(await page.locator('#account-status').textContent()).toBe('Suspended');
    await expectAccessible(page, 'account suspended');

    // The audit trail shows the change (who, what, before → after) and exports it as CSV.
    await page.locator('nav a', { hasText: 'Audit trail' }).click();
    await page.waitForURL(/\/app\/audit$/);
    await page.locator('#audit-entity').selectOption('account');
    await page.locator('#audit-submit').click();
    await page.waitForURL(/entity=account/);
    const row = page.locator('#audit-results tbody tr', { hasText: masked }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('admin01');
    expect(await row.textContent()).toContain('Status: Active → Suspended');
    expect(await row.textContent()).toContain('Account status changed');
    await expectAccessible(page, 'audit trail');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#audit-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) as string, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('"at","event","actor","entity","entityId","subject","changes","ip"');
    expect(csv).toContain('account.statusChanged');
    expect(csv).toContain(masked);
    expect(csv).not.toMatch(/\d{12,19}/);

    // Back to Active, so the demo data stays as it was.
    await page.goBack();
    await page.goBack();
    await page.locator('#account-facts').waitFor();
    await setStatus(page, 'Active');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the audit trail speaks the administrator’s language and names who signed in (issue 20 item 6)', async () => {
    const { page, context, problems } = await newPage(browser, { locale: 'es-ES' });
    await signIn(page, 'bncadmin01', DEMO_PASSWORD, '?cobrandHost=banconorte&locale=es');
    await page.waitForURL(/\/app\/$/);
    await page.goto('/app/audit');
    const row = page.locator('#audit-results tbody tr', { hasText: 'Sesión iniciada' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('bncadmin01');
    expect(await page.locator('#audit-results').textContent()).not.toContain('login.success');
    // Dates are entered in the reader's order (day, month, year in Spanish).
    const segments = await page
      .locator('#audit-from [data-type]')
      .evaluateAll((nodes) =>
        nodes.map((n) => n.getAttribute('data-type')).filter((type) => type !== 'literal'),
      );
    expect(segments).toEqual(['day', 'month', 'year']);
    await expectAccessible(page, 'audit trail in Spanish');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the accounts list sorts, exports what it shows as CSV and moves the chosen accounts to a group (issue 20 item 3)', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/organisation/100001/accounts');
    await page.locator('#account-results tbody tr').first().waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#accounts-export').click(),
    ]);
    const csv = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '');
    expect(csv.split('\r\n')[0]).toBe('maskedNumber,cardholder,realCardAlias,group,status');
    expect(csv).not.toMatch(/\d{12,}/);
    expect(csv.split('\r\n').filter(Boolean).length).toBeGreaterThan(2);

    // Sorted by status from its header: the order is announced on the column.
    await page.locator('#account-results thead th', { hasText: 'Status' }).locator('button').click();
    await page.waitForURL(/sort=status&dir=asc/);
    await page.locator('#account-results thead th[aria-sort="ascending"]', { hasText: 'Status' }).waitFor();

    // An active account of the Travel group, chosen by its checkbox (named after its masked number).
    const row = page
      .locator('#account-results tbody tr', { hasText: 'Travel' })
      .filter({ hasText: 'Active' })
      .first();
    const masked = ((await row.locator('th[scope="row"]').textContent()) ?? '').trim();
    expect(masked).toMatch(/^\d{6}\*+\d{4}$/);
    const moveTo = async (group: string) => {
      await page.getByRole('checkbox', { name: `Select ${masked}` }).check();
      await page.locator('#accounts-bulk legend', { hasText: '1 account selected' }).waitFor();
      await page.locator('#accounts-bulk-group').selectOption({ label: group });
      await page.locator('#accounts-bulk-move').click();
      await page.getByRole('alertdialog', { name: `Move 1 account to ${group}?` }).waitFor();
      await page.locator('#accounts-bulk-confirm-ok').click();
      await page.locator('#accounts-bulk-outcome', { hasText: 'Moved: 1.' }).waitFor();
      await page
        .locator('#account-results tbody tr', { hasText: masked })
        .filter({ hasText: group })
        .waitFor();
    };
    await moveTo('Purchasing');
    await expectAccessible(page, 'accounts moved to a group');
    // Back where it was (the demo data the other specs see).
    await moveTo('Travel');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a cardholder sees its own masked cards under My cards', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'active01');
    await page.locator('nav a', { hasText: 'My cards' }).click();
    await page.waitForURL(/\/app\/my-cards$/);
    await page.locator('#my-cards').waitFor();
    const text = (await page.locator('#my-cards tbody').textContent()) ?? '';
    expect(text).toMatch(/\d{6}\*+\d{4}/);
    expect(text).not.toMatch(/\d{12,19}/);
    await expectAccessible(page, 'my cards');
    expect(await page.locator('nav a', { hasText: 'Audit trail' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
