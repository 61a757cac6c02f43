import type { CobrandRecord } from '@cardportal/domain';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import messages from '../../../../packages/i18n/bundles/en_US/Messages.json';
import labels from '../../../../packages/i18n/bundles/en_US/PortalLabels.json';
import { type Portal, PortalContext } from '../app/portal-context.tsx';
import { createTranslate } from '../i18n/i18n.ts';

export const enLabels: Record<string, string> = labels;
export const enMessages: Record<string, string> = messages;

export function makeCobrand(overrides: Partial<CobrandRecord> = {}): CobrandRecord {
  return {
    name: 'acme',
    abbreviation: 'acm',
    appName: 'Acme Card',
    signInToLabel: 'Sign in to',
    fssoRedirectUrl: null,
    fssoLogoutUrl: null,
    companySelfRegisterSupported: false,
    prospectiveAccountApplicationSupported: false,
    companySelfRegisterUrl: null,
    cardholderSelfRegisterUrl: null,
    prospectiveAccountApplicationUrl: null,
    footerMessage: null,
    copyrightMessage: null,
    warningMessage: null,
    authorizationWarning: null,
    poweredBy: null,
    managerWebsite: null,
    groupWebsite: null,
    footerLinks: [],
    theme: {
      primary: '#112233',
      onPrimary: '#ffffff',
      background: '#f0f0f0',
      text: '#111111',
      link: '#0044aa',
      footerBackground: '#222222',
      footerText: '#eeeeee',
      fontFamily: 'Arial, sans-serif',
    },
    ...overrides,
  };
}

export function makePortal(overrides: Partial<Portal> = {}): Portal {
  const cobrand = overrides.cobrand === undefined ? makeCobrand() : overrides.cobrand;
  return {
    cobrandName: cobrand?.name ?? 'cardportal',
    cobrand,
    locale: 'en_US',
    locales: { en_US: 'English (United States)', de: 'Deutsch' },
    t: createTranslate(enLabels, enMessages),
    appName: cobrand?.appName ?? 'Card Portal',
    ...overrides,
  };
}

export function renderWithPortal(ui: ReactElement, portal: Portal = makePortal()) {
  return render(<PortalContext value={portal}>{ui}</PortalContext>);
}

export interface RecordedCall {
  method: string;
  url: string;
  headers: Headers;
  body: string | null;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

/**
 * Stubs fetch at the network boundary: `routes` maps "METHOD /path" (query ignored) to a handler;
 * anything else answers 404. Every call is recorded in order.
 */
export function stubFetch(routes: Record<string, Handler | Response>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      url,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : null,
    };
    calls.push(call);
    if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const path = new URL(url, 'http://localhost').pathname;
    const handler = routes[`${method} ${path}`];
    if (!handler)
      return new Response(JSON.stringify({ code: 'not_found', message: 'nope' }), { status: 404 });
    return handler instanceof Response ? handler.clone() : handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const text = (body: string, status = 200) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain' } });
export const json = (body: unknown, status = 200) => Response.json(body, { status });
