import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

describe('Issuers and program options (issue 7)', () => {
  it('an issuer administrator switches a company option off and it sticks after a reload', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'issadmin01');
    await page.locator('nav a', { hasText: 'Issuers' }).click();
    await page.waitForURL(/\/app\/issuers$/);
    await page.locator('#issuer-results').waitFor();
    await expectAccessible(page, 'issuer search');

    await page.goto('/app/organisation/100002');
    await page.locator('#company-options').click();
    await page.waitForURL(/\/app\/organisation\/100002\/program-options$/);
    const accessAs = page.locator('#option-accessAsUser');
    await accessAs.waitFor();
    await expectAccessible(page, 'company program options');
    expect(await page.locator('#option-accessAsUser-effective').textContent()).toBe('On');

    await accessAs.selectOption('off');
    await page.locator('#options-save').click();
    await page.locator('#confirm-ok').waitFor();
    await expectAccessible(page, 'confirm program options');
    await page.locator('#confirm-ok').click();
    await page.locator('#options-done', { hasText: 'The program options have been saved.' }).waitFor();

    await page.reload();
    await page.locator('#option-accessAsUser').waitFor();
    expect(await page.locator('#option-accessAsUser').inputValue()).toBe('off');
    expect(await page.locator('#option-accessAsUser-effective').textContent()).toBe('Off');

    // Back to the issuer's setting, so other runs start from the demo data.
    await page.locator('#option-accessAsUser').selectOption('inherit');
    await page.locator('#options-save').click();
    await page.locator('#confirm-ok').click();
    await page.locator('#options-done', { hasText: 'The program options have been saved.' }).waitFor();
    expect(await page.locator('#option-accessAsUser-effective').textContent()).toBe('On');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a system administrator creates an issuer group and an issuer in it', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'sysadmin01');
    await page.locator('nav a', { hasText: 'Issuers' }).click();
    await page.locator('#issuer-groups-link').click();
    await page.waitForURL(/\/app\/issuer-groups$/);
    const group = `E2E Group ${Date.now().toString(36)}`;
    await page.locator('#issuerGroup-name').waitFor();
    await page.locator('#issuerGroup-name').fill(group);
    await page.locator('#issuerGroup-create').click();
    await page.locator('#issuerGroup-table', { hasText: group }).waitFor();
    expect(await page.locator('#issuerGroup-done').textContent()).toBe('The group has been saved.');
    await expectAccessible(page, 'issuer groups');

    await page.goto('/app/issuers/new');
    await page.locator('#issuer-number').waitFor();
    await page.locator('#issuer-save').click();
    await page.locator('#issuer-form-errors h2').waitFor();
    await expectAccessible(page, 'create issuer errors');
    const number = `7${Date.now().toString().slice(-8)}`;
    await page.locator('#issuer-number').fill(number);
    await page.locator('#issuer-name1').fill('E2E Bank');
    await page.locator('#issuer-ica').fill('99887');
    await page.locator('#issuer-bankNumber').fill('0099');
    await page.locator('#issuer-issuerGroupId').selectOption({ label: group });
    await page.locator('#issuer-save').click();
    await page.waitForURL(new RegExp(`/app/issuers/${number}$`));
    await page.locator('#issuer-facts').waitFor();
    expect(await page.locator('#issuer-done').textContent()).toBe('The issuer has been created.');
    expect(await page.locator('#issuer-facts').textContent()).toContain(group);
    await expectAccessible(page, 'view new issuer');

    await page.locator('#issuer-options').click();
    await page.locator('#option-twoFactor').waitFor();
    // Options whose feature does not exist yet are not offered (issue 13 item 6).
    expect(await page.locator('#option-wallet').count()).toBe(0);
    await expectAccessible(page, 'issuer program options');
    expect(problems).toEqual([]);
    await context.close();
  });
});
