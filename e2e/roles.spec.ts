import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('Roles (issue 7)', () => {
  it('an issuer administrator creates a role from the Roles screen and sees it listed', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'issadmin01');
    await page.locator('nav a', { hasText: 'Roles' }).click();
    await page.waitForURL(/\/app\/roles$/);
    await page.locator('#roles-table').waitFor();
    await expectAccessible(page, 'roles list');

    await page.locator('#role-create').click();
    await page.locator('#role-name').waitFor();
    // Nothing entered: the client's check names the field.
    await page.locator('#role-save').click();
    await page.locator('#role-name-error').waitFor();
    await expectAccessible(page, 'create role errors');

    await page.locator('#role-name').fill('Approver delegate');
    await page.locator('#role-description').fill('Links user IDs for approvers');
    await page.locator('#role-permission-linkUsers').check();
    await page.locator('#role-save').click();
    await page.locator('#roles-done', { hasText: 'Approver delegate' }).waitFor();
    const row = page.locator('#roles-table tr', { hasText: 'Approver delegate' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Link user IDs');

    await page.reload();
    await page.locator('#roles-table tr', { hasText: 'Approver delegate' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a company administrator gives a cardholder the Super user role and sees it after reload', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/people/active01');
    await page.locator('#user-facts').waitFor();
    await page.locator('#user-roles-form').waitFor();
    await page.locator('#user-link-heading').waitFor();
    await expectAccessible(page, 'user view with roles and link panels');

    await page.locator('#user-roles-form label', { hasText: 'Super user' }).locator('input').check();
    await page.locator('#user-roles-save').click();
    await page.locator('#user-roles-done', { hasText: 'saved' }).waitFor();

    await page.reload();
    await page.locator('#user-roles-list').waitFor();
    expect(await page.locator('#user-roles-list').textContent()).toContain('Super user');
    expect(
      await page.locator('#user-roles-form label', { hasText: 'Super user' }).locator('input').isChecked(),
    ).toBe(true);
    // admin01 is a super user: it may access as this cardholder.
    await page.locator('#user-access-as-button').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
