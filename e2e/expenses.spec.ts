import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs } from './support/browser.ts';

/**
 * The expense set-up in the browser (issue 17 item 1): a company administrator reaches it from the
 * company's tabs, adds a mileage rate and an approval profile by keyboard, and the system administrator
 * sees the policy read-only — axe on every screen.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** Focuses the field and types into it, as a keyboard user does. */
async function typeInto(page: Page, id: string, text: string): Promise<void> {
  await page.locator(`#${id}`).focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

describe('Expense set-up (issue 17 item 1)', () => {
  it('an administrator adds a mileage rate and an approval profile by keyboard', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/organisation/100001');
    await page.locator('#tab-expenses').click();
    await page.waitForURL(/\/expenses$/);
    await page.getByRole('table', { name: 'Expense types' }).waitFor();
    expect(await page.getByRole('row', { name: /Mileage/ }).count()).toBeGreaterThan(0);
    await expectAccessible(page, 'expense types');

    await page.locator('#expenses-nav-rates').click();
    await page.getByRole('table', { name: 'Mileage rates' }).waitFor();
    await expectAccessible(page, 'rates');
    await typeInto(page, 'mileage-create-name', 'Motorbike');
    await typeInto(page, 'mileage-create-rate', '0');
    await page.locator('#mileage-create-rate').press('Enter');
    await page.getByText('Mileage rate must be greater than zero.').waitFor();
    await expectAccessible(page, 'a refused mileage rate');
    await typeInto(page, 'mileage-create-rate', '0.21');
    await page.locator('#mileage-create-rate').press('Enter');
    await page.locator('#mileage-rates-done', { hasText: 'Added.' }).waitFor();
    await page.getByRole('row', { name: /Motorbike.*0\.21 EUR per kilometre/ }).waitFor();

    await page.locator('#expenses-nav-approvals').click();
    await page.getByRole('table', { name: 'Approval profiles' }).waitFor();
    await typeInto(page, 'profile-create-name', 'Directors');
    await typeInto(page, 'profile-create-limit', '100000');
    await typeInto(page, 'profile-create-currency', 'USD');
    await typeInto(page, 'profile-create-approvers', 'token01');
    await page.locator('#profile-create-name').press('Enter');
    await page.locator('#approval-profiles-done', { hasText: 'Added.' }).waitFor();
    await page.getByRole('row', { name: /Directors.*\$100,000\.00/ }).waitFor();
    await expectAccessible(page, 'approvals');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the system administrator sees the policy read-only, without forms', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'sysadmin01');
    await page.goto('/app/organisation/100001/expenses/policy');
    await page.locator('#policy-facts').waitFor();
    await page.locator('#read-only-notice').waitFor();
    expect(await page.locator('#policy-form').count()).toBe(0);
    expect(await page.locator('#policy-facts').textContent()).toContain('$25.00');
    await expectAccessible(page, 'read-only policy');
    expect(problems).toEqual([]);
    await context.close();
  });
});
