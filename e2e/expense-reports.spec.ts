import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, newPage, signInAs, typeDate } from './support/browser.ts';

/**
 * An expense report's whole life in the browser (issue 17 "Tests"): a cardholder builds a report from
 * two card transactions and a journey with a receipt and submits it; the level manager finds it in his
 * queue and approves it; the company administrator sees it approved — by keyboard where people type,
 * axe on every screen.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/** A 1×1 PNG receipt. */
const RECEIPT = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

async function typeInto(page: Page, id: string, text: string): Promise<void> {
  await page.locator(`#${id}`).focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

/** The values of a select's two cheapest options (their labels end with the amount, "$12.34"). */
async function cheapestTwo(page: Page, id: string): Promise<[string, string]> {
  const options = await page
    .locator(`#${id} option`)
    .evaluateAll((els) => els.map((e) => [(e as HTMLOptionElement).value, e.textContent ?? ''] as const));
  const priced = options
    .filter(([value]) => value !== '')
    .map(
      ([value, label]) =>
        [value, Number((/\$([\d,]+\.\d\d)\s*$/.exec(label)?.[1] ?? '1e9').replace(/,/g, ''))] as const,
    )
    .sort((a, b) => a[1] - b[1]);
  return [priced[0]?.[0] ?? '', priced[1]?.[0] ?? ''];
}

describe('Expense reports (issue 17)', () => {
  it('a cardholder builds and submits a report, the manager approves it, the administrator sees it approved', async () => {
    const name = `Boston customer visit ${Date.now()}`;
    const holder = await newPage(browser);
    await signInAs(holder.page, 'active01');
    await holder.page.getByRole('link', { name: 'Expense reports' }).click();
    await holder.page.getByRole('table', { name: 'Your reports' }).waitFor();
    await expectAccessible(holder.page, 'my expense reports');

    await typeInto(holder.page, 'report-new-name', name);
    await holder.page.locator('#report-new-name').press('Enter');
    await holder.page.waitForURL(/\/app\/expense-reports\/\d+$/);
    await holder.page.getByRole('heading', { level: 1, name }).waitFor();
    await holder.page.locator('#card-lines-0-transaction option').nth(2).waitFor({ state: 'attached' });
    await expectAccessible(holder.page, 'a new report');

    // Two card transactions as two rows of one form.
    const [first, second] = await cheapestTwo(holder.page, 'card-lines-0-transaction');
    await holder.page.locator('#card-lines-0-transaction').selectOption(first);
    await holder.page.locator('#card-lines-0-type').selectOption({ label: 'Ground transport' });
    await typeInto(holder.page, 'card-lines-0-description', 'Taxi to the customer');
    await holder.page.locator('#card-lines-add').press('Enter');
    await holder.page.locator('#card-lines-1-transaction').waitFor();
    expect(await holder.page.evaluate(() => document.activeElement?.id)).toBe('card-lines-1-transaction');
    await holder.page.locator('#card-lines-1-transaction').selectOption(second);
    await holder.page.locator('#card-lines-1-type').selectOption({ label: 'Office supplies' });
    await typeInto(holder.page, 'card-lines-1-description', 'Printed samples');
    await holder.page.locator('#card-lines-submit').press('Enter');
    await holder.page.locator('#report-done', { hasText: 'Changes saved.' }).waitFor();
    const lines = holder.page.getByRole('table', { name: `Lines of ${name}` });
    await lines.getByRole('row', { name: /Printed samples/ }).waitFor();

    // A journey: the odometer's order is checked before it is sent.
    await holder.page.locator('#line-new-kind-mileage').check();
    await typeDate(holder.page, 'line-new-date', '2026-11-20');
    await holder.page.locator('#line-new-type').selectOption({ label: 'Mileage' });
    await typeInto(holder.page, 'line-new-description', 'Drive to Boston office');
    await holder.page.locator('#line-new-rate').selectOption({ index: 1 });
    await typeInto(holder.page, 'line-new-odometer-start', '10350');
    await typeInto(holder.page, 'line-new-odometer-end', '10200');
    await typeInto(holder.page, 'line-new-prop-0', 'Customer workshop');
    await holder.page.locator('#line-new-submit').press('Enter');
    await holder.page.getByText('The odometer start must be below the end.').waitFor();
    await expectAccessible(holder.page, 'a refused journey');
    await typeInto(holder.page, 'line-new-odometer-end', '10500');
    await holder.page.locator('#line-new-submit').press('Enter');
    await lines.getByRole('row', { name: /Drive to Boston office/ }).waitFor();

    // Its receipt, through the line's actions.
    await holder.page.getByRole('button', { name: 'Actions for Drive to Boston office' }).click();
    await holder.page.getByRole('menuitem', { name: 'Attach a receipt' }).click();
    await holder.page
      .locator('#receipt-file')
      .setInputFiles({ name: 'odometer.png', mimeType: 'image/png', buffer: RECEIPT });
    await holder.page.locator('#receipt-submit').click();
    await lines.getByRole('link', { name: 'View odometer.png' }).waitFor();
    await expectAccessible(holder.page, 'a report with three lines');

    await holder.page.locator('#report-submit').click();
    await holder.page.locator('#report-status', { hasText: 'Submitted for approval' }).waitFor();
    // Routed up the reporting structure: Plant North has no level manager, Operations has Olga Level.
    expect(await holder.page.locator('#report-waiting').textContent()).toContain('Olga Level');
    const reportUrl = new URL(holder.page.url()).pathname;
    await expectAccessible(holder.page, 'a submitted report');
    expect(holder.problems).toEqual([]);
    await holder.context.close();

    // The level manager: his queue, the report, approve.
    const manager = await newPage(browser);
    await signInAs(manager.page, 'lvlmgr01');
    await manager.page.getByRole('link', { name: 'Approvals' }).click();
    const queue = manager.page.getByRole('table', { name: 'Expense reports to approve' });
    await queue.getByRole('link', { name }).waitFor();
    await expectAccessible(manager.page, "the approver's queue");
    await queue.getByRole('link', { name }).click();
    await manager.page.locator('#report-approve').waitFor();
    await expectAccessible(manager.page, 'a report to approve');
    await manager.page.locator('#report-approve').press('Enter');
    await manager.page.locator('#report-status', { hasText: 'Approved' }).waitFor();
    expect(manager.problems).toEqual([]);
    await manager.context.close();

    // The company administrator sees it approved among the company's reports.
    const admin = await newPage(browser);
    await signInAs(admin.page, 'admin01');
    await admin.page.goto('/app/organisation/100001/expenses/reports?status=Approved');
    const company = admin.page.getByRole('table', { name: 'Expense reports' });
    await company.getByRole('row', { name: new RegExp(`${name}.*Approved`) }).waitFor();
    await expectAccessible(admin.page, "the company's reports");
    await admin.page.goto(`/app${reportUrl.replace(/^\/app/, '')}`);
    await admin.page.locator('#report-status', { hasText: 'Approved' }).waitFor();
    expect(await admin.page.locator('#report-history').textContent()).toContain('approved by');
    expect(admin.problems).toEqual([]);
    await admin.context.close();
  });
});
