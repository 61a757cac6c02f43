import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type IdentityProvider,
  startIdentityProvider,
} from '../apps/server/test/support/identity-provider.ts';
import {
  baseUrl,
  DEMO_PASSWORD,
  dataDir,
  expectAccessible,
  launch,
  newPage,
  signIn,
} from './support/browser.ts';
import { runCli } from './support/cli.ts';

/**
 * Single sign-on in a browser (issue 18 item 4, docs/sso.md): an SSO user of Borealis signs in at its
 * OpenID provider (a real oidc-provider on loopback), lands in the application, signs out, and the
 * logout screen's button — shown to SSO users only because a federated logout exists — ends the
 * provider's session too and comes back to the sign-in. A subject nobody has ends on the portal's
 * screen saying so. axe on our screens.
 */
let browser: Browser;
let idp: IdentityProvider;
const KEY = 'borealis-e2e';

beforeAll(async () => {
  browser = await launch();
  idp = await startIdentityProvider([
    {
      clientId: 'cardportal-e2e',
      clientSecret: 'e2e-client-secret-0123456789abcdef',
      redirectUris: [`${baseUrl()}/sdportal/sso/${KEY}/callback`],
      postLogoutRedirectUris: [`${baseUrl()}/sdportal/sso/${KEY}/signed-out`],
    },
  ]);
  const secretFile = path.join(mkdtempSync(path.join(tmpdir(), 'cp-e2e-sso-')), 'secret');
  writeFileSync(secretFile, 'e2e-client-secret-0123456789abcdef');
  const added = await runCli(
    dataDir(),
    ...['sso', 'add', '--key', KEY, '--name', 'Borealis directory', '--issuer', idp.issuer],
    ...['--client-id', 'cardportal-e2e', '--client-secret-file', secretFile, '--company', '100002'],
  );
  expect(added.stderr).toBe('');
  const linked = await runCli(
    dataDir(),
    ...['sso', 'link', '--user-id', 'ssouser01', '--provider', KEY, '--subject', 'sam.single'],
  );
  expect(linked.stderr).toBe('');
});
afterAll(async () => {
  await browser?.close();
  await idp?.close();
});

describe('single sign-on through an OpenID provider', () => {
  it('signs an SSO user in at the provider and out of both', async () => {
    const { page, context, problems } = await newPage(browser);
    // The development provider's page imports a web font; nothing leaves this machine.
    await context.route(/^https:\/\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
    );
    await page.goto(`/sdportal/sso/${KEY}?cobrandHost=cardportal&locale=en_US`);
    // The provider's own sign-in form (its page, not ours: no axe here).
    await page.waitForURL((url) => url.href.startsWith(idp.issuer));
    await page.locator('input[name="login"]').fill('sam.single');
    await page.locator('input[name="password"]').fill('provider-password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/app\/$/);
    await page.locator('#logout-button').waitFor();
    await expectAccessible(page, 'the application after single sign-on');
    const me = await page.request.get('/app/api/me');
    expect(((await me.json()) as { userId: string }).userId).toBe('ssouser01');
    expect((await context.cookies()).find((c) => c.name === 'ssoUserCookie')?.value).toBe('true');

    await page.locator('#logout-button').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/logout/);
    // Shown to an SSO user because the provider has an end of session.
    await page.locator('#return-to-login').waitFor();
    await expectAccessible(page, 'logout of an SSO user');
    expect((await page.request.get('/app/api/me')).status()).toBe(401);
    await page.locator('#return-to-login').click();
    await page.waitForURL((url) => url.href.startsWith(`${idp.issuer}/session/end`));
    await page.locator('button[name="logout"][value="yes"]').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/signin/);
    await page.locator('#userId').waitFor();

    // Signed out at the provider too: starting again asks for the provider's sign-in, not straight in.
    await page.goto(`/sdportal/sso/${KEY}`);
    await page.waitForURL((url) => url.href.startsWith(idp.issuer));
    await page.locator('input[name="login"]').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows the group's administrator the SSO user's provider and subject on the People screen", async () => {
    const { page, context, problems } = await newPage(browser);
    await signIn(page, 'cgadmin01', DEMO_PASSWORD, '?cobrandHost=cardportal&locale=en_US');
    await page.waitForURL(/\/app\/$/);
    await page.goto('/app/people/ssouser01');
    await expect.poll(() => page.locator('#user-sso').textContent()).toBe('Borealis directory (sam.single)');
    await expectAccessible(page, "an SSO user's detail");
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a subject nobody has the portal screen that says single sign-on did not sign them in', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`/sdportal/sso/${KEY}?cobrandHost=cardportal&locale=en_US`);
    await page.waitForURL((url) => url.href.startsWith(idp.issuer));
    await page.locator('input[name="login"]').fill('nobody.here');
    await page.locator('input[name="password"]').fill('provider-password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/locked\?.*reason=sso/);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Login failed');
    await expect
      .poll(() => page.locator('#locked-message').textContent())
      .toMatch(/^Single sign-on could not sign you in/);
    await expectAccessible(page, 'single sign-on refused');
    expect((await page.request.get('/app/api/me')).status()).toBe(401);
    await context.close();
  });
});
