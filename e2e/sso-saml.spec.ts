import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SamlIdentityProvider,
  startSamlIdentityProvider,
} from '../apps/server/test/support/saml-idp.ts';
import { DEMO_PASSWORD, dataDir, expectAccessible, launch, newPage } from './support/browser.ts';
import { runCli } from './support/cli.ts';

/**
 * Single sign-on over SAML 2.0 in a browser (issue 18 item 4, docs/sso.md "SAML"): a Borealis SSO user
 * goes to the IdP (a real SAML IdP on loopback that signs its assertions), whose page posts the signed
 * response to our assertion consumer service; the browser that started lands in the application, signs
 * out, and the logout screen's button goes to the IdP's logout page. axe on our screens.
 */
let browser: Browser;
let idp: SamlIdentityProvider;
const KEY = 'borealis-saml-e2e';

beforeAll(async () => {
  browser = await launch();
  idp = await startSamlIdentityProvider();
  idp.subject = 'sally.saml';
  const certificateFile = path.join(mkdtempSync(path.join(tmpdir(), 'cp-e2e-saml-')), 'idp.pem');
  writeFileSync(certificateFile, idp.certificate);
  const added = await runCli(
    dataDir(),
    ...['sso', 'add-saml', '--key', KEY, '--name', 'Borealis SAML', '--idp-entity-id', idp.entityId],
    ...[
      '--entry-point',
      idp.entryPoint,
      '--certificate-file',
      certificateFile,
      '--logout-url',
      idp.logoutUrl,
    ],
    ...['--company', '100002'],
  );
  expect(added.stderr).toBe('');
  const made = await runCli(
    dataDir(),
    ...[
      'user',
      'create',
      '--user-id',
      'samluser01',
      '--email',
      'sally.saml@example.com',
      '--company',
      '100002',
    ],
    ...['--password', DEMO_PASSWORD, '--first-name', 'Sally', '--last-name', 'Saml'],
  );
  expect(made.stderr).toBe('');
  const linked = await runCli(
    dataDir(),
    ...['sso', 'link', '--user-id', 'samluser01', '--provider', KEY, '--subject', 'sally.saml'],
  );
  expect(linked.stderr).toBe('');
});
afterAll(async () => {
  await browser?.close();
  await idp?.close();
});

describe('single sign-on through a SAML 2.0 identity provider', () => {
  it('signs an SSO user in through the IdP’s posted response, and out to the IdP’s logout page', async () => {
    const { page, context, problems } = await newPage(browser);
    await page.goto(`/sdportal/sso/${KEY}?cobrandHost=cardportal&locale=en_US`);
    // The IdP's page posts the signed response to our assertion consumer service by itself.
    await page.waitForURL(/\/app\/$/);
    await page.locator('#logout-button').waitFor();
    await expectAccessible(page, 'the application after SAML single sign-on');
    const me = await page.request.get('/app/api/me');
    expect(((await me.json()) as { userId: string }).userId).toBe('samluser01');
    expect((await context.cookies()).find((c) => c.name === 'ssoUserCookie')?.value).toBe('true');

    await page.locator('#logout-button').click();
    await page.waitForURL(/\/sdportal\/portalstatic\/logout/);
    await page.locator('#return-to-login').waitFor();
    await expectAccessible(page, 'logout of a SAML user');
    expect((await page.request.get('/app/api/me')).status()).toBe(401);
    await page.locator('#return-to-login').click();
    await page.waitForURL((url) => url.href === idp.logoutUrl);
    expect(await page.textContent('body')).toContain('signed out');
    expect(problems).toEqual([]);
    await context.close();
  });
});
