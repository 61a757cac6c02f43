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
