import { describe, expect, it } from 'vitest';
import { resolveRoute } from './routes.tsx';

describe('resolveRoute', () => {
  it.each([
    ['/sdportal/portalstatic/', 'signin'],
    ['/sdportal/portalstatic', 'signin'],
    ['/sdportal/portalstatic/signin', 'signin'],
    ['/sdportal/portalstatic/logout', 'logout'],
    ['/sdportal/portalstatic/locked', 'locked'],
    ['/sdportal/portalstatic/otp', 'otp'],
    ['/sdportal/portalstatic/forgot-password', 'forgot-password'],
    ['/sdportal/portalstatic/change-password', 'change-password'],
    ['/sdportal/portalstatic/new-pin', 'new-pin'],
    ['/sdportal/portalstatic/next-token', 'next-token'],
    ['/sdportal/portalstatic/nope', 'not-found'],
    ['/sdportal/portalstatic/signin/extra', 'not-found'],
    ['/sdportal/portalstatic/constructor', 'not-found'],
    ['/sdportal/portalstatic/__proto__', 'not-found'],
    ['/elsewhere', 'not-found'],
  ])('%s → %s', (path, name) => {
    expect(resolveRoute(path).name).toBe(name);
  });

  it('shows the language selector on sign-in only', () => {
    expect(resolveRoute('/sdportal/portalstatic/signin').route.languageSelector).toBe(true);
    expect(resolveRoute('/sdportal/portalstatic/logout').route.languageSelector).toBeFalsy();
  });
});
