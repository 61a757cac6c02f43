import type { PortalScreen } from '@cardportal/domain';
import { type ComponentType, lazy } from 'react';
import { screenSegment } from '../router/router.tsx';
import { SigninScreen } from '../screens/signin/signin-screen.tsx';

export interface RouteDef {
  component: ComponentType;
  /** Shows the language selector in the header. */
  languageSelector?: boolean;
}

// Sign-in ships in the entry chunk; every other screen is its own lazily loaded chunk.
const LogoutScreen = lazy(() => import('../screens/logout/logout-screen.tsx'));
const LockedScreen = lazy(() => import('../screens/locked/locked-screen.tsx'));
const NotFoundScreen = lazy(() => import('../screens/not-found/not-found-screen.tsx'));

/**
 * Screen segment → screen. A new screen slots in as `src/screens/<name>/` plus one line here
 * (otp, forgot-password, change-password, new-pin, next-token: until then they are not found).
 */
export const ROUTES: Partial<Record<PortalScreen, RouteDef>> = {
  signin: { component: SigninScreen, languageSelector: true },
  logout: { component: LogoutScreen },
  locked: { component: LockedScreen },
};

export const NOT_FOUND: RouteDef = { component: NotFoundScreen };

/** The route of a path: the bare base is sign-in; anything unknown is the not-found screen. */
export function resolveRoute(pathname: string): { name: PortalScreen | 'not-found'; route: RouteDef } {
  const segment = screenSegment(pathname);
  const name = segment === '' ? 'signin' : segment;
  if (name && Object.hasOwn(ROUTES, name)) {
    const route = ROUTES[name as PortalScreen];
    if (route) return { name: name as PortalScreen, route };
  }
  return { name: 'not-found', route: NOT_FOUND };
}
