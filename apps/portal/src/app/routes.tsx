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
const OtpScreen = lazy(() => import('../screens/otp/otp-screen.tsx'));
const ForgotPasswordScreen = lazy(() => import('../screens/forgot-password/forgot-password-screen.tsx'));
const ChangePasswordScreen = lazy(() => import('../screens/change-password/change-password-screen.tsx'));
const NewPinScreen = lazy(() => import('../screens/new-pin/new-pin-screen.tsx'));
const NextTokenScreen = lazy(() => import('../screens/next-token/next-token-screen.tsx'));
const RegisterScreen = lazy(() => import('../screens/register/register-screen.tsx'));
const RegisterCompanyScreen = lazy(() => import('../screens/register-company/register-company-screen.tsx'));
const ApplyScreen = lazy(() => import('../screens/apply/apply-screen.tsx'));

/** Screen segment → screen. A new screen slots in as `src/screens/<name>/` plus one line here. */
export const ROUTES: Record<PortalScreen, RouteDef> = {
  signin: { component: SigninScreen, languageSelector: true },
  otp: { component: OtpScreen },
  'forgot-password': { component: ForgotPasswordScreen },
  'change-password': { component: ChangePasswordScreen },
  'new-pin': { component: NewPinScreen },
  'next-token': { component: NextTokenScreen },
  logout: { component: LogoutScreen },
  locked: { component: LockedScreen },
  register: { component: RegisterScreen, languageSelector: true },
  'register-company': { component: RegisterCompanyScreen, languageSelector: true },
  apply: { component: ApplyScreen, languageSelector: true },
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
