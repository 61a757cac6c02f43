import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch } from './support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

/**
 * The frame answers every message 1.5 s late, as a frame on a loaded machine did: axe skips a frame that
 * does not answer its ping in time without a word (500 ms by default), and CI once passed over the
 * frame's image that way. The check must wait for it.
 */
const SLOW_FRAME = `<script>
  const late = new WeakSet();
  addEventListener('message', (event) => {
    if (late.has(event)) return;
    event.stopImmediatePropagation();
    const again = new MessageEvent('message', { data: event.data, origin: event.origin, source: event.source });
    late.add(again);
    setTimeout(() => dispatchEvent(again), 1500);
  }, true);
</script>`;

// Every browser spec's accessibility assertion is expectAccessible: it must fail on a page that breaks the
// rules, in the page itself and in a same-origin frame (axe runs inside the page, support/browser.ts).
describe('the accessibility check of the browser tests', () => {
  it('refuses an unlabelled field and, inside a same-origin frame, an image without a text alternative', async () => {
    const page = await browser.newPage();
    // Served by the page's own routes, so the frame has the page's origin as a screen's frame would.
    await page.route('http://check.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: route.request().url().endsWith('/inner')
          ? `<!doctype html><html lang="en"><title>Inner</title><main><img src="x.png" id="bare"></main>${SLOW_FRAME}</html>`
          : `<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1>
             <input id="nameless" type="text"><iframe title="Inner" src="/inner"></iframe></main></body></html>`,
      }),
    );
    await page.goto('http://check.test/');
    await page.frameLocator('iframe').locator('#bare').waitFor({ state: 'attached' });
    const failure = await expectAccessible(page, 'a bad page').then(
      () => '',
      (error: Error & { actual?: unknown }) => JSON.stringify(error.actual),
    );
    expect(failure).toMatch(/label: .*#nameless/);
    expect(failure).toMatch(/image-alt: .*#bare/);
    await page.close();
  });

  it('passes a page that follows them', async () => {
    const page = await browser.newPage();
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1>
       <label for="named">Name</label><input id="named" type="text"></main></body></html>`,
    );
    await expectAccessible(page, 'a good page');
    await page.close();
  });
});
