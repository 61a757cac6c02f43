import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../lib/browser.ts';
import { makeCobrand, makePortal, stubFetch } from '../testing/portal.tsx';
import { App } from './app.tsx';

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(browser, 'assign').mockImplementation(() => {});
});

function stubAssets(existing: string[] = []) {
  return stubFetch(
    Object.fromEntries(existing.map((path) => [`HEAD ${path}`, new Response(null, { status: 200 })])),
  );
}

describe('App and login layout', () => {
  it('shows sign-in on the bare base path inside header, main and footer, with a skip link', async () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/');
    stubAssets(['/sdportal/portalstatic/assets/images/logos/acme.jpg']);
    render(<App portal={makePortal()} />);
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main').id).toBe('main');
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Skip to main content' }).getAttribute('href')).toBe('#main');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const logo = await screen.findByRole('img', { name: 'Acme Card' });
    expect(logo.getAttribute('src')).toBe('/sdportal/portalstatic/assets/images/logos/acme.jpg');
  });

  it('shows the not-found screen for unknown paths (lazy)', async () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/nowhere');
    stubAssets();
    render(<App portal={makePortal()} />);
    expect((await screen.findByRole('heading', { level: 1 })).id).toBe('not-found');
    // no logo found: the application name is shown as text
    expect(screen.getByRole('banner').textContent).toContain('Acme Card');
  });

  it('navigates between screens and moves focus to the new heading', async () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/nowhere?cobrandHost=acme');
    stubAssets();
    render(<App portal={makePortal()} />);
    fireEvent.click(await screen.findByRole('link', { name: 'Go to the sign-in page' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Sign in to Acme Card' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    act(() => window.history.back());
  });

  it('renders the co-brand footer from the record, as text, in order', async () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/signin');
    stubAssets(['/sdportal/portalstatic/assets/images/footers/acm.gif']);
    const cobrand = makeCobrand({
      footerLinks: [
        { key: 'termsOfUse', label: 'Terms', url: 'https://bank.example/terms' },
        { key: 'privacyPolicy', label: '<b>Privacy</b>', url: '/privacy' },
      ],
      footerMessage: 'Issued by Acme Bank',
      copyrightMessage: '© 2025 Acme',
      poweredBy: 'Powered by cardportal',
    });
    render(<App portal={makePortal({ cobrand })} />);
    const nav = screen.getByRole('navigation', { name: 'Legal and policy links' });
    const links = nav.querySelectorAll('a');
    expect([...links].map((a) => a.textContent)).toEqual(['Terms', '<b>Privacy</b>']);
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(links[1]?.getAttribute('rel')).toBeNull();
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toContain('Issued by Acme Bank');
    expect(footer.textContent).toContain('© 2025 Acme');
    expect(footer.textContent).toContain('Powered by cardportal');
    expect(footer.querySelector('b')).toBeNull();
    await waitFor(() =>
      expect(footer.querySelector('img')?.getAttribute('src')).toBe(
        '/sdportal/portalstatic/assets/images/footers/acm.gif',
      ),
    );
  });

  it('offers the co-brand languages on sign-in; choosing one sets the cookie and reloads with locale', () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/signin?cobrandHost=acme&invalidLogin=true');
    stubAssets();
    render(<App portal={makePortal()} />);
    const select = screen.getByLabelText('Language') as HTMLSelectElement;
    expect(select.id).toBe('locale-select');
    expect([...select.options].map((o) => o.textContent)).toEqual(['English (United States)', 'Deutsch']);
    fireEvent.change(select, { target: { value: 'de' } });
    expect(document.cookie).toContain('user_locale=de');
    expect(browser.assign).toHaveBeenCalledWith('/sdportal/portalstatic/signin?cobrandHost=acme&locale=de');
  });

  it('has no language selector outside sign-in', async () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/locked');
    stubAssets();
    render(<App portal={makePortal()} />);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByLabelText('Language')).toBeNull();
  });
});
