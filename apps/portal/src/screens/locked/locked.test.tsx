import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithPortal } from '../../testing/portal.tsx';
import NotFoundScreen from '../not-found/not-found-screen.tsx';
import LockedScreen from './locked-screen.tsx';

describe('LockedScreen', () => {
  it('states the attempt limit and returns to sign-in keeping cobrandHost and locale', () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/locked');
    renderWithPortal(<LockedScreen />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your user ID is temporarily locked');
    expect(screen.getByText(/maximum number of login attempts \(6\).*30 minutes/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Return to sign in' }));
    expect(window.location.pathname + window.location.search).toBe(
      '/sdportal/portalstatic/signin?cobrandHost=acme&locale=en_US',
    );
  });
});

describe('LockedScreen with a reason', () => {
  it.each([
    ['temporary-expired', 'Your temporary password has expired. Contact your administrator.'],
    ['inactive', 'The user, or its company, is locked or inactive.'],
    ['locked', 'The user, or its company, is locked or inactive.'],
  ])('shows the catalogue message of reason=%s instead of the attempt limit', (reason, message) => {
    window.history.replaceState(null, '', `/sdportal/portalstatic/locked?reason=${reason}&cobrandHost=acme`);
    renderWithPortal(<LockedScreen />);
    expect(document.getElementById('locked-message')?.textContent).toBe(message);
    expect(screen.queryByText(/maximum number of login attempts/)).toBeNull();
  });

  it('says a failed single sign-on failed, under the sign-in failure heading, not a lock (docs/sso.md)', () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/locked?reason=sso&cobrandHost=acme');
    renderWithPortal(<LockedScreen />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Login failed');
    expect(document.getElementById('locked-message')?.textContent).toBe(
      'Single sign-on could not sign you in. Try again, or ask your administrator to check your access.',
    );
    expect(screen.queryByText(/temporarily locked/)).toBeNull();
  });

  it('ignores an unknown reason: the attempt limit as without one', () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/locked?reason=toString');
    renderWithPortal(<LockedScreen />);
    expect(screen.getByText(/maximum number of login attempts \(6\)/)).toBeTruthy();
  });
});

describe('NotFoundScreen', () => {
  it('has the not-found heading and a sign-in link', () => {
    renderWithPortal(<NotFoundScreen />);
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading.id).toBe('not-found');
    expect(heading.textContent).toBe('Page not found');
    expect(screen.getByRole('link', { name: 'Go to the sign-in page' }).getAttribute('href')).toBe(
      '/sdportal/portalstatic/signin?cobrandHost=acme&locale=en_US',
    );
  });
});
