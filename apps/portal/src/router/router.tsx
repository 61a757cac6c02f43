import { PORTAL_BASE } from '@cardportal/domain';
import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

/**
 * A ~50-line router over the History API (the portal's page budget leaves no room for react-router,
 * see docs/portal.md). One level of screens under PORTAL_BASE; the query string travels with the URL.
 */

const NAVIGATE_EVENT = 'cp:navigate';
let navigatedInApp = false;

/** The screen segment of a path under the portal base: '' for the bare base; null when not a portal screen path. */
export function screenSegment(pathname: string, base: string = PORTAL_BASE): string | null {
  const bare = base.replace(/\/$/, '');
  if (pathname === bare) return '';
  if (!pathname.startsWith(base)) return null;
  const rest = pathname.slice(base.length).replace(/\/$/, '');
  return rest.includes('/') ? null : rest;
}

function subscribe(onChange: () => void): () => void {
  const onPop = () => {
    navigatedInApp = true;
    onChange();
  };
  window.addEventListener('popstate', onPop);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onPop);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

/** The location a server render renders (there is no window there); see withServerLocation. */
let serverLocation: { pathname: string; search: string } | undefined;

/**
 * Runs a synchronous server render (renderToString) with `location` as the current location.
 */
export function withServerLocation<T>(location: { pathname: string; search: string }, render: () => T): T {
  serverLocation = location;
  try {
    return render();
  } finally {
    serverLocation = undefined;
  }
}

/** The current path and query: the browser's, or the one a server render was given. */
export function currentLocation(): { pathname: string; search: string } {
  return serverLocation ?? window.location;
}

const snapshot = () => {
  const { pathname, search } = currentLocation();
  return pathname + search;
};

/** The current path + query; re-renders on navigate() and on back/forward. */
export function useLocationKey(): string {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

const subscribeNever = () => () => {};

/**
 * False in a server render and while the client hydrates it, true once the page is interactive (and
 * at once in a client-only render). A server-rendered form keeps its submit button disabled until
 * then, so no one can submit it natively before the script took over.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/** Client-side navigation to a same-origin URL (path + query). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  navigatedInApp = true;
  window.history[options.replace ? 'replaceState' : 'pushState'](null, '', to);
  window.scrollTo?.(0, 0);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** True once the user moved between screens without a page load (screens then move focus to their h1). */
export function hasNavigatedInApp(): boolean {
  return navigatedInApp;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
}

/** An <a href> that navigates in the app on a plain left click and behaves as a link otherwise. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a {...rest} href={to} onClick={handleClick} />;
}
