import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDir, expectAccessible, launch, newPage, signIn } from './support/browser.ts';
import { sql } from './support/db.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

// The demo token (README): any authenticator app with this secret is the token.
const token = new TOTP({
  digits: 8,
  period: 60,
  secret: Secret.fromBase32('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'),
});
const code = (offsetMs = 0) => token.generate({ timestamp: Date.now() + offsetMs });
/** A used time step is never accepted twice; rewinding stands in for waiting a minute. */
const rewind = () => sql(dataDir(), 'update tokens set last_step = 0');

describe('software token (spec §2, §4, §8)', () => {
  it('creates a new PIN with the next passcode, signs out, and signs in with the new PIN', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'token01', `2468${code()}`, '?cobrandHost=cardportal&locale=en_US');
    await page.waitForURL(/\/new-pin/);
    await page.locator('#newPin').waitFor();
    await expectAccessible(page, 'new PIN');
    await page.locator('#newPin').fill('0123');
    await page.locator('#confirmPin').fill('0123');
    await page.locator('#nextPasscode').fill(code(60_000));
    await page.locator('#submit').click();
    await expect.poll(() => page.locator('#newPin').getAttribute('aria-invalid')).toBe('true');
    await page.locator('#newPin').fill('5791');
    await page.locator('#confirmPin').fill('5791');
    await page.locator('#submit').click();
    await page.waitForURL(/\/logout/);

    await rewind();
    await signIn(page, 'token01', `5791${code()}`);
    await page.waitForURL(/\/app\/$/);
    await context.close();
  });

  it('asks for the next tokencode when the token is in next-tokencode mode', async () => {
    await sql(dataDir(), "update tokens set mode = 'next-token', last_step = 0");
    const { page, context } = await newPage(browser);
    await signIn(page, 'token01', `5791${code()}`);
    await page.waitForURL(/\/next-token/);
    await page.locator('#nextToken').waitFor();
    await expectAccessible(page, 'next token');
    await page.locator('#nextToken').fill('12345678');
    await page.locator('#submit').click();
    await expect.poll(() => page.locator('#nextToken').getAttribute('aria-invalid')).toBe('true');
    await page.locator('#nextToken').fill(code(60_000));
    await page.locator('#submit').click();
    await page.waitForURL(/\/app\/$/);
    await context.close();
  });

  it('logs out a visitor who opens the new-PIN screen without that stage', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/sdportal/portalstatic/new-pin');
    await page.waitForURL(/\/logout/);
    await context.close();
  });
});
