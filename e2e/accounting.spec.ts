import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs, typeDate } from './support/browser.ts';

/**
 * Accounting in the browser (issue 16, "Done when"): an administrator sets up a code with a value and a
 * scheme; a cardholder codes and allocates a transaction; an administrator mass-allocates a month and
 * exports it coded — axe on every state, keyboard-reachable controls, no full card number anywhere.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** Types into a type-ahead field and chooses the suggestion by keyboard (down to it, Enter). */
async function choose(page: Page, label: string, typed: string, option: string): Promise<void> {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.press('ControlOrMeta+a');
  await input.pressSequentially(typed);
  await page.getByRole('option', { name: option }).waitFor();
  await input.press('ArrowDown');
  await input.press('Enter');
  await page.waitForFunction(
    ([name, text]) =>
      [...document.querySelectorAll<HTMLInputElement>('[role=combobox]')].some(
        (el) => el.labels?.[0]?.textContent === name && el.value === text,
      ) ||
      [...document.querySelectorAll<HTMLInputElement>('[role=combobox]')].some((el) => el.value === text),
    [label, option] as const,
  );
}

describe('Accounting codes, coding and mass allocation (issue 16)', () => {
  it('an administrator sets up a code with a value and a scheme', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/organisation/100001');
    await page.locator('#tab-accounting-codes').click();
    await page.waitForURL(/\/accounting-codes$/);
    await page.locator('#accounting-codes').waitFor();
    await expectAccessible(page, 'accounting codes');

    // A list code: its name checked as typed, added at the end of the ledger string.
    await page.locator('#code-create-name').fill('E2E Region');
    await page.locator('#code-create-kind').selectOption('list');
    await page.locator('#code-create-submit').click();
    await page.locator('#accounting-done', { hasText: 'The accounting code has been added.' }).waitFor();
    await page.getByRole('link', { name: 'Values of E2E Region' }).click();
    await page.locator('#value-create-form').waitFor();
    // The catalogue's rule: not all zeros.
    await page.locator('#value-create-value').fill('000');
    await page.locator('#value-create-submit').click();
    await page.locator('#value-create-value-error', { hasText: 'all zeros' }).waitFor();
    await page.locator('#value-create-value').fill('NORTH');
    await page.locator('#value-create-description').fill('Northern region');
    await page.locator('#value-create-submit').click();
    await page.locator('#values-done', { hasText: 'The value has been added.' }).waitFor();
    await page.locator('#value-results tbody tr', { hasText: 'NORTH' }).waitFor();
    await expectAccessible(page, 'code values');

    // A scheme with the new code, required, changed by managers only.
    await page.locator('#accounting-nav-schemes').click();
    await page.waitForURL(/\/accounting-schemes$/);
    await page.locator('#scheme-results').waitFor();
    await page.locator('#scheme-create-name').fill('E2E scheme');
    await page.locator('#scheme-create-lines-0-code').selectOption({ label: 'E2E Region' });
    await page.locator('label[for="scheme-create-lines-0-required"]').click();
    expect(await page.locator('#scheme-create-lines-0-required').isChecked()).toBe(true);
    await page.locator('#scheme-create-lines-0-override').selectOption('manager');
    await page.locator('#scheme-create-submit').click();
    await page.locator('#schemes-done', { hasText: 'The scheme has been added.' }).waitFor();
    const row = page.locator('#scheme-results tbody tr', { hasText: 'E2E scheme' });
    await row.waitFor();
    expect(await row.textContent()).toContain('E2E Region (required) — Managers and administrators');
    await expectAccessible(page, 'schemes');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a cardholder codes a transaction and allocates it over two cost centres', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'active01');
    await page.goto('/app/transactions?status=New');
    await page.locator('#transactions-results:not([aria-busy])').waitFor();
    await page.locator('#transactions-results tbody a').first().click();
    await page.locator('#transaction-facts').waitFor();
    await page.locator('#transaction-allocation').waitFor();
    expect(await page.locator('#allocation-scheme').textContent()).toContain('Travel');
    await expectAccessible(page, 'coding shown');

    await page.locator('#allocation-edit-0').click();
    await page.locator('#allocation-form').waitFor();
    await page.locator('#allocation-0-percent').fill('60');
    await choose(page, 'GL account (line 1)', '61', '6100 – Travel');
    await choose(page, 'Sub-account (line 1)', 'AI', 'AIR – Air fares');
    await page.locator('#allocation-line-add').click();
    await page.locator('#allocation-1-percent').fill('30');
    // What is left to allocate, as one types; the total is checked before anything is sent.
    await page.locator('#allocation-left', { hasText: '10 %' }).waitFor();
    await page.locator('#allocation-save').click();
    await page.locator('#allocation-form', { hasText: 'The percents must total 100.' }).waitFor();
    await page.locator('#allocation-1-percent').fill('40');
    await choose(page, 'Cost centre (line 2)', '42', '4200 – Operations');
    await choose(page, 'GL account (line 2)', '61', '6100 – Travel');
    await choose(page, 'Sub-account (line 2)', 'HO', 'HOTEL – Hotels');
    await expectAccessible(page, 'allocation editor');
    await page.locator('#allocation-save').click();
    await page.locator('#allocation-done', { hasText: 'The coding has been saved.' }).waitFor();
    const lines = page.locator('#allocation-lines-0 tbody tr');
    expect(await lines.count()).toBe(2);
    expect(await lines.nth(0).textContent()).toContain('4100 – Sales');
    expect(await lines.nth(1).textContent()).toContain('HOTEL – Hotels');
    expect(await lines.nth(1).textContent()).toContain('40 %');
    await expectAccessible(page, 'allocation saved');
    expect(await page.locator('body').textContent()).not.toMatch(/\d{12,19}/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an administrator mass-allocates a month and exports it coded', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    // A month holding approved transactions: up to the date of one.
    const to = await page.evaluate(async () => {
      const res = await fetch('/app/api/transactions?status=Approved', {
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
      });
      const body = (await res.json()) as { rows: { transactionDate: string }[] };
      return body.rows[0]?.transactionDate ?? '';
    });
    expect(to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const from = `${to.slice(0, 8)}01`;

    await page.goto('/app/organisation/100001/accounting-codes');
    await page.locator('#accounting-nav-mass').click();
    await page.waitForURL(/\/mass-allocation$/);
    await page.locator('#mass-form').waitFor();
    await expectAccessible(page, 'mass allocation form');
    await typeDate(page, 'mass-from', from);
    await typeDate(page, 'mass-to', to);
    await page.locator('#mass-0-percent').fill('100');
    await page.getByLabel('Cost centre (line 1)', { exact: true }).fill('4300');
    await page.getByLabel('GL account (line 1)', { exact: true }).fill('6100');
    await page.getByLabel('Sub-account (line 1)', { exact: true }).fill('AIR');
    await page.locator('#mass-submit').click();
    await page.locator('#mass-done, #mass-form-error:not(:empty)').first().waitFor();
    expect(await page.locator('#mass-form-error').textContent()).toBe('');
    await page.locator('#mass-done', { hasText: /transactions? ha(s|ve) been coded/ }).waitFor();
    await page.locator('#mass-history tbody tr').first().waitFor();
    expect(await page.locator('#mass-history tbody tr').first().textContent()).toContain('Cost centre 4300');
    await expectAccessible(page, 'mass allocation done');

    // Export the month (again, whatever was exported before) and find the coding in the file.
    await page.goto('/app/transactions/exports');
    await page.locator('#transactions-export-form').waitFor();
    await typeDate(page, 'transactions-export-from', from);
    await typeDate(page, 'transactions-export-to', to);
    await page.locator('#transactions-export-again').check();
    await page.locator('#transactions-export-submit').click();
    await page.locator('#transactions-export-done', { hasText: 'exported' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#transactions-export-download').click(),
    ]);
    const file = await readFile((await download.path()) ?? '', 'utf8');
    const [header, ...rows] = file.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toContain('allocation_line,allocation_percent,Cost centre,GL account,Sub-account,Project');
    expect(rows.some((r) => r.includes(',1,100,4300,6100,AIR,'))).toBe(true);
    expect(file).not.toMatch(/\d{13,19}/);
    expect(problems).toEqual([]);
    await context.close();
  });
});
