import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type AppTextNamespace,
  type CompanySummary,
  type CurrentUser,
  type OrgPointNode,
  type ReportingStructure,
  textNamespaceOf,
  type UserDetail,
  type UserType,
} from '@cardportal/domain';
import { act, cleanup, configure, render } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { afterEach, vi } from 'vitest';
import type { AppContext } from '../lib/session.ts';
import { textOptions } from '../lib/text.ts';
import { AppRoutes } from '../routes.tsx';

// No vitest globals: unmount after each test ourselves.
afterEach(cleanup);
// A screen's first lazy import (react-aria, TanStack) is transformed on first use: on a 2-core
// machine that alone can pass the default 1 s of findBy* / waitFor.
configure({ asyncUtilTimeout: 5_000 });

// happy-dom fires `selectionchange` even when a collapse changes nothing (browsers do not), and react-aria's
// date segments collapse the selection on every `selectionchange`: without this, they recurse forever.
const selectionProto = Object.getPrototypeOf(document.getSelection()) as Selection;
const collapse = selectionProto.collapse;
selectionProto.collapse = function (this: Selection, node: Node | null, offset = 0) {
  if (this.rangeCount > 0 && this.isCollapsed && this.anchorNode === node && this.anchorOffset === offset)
    return;
  collapse.call(this, node, offset);
};

const bundles = path.resolve(import.meta.dirname, '../../../../packages/i18n/bundles/en_US');
/** The real en_US texts: tests find elements by what users read. */
export const TEXTS: Record<string, string> = {
  ...JSON.parse(readFileSync(path.join(bundles, 'Messages.json'), 'utf8')),
  ...JSON.parse(readFileSync(path.join(bundles, 'PortalLabels.json'), 'utf8')),
};

/** Texts given whole: every namespace in at once, synchronously (the application loads them from the server). */
export function textsFrom(
  languageTag: string,
  resources: Partial<Record<AppTextNamespace, Record<string, string>>>,
): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    ...textOptions(languageTag, Object.keys(resources) as AppTextNamespace[]),
    resources: { [languageTag]: resources },
    initAsync: false,
  });
  return instance;
}

/** TEXTS as the server serves them: one file per namespace (docs/text.md). */
export function namespacesOf(texts: Record<string, string>) {
  const out: Partial<Record<AppTextNamespace, Record<string, string>>> = {};
  for (const [key, text] of Object.entries(texts)) {
    const namespace = textNamespaceOf(key);
    if (namespace) out[namespace] = { ...out[namespace], [key]: text };
  }
  return out;
}

export function makeContext(userType: UserType = 'C', extra: Partial<CurrentUser> = {}): AppContext {
  return {
    user: {
      userId: 'admin01',
      firstName: 'Ada',
      lastName: 'Admin',
      email: 'ada@example.com',
      userType,
      cobrand: 'cardportal',
      locale: 'en_US',
      lastLoginAt: '2026-11-22T10:00:00.000Z',
      permissions: [],
      multiUser: { confirm: null, choices: [] },
      accessedBy: null,
      ...extra,
    },
    cobrand: null,
    // Every namespace in at once: text-namespaces.test.ts checks that each screen folder uses only the
    // shell's keys and its own, as the application loads them.
    texts: textsFrom('en-US', namespacesOf(TEXTS)),
    logo: null,
  };
}

export function renderApp(path: string, context: AppContext = makeContext()) {
  return render(<AppRoutes context={context} languageTag="en-US" initialPath={path} />);
}

export interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** Replaces fetch: `answer` decides each reply; every call is recorded. */
export function mockFetch(answer: (call: Call) => { status?: number; body?: unknown } | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const call: Call = {
        url: String(input),
        method: init.method ?? 'GET',
        headers: new Headers(init.headers),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : (init.body ?? undefined),
      };
      calls.push(call);
      const reply = answer(call) ?? { status: 404, body: { code: 'not_found', message: '' } };
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

export function userDetail(over: Partial<UserDetail> = {}): UserDetail {
  return {
    userId: 'card01',
    firstName: 'Carl',
    lastName: 'Holder',
    email: 'carl@example.com',
    userType: 'A',
    status: 'Active',
    company: { id: 1, number: '1001', name: 'Demo Co' },
    locale: 'en_US',
    loginType: 'pwd',
    firstLogin: true,
    createdAt: '2026-11-20T09:00:00.000Z',
    lastLoginAt: null,
    placement: {
      issuerGroupId: null,
      issuerId: null,
      companyGroupId: null,
      companyId: 1,
      orgPointId: null,
      accountGroupId: null,
      cardholderId: 5,
    },
    allowed: { modify: true, deactivate: true, reactivate: false, unlock: false },
    assignableTypes: ['O', 'S', 'A'],
    readOnly: false,
    singleSignOn: null,
    ...over,
  };
}

export function companySummary(over: Partial<CompanySummary> = {}): CompanySummary {
  return {
    number: '100001',
    name1: 'Acme Industries',
    name2: '',
    issuerNumber: '1001',
    issuerName: 'Cardportal Demo Bank',
    groupName: null,
    multiUser: false,
    active: true,
    ...over,
  };
}

const point = (
  number: string,
  name1: string,
  level: number,
  reportsTo: string | null,
  children: OrgPointNode[] = [],
): OrgPointNode => ({
  number,
  name1,
  name2: '',
  reportingLevel: level,
  reportsTo,
  active: true,
  children,
});

/** Acme's demo tree: A000 > A100 > (A110, A120), A000 > A200. */
export function structure(over: Partial<ReportingStructure> = {}): ReportingStructure {
  return {
    company: companySummary(),
    canModify: true,
    roots: [
      point('A000', 'Acme Industries', 1, null, [
        point('A100', 'Operations', 2, 'A000', [
          point('A110', 'Plant North', 3, 'A100'),
          point('A120', 'Plant South', 3, 'A100'),
        ]),
        point('A200', 'Finance', 2, 'A000'),
      ]),
    ],
    count: 5,
    ...over,
  };
}

/** The text a screen shows for a problem key, looked up as the app does (Messages may change wording). */
export function problemTextOf(key: string): string {
  return TEXTS[`validation.${key}`] ?? TEXTS[`app.error.${key}`] ?? TEXTS['app.error.generic'] ?? key;
}

/**
 * Types a date (`YYYY-MM-DD`) into a DatePicker (frame/aria/date-picker.tsx) as a keyboard user does:
 * digit by digit into each segment (react-aria reads `beforeinput`). `id` is the field's segment group.
 */
export function enterDate(id: string, iso: string): void {
  const group = document.getElementById(id);
  if (!group) throw new Error(`no date field #${id}`);
  const [year = '', month = '', day = ''] = iso.split('-');
  const parts: Record<string, string> = { year, month, day };
  for (const segment of group.querySelectorAll<HTMLElement>('[role="spinbutton"]')) {
    const digits = parts[segment.dataset.type ?? ''];
    if (digits === undefined) continue;
    act(() => segment.focus());
    for (const data of digits)
      act(() => {
        segment.dispatchEvent(
          new InputEvent('beforeinput', { data, inputType: 'insertText', bubbles: true, cancelable: true }),
        );
      });
  }
}
