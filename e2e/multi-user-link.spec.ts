import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  dataDir,
  expectAccessible,
  launch,
  newPage,
  signIn,
  signInAs,
} from './support/browser.ts';
import { runCli } from './support/cli.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  // Two new Acme cardholders who have signed in before (no first-login state).
  for (const userId of ['linka01', 'linkb01']) {
    const made = await runCli(
      dataDir(),
      'user',
      'create',
      '--user-id',
      userId,
      '--email',
      `${userId}@example.com`,
      '--password',
      DEMO_PASSWORD,
      '--first-name',
      'Lin',
      '--last-name',
      'Ked',
      '--company',
      '100001',
    );
    expect(made.code, made.stderr).toBe(0);
  }
});
afterAll(() => browser?.close());

const QUERY = '?cobrandHost=cardportal&locale=en_US';

/** The user ID the home page says is signed in. */
const signedInAs = (page: Page) =>
  page.locator('.app-facts dt:has-text("User ID") + dd').first().textContent();

describe('multi-user linking (issue 7)', () => {
  it('an administrator links two user IDs; each confirms at sign-in; then the person chooses the ID', async () => {
    const admin = await newPage(browser);
    await signInAs(admin.page, 'admin01');
    await admin.page.goto('/app/people/linka01');
    await admin.page.getByRole('heading', { name: 'Linked user IDs' }).waitFor();
    await admin.page.getByLabel('User ID to link').fill('linkb01');
    await admin.page.getByRole('button', { name: 'Link', exact: true }).click();
    await admin.page
      .getByText('The user IDs have been linked. Each user confirms the link at their next sign-in.')
      .waitFor();
    expect(await admin.page.getByText('Awaiting confirmation').count()).toBe(2);
    await expectAccessible(admin.page, 'user view with its link');
    expect(admin.problems).toEqual([]);
    await admin.context.close();

    // Each member confirms for itself.
    for (const userId of ['linka01', 'linkb01']) {
      const { page, context, problems } = await newPage(browser);
      await signIn(page, userId, DEMO_PASSWORD, QUERY);
      await page.getByRole('heading', { level: 1, name: 'Confirm your linked user IDs' }).waitFor();
      await expectAccessible(page, 'multi-user confirmation');
      expect(await page.locator('#multi-user-linked').textContent()).toContain(
        userId === 'linka01' ? 'linkb01' : 'linka01',
      );
      await page.getByRole('button', { name: 'Confirm link' }).click();
      if (userId === 'linka01') {
        // Alone confirmed: straight into the application.
        await page.locator('#welcome').waitFor();
        expect(await signedInAs(page)).toBe('linka01');
      } else {
        // Both confirmed: the choice appears.
        await page.getByRole('heading', { level: 1, name: 'Choose your user ID' }).waitFor();
        await page.getByRole('radio', { name: /^linka01/ }).check();
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.locator('#welcome').waitFor();
        expect(await signedInAs(page)).toBe('linka01');
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
