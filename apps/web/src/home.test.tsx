import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeT } from './lib/text.ts';
import { HomeScreen } from './screens/home/home-screen.tsx';

describe('application home', () => {
  const texts = {
    'app.welcome': 'Welcome, {0}',
    'app.logout': 'Log out',
    'app.userId': 'User ID',
    'app.userType': 'User type',
    'app.userType.A': 'Cardholder',
    'app.lastLogin': 'Last sign-in',
    'common.skipToMain': 'Skip to main content',
  };

  it('shows who is signed in, from the bundle texts', () => {
    render(
      <HomeScreen
        languageTag="en-US"
        context={{
          user: {
            userId: 'active01',
            firstName: 'Ada',
            lastName: 'Active',
            email: 'a@x',
            userType: 'A',
            cobrand: 'cardportal',
            locale: 'en_US',
            lastLoginAt: '2026-11-22T10:00:00.000Z',
          },
          cobrand: null,
          texts,
          logo: null,
        }}
      />,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome, Ada Active');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeDefined();
    expect(screen.getByText('Cardholder')).toBeDefined();
    expect(screen.getByText(/2026/)).toBeDefined();
  });

  it('substitutes placeholders and renders a missing key empty', () => {
    const t = makeT({ a: '{0} and {1}' });
    expect(t('a', 'x', 'y')).toBe('x and y');
    expect(t('missing')).toBe('');
  });
});
