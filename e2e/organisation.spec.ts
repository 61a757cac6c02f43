import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSheet } from '../apps/server/src/kernel/xlsx.ts';
import { DEMO_PASSWORD, expectAccessible, launch, newPage, signInAs } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const HEADERS = ['Org Point Number', 'Name 1', 'Name 2', 'Reporting Level', 'Reports To'];

async function upload(page: Page, rows: string[][]): Promise<void> {
  await page.locator('#upload-file').setInputFiles({
    name: 'structure.xlsx',
    mimeType: XLSX,
    buffer: Buffer.from(writeSheet([HEADERS, ...rows])),
  });
  await page.locator('#upload-submit').click();
}

describe('Organisation (issue 7)', () => {
  it('an issuer administrator creates a company and sees the reporting structure of Acme Industries', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'issadmin01');
    await page.locator('nav a', { hasText: 'Organisation' }).click();
    await page.waitForURL(/\/app\/organisation$/);
    await page.locator('#company-results').waitFor();
    await expectAccessible(page, 'company search');

    const number = `9${Date.now().toString().slice(-8)}`;
    await page.locator('#create-company-link').click();
    await page.locator('#company-issuerNumber').waitFor();
    await page.locator('#company-save').click();
    await page.locator('#company-form-errors h2').waitFor();
    await expectAccessible(page, 'create company errors');
    await page.locator('#company-issuerNumber').fill('1001');
    await page.locator('#company-number').fill(number);
    await page.locator('#company-name1').fill('E2E Widgets');
    await page.locator('#company-multiUser').check();
    await page.locator('#company-save').click();
    await page.locator('#confirm-ok').waitFor();
    await expectAccessible(page, 'confirm multi-user');
    await page.locator('#confirm-ok').click();
    // Issuer 1001 has single sign-on on, which a multi-user company would inherit (seed 001 §6).
    await page
      .locator('#company-form-errors', { hasText: 'Single sign-on cannot be combined with multi-user.' })
      .waitFor();
    await page.locator('#company-multiUser').uncheck();
    await page.locator('#company-save').click();
    await page.waitForURL(new RegExp(`/app/organisation/${number}$`));
    await page.locator('#company-facts').waitFor();
    expect(await page.locator('#company-done').textContent()).toBe('The company has been created.');
    expect(await page.locator('#company-multi-user').textContent()).toBe('Off');
    await expectAccessible(page, 'view new company');

    await page.goto('/app/organisation?q=Acme');
    await page.locator('#company-results a:text-is("100001")').click();
    await page.waitForURL(/\/app\/organisation\/100001$/);
    await page.locator('#org-tree').waitFor();
    expect(await page.locator('#org-tree').textContent()).toContain('Plant North');
    await expectAccessible(page, 'company view with tree');

    // The disclosure buttons work from the keyboard.
    const toggle = page.getByRole('button', { name: 'Show or hide the org points under A100 Operations' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#org-tree').getByText('Plant North').isVisible()).toBe(false);
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');

    // A company in use cannot be deleted: the catalogue's message.
    await page.locator('#company-delete').click();
    await page.locator('#confirm-ok').waitFor();
    await expectAccessible(page, 'confirm delete company');
    await page.locator('#confirm-ok').click();
    await page.locator('#company-error', { hasText: 'Cannot delete as there is data associated' }).waitFor();
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([]);
    await context.close();
  });

  it('a company administrator uploads the reporting structure: a per-row report, then a valid file', async () => {
    const { page, context } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/organisation/100001');
    await page.locator('#org-tree').waitFor();

    await page.locator('#point-create').click();
    await page.locator('#org-point-dialog').waitFor();
    await expectAccessible(page, 'org point dialog');
    await page.locator('#org-point-dialog button', { hasText: 'Cancel' }).click();

    const point = `E${Date.now().toString(36).slice(-6).toUpperCase()}`;
    await upload(page, [[point, 'E2E Bad Row', '', '2', 'NOPE99']]);
    await page.locator('#upload-report').waitFor();
    expect(await page.locator('#upload-report tbody').textContent()).toContain('2');
    expect(await page.locator('#upload-report').textContent()).toContain(
      'The reports-to org point does not exist.',
    );
    await expectAccessible(page, 'upload report');
    expect(await page.locator('#org-tree').textContent()).not.toContain('E2E Bad Row');

    await upload(page, [[point, 'E2E Field Office', '', '2', 'A000']]);
    await page.locator('#upload-done', { hasText: '1 org point created' }).waitFor();
    await page.locator('#org-tree', { hasText: 'E2E Field Office' }).waitFor();
    expect(await page.locator('#upload-report').count()).toBe(0);
    await expectAccessible(page, 'after upload');
    await context.close();
  });
});

