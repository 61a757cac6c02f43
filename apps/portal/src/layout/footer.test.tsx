import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeCobrand, makePortal, renderWithPortal, stubFetch } from '../testing/portal.tsx';
import { Footer } from './footer.tsx';

describe('Footer', () => {
  it('links only https URLs and our own paths, whatever the co-brand record holds; texts stay text', () => {
    stubFetch({}); // no footer logo
    const cobrand = makeCobrand({
      footerMessage: '<img src=x onerror=alert(1)>',
      footerLinks: [
        { key: 'privacyPolicy', label: 'Privacy', url: 'https://bank.example/privacy' },
        { key: 'termsOfUse', label: 'Terms', url: '/sdportal/portalstatic/signin' },
        { key: 'cookieNotice', label: 'Script', url: 'javascript:alert(1)' },
        { key: 'security', label: 'Data', url: 'data:text/html,<script>alert(1)</script>' },
        { key: 'accessibility', label: 'Slashes', url: '//evil.example/' },
        { key: 'disclaimer', label: 'Backslash', url: '/\\evil.example' },
        { key: 'termsAndConditions', label: 'Plain http', url: 'http://evil.example/' },
      ],
    });
    renderWithPortal(<Footer />, makePortal({ cobrand }));
    const hrefs = screen.getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['https://bank.example/privacy', '/sdportal/portalstatic/signin']);
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
    vi.unstubAllGlobals();
  });
});