describe('My Profile (issue 7)', () => {
  it('a cardholder switches to Deutsch and sets a challenge question', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'active01');
    await page.goto('/app/profile');
    await page.locator('#language-form').waitFor();
    await expectAccessible(page, 'my profile');

    await page.locator('#profile-locale').selectOption('de');
    await page.locator('#language-save').click();
    await page.locator('h1', { hasText: 'Mein Profil' }).waitFor();
    expect(await page.locator('nav a', { hasText: 'Startseite' }).count()).toBe(1);
    expect(await page.locator('#language-save').textContent()).toBe('Sprache speichern');

    // The demo question and answer again (README), so other tests find them unchanged.
    await page.locator('#question-questionId').selectOption('q1');
    await page.locator('#question-answer').fill('Springfield');
    await page.locator('#question-currentPassword').fill(DEMO_PASSWORD);
    await page.locator('#question-save').click();
    await page.locator('#question-done', { hasText: 'Ihre Sicherheitsfrage wurde gespeichert.' }).waitFor();
    await expectAccessible(page, 'my profile in German');

    await page.locator('#profile-locale').selectOption('en_US');
    await page.locator('#language-save').click();
    await page.locator('h1', { hasText: 'My Profile' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('counts in the language’s plural forms and draws a record’s sections like the main navigation (issue 20 item 7)', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/organisation?q=Acme');
    await page.locator('#company-count').waitFor();
    expect(await page.locator('#company-count').textContent()).toBe('1 company found');
    await page.goto('/app/organisation/100001/real-cards');
    await page.locator('#real-card-count').waitFor();
    expect(await page.locator('#real-card-count').textContent()).toBe('1 real card found');
    // The company's sections: tabs, not underlined links; the current one marked by a bar.
    const tab = page.locator('#tab-real-cards');
    expect(await tab.getAttribute('aria-current')).toBe('page');
    const style = await tab.evaluate((a) => {
      const s = getComputedStyle(a);
      return { line: s.textDecorationLine, bar: s.borderBottomStyle, width: s.borderBottomWidth };
    });
    expect(style).toEqual({ line: 'none', bar: 'solid', width: '3px' });
    await expectAccessible(page, 'company tabs');
    // The same pieces everywhere: statuses as pills, a row's actions in its menu, no row of buttons.
    const realCard = page.locator('#real-card-results tbody tr').first();
    expect(await realCard.locator('.app-status').count()).toBe(2);
    await realCard.getByRole('button', { name: 'Actions for Travel lodge card' }).waitFor();
    expect(await realCard.getByRole('button', { name: /^(Rename|Delete|Deactivate)$/ }).count()).toBe(0);
    await page.locator('a', { hasText: 'Account groups' }).first().click();
    const groups = page.locator('#group-results tbody tr');
    await groups.first().waitFor();
    expect(
      await page
        .locator('#group-results')
        .getByRole('button', { name: /^Actions for / })
        .count(),
    ).toBe(await groups.count());
    expect(
      await page
        .locator('#group-results')
        .getByRole('button', { name: /^(Rename|Deactivate)$/ })
        .count(),
    ).toBe(0);
    // The company screen shows its tabs under its heading, as its other screens do.
    await page.goto('/app/organisation/100001');
    await page.locator('#company-facts').waitFor();
    const order = await page.evaluate(() => {
      const h1 = document.querySelector('h1');
      const tabs = document.querySelector('.app-tabs');
      const facts = document.querySelector('#company-facts');
      return Boolean(
        h1 &&
          tabs &&
          facts &&
          h1.compareDocumentPosition(tabs) & 4 &&
          tabs.compareDocumentPosition(facts) & 4,
      );
    });
    expect(order).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('Reporting structure (issue 20 item 5)', () => {
  it('the reporting structure names each action with its node and keeps the destructive ones in a menu behind a confirmation (issue 20 item 5)', async () => {
    const { page, context, problems } = await newPage(browser);
    await signInAs(page, 'admin01');
    await page.goto('/app/organisation/100001');
    const tree = page.locator('#org-tree');
    await tree.waitFor();
    const nodes = await tree.locator('.app-tree__row').count();
    expect(nodes).toBeGreaterThan(3);
    // One menu button per node, named by the node; no bare Delete or Deactivate button in the tree.
    const menus = tree.getByRole('button', { name: /^Actions for org point / });
    expect(await menus.count()).toBe(nodes);
    expect(await tree.getByRole('button', { name: /^(Delete|Deactivate)$/ }).count()).toBe(0);
    const names = await menus.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
    expect(new Set(names).size).toBe(nodes);

    // The node's menu: its actions, the destructive ones marked; Delete asks first, naming the node.
    await tree.getByRole('button', { name: /^Actions for org point A120 / }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(
      expect.arrayContaining(['Edit or move', 'Add below', 'Deactivate', 'Delete']),
    );
    await expectAccessible(page, 'org point menu open');
    await menu.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: /^Delete org point A120/ });
    await dialog.waitFor();
    await expectAccessible(page, 'delete confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Nothing was deleted.
    await tree.getByText('A120').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
