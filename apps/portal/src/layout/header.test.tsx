import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeCobrand, makePortal, renderWithPortal, stubFetch } from '../testing/portal.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

describe('Header and footer logos (issue 22)', () => {
  it('show the logos the co-brand record names without a HEAD probe, and the logo plate of the theme', () => {
    const { calls } = stubFetch({});
    const cobrand = makeCobrand({
      abbreviation: 'acm',
      logoPath: '/sdportal/portalstatic/assets/images/logos/acme.gif',
      footerLogoPath: null,
      theme: { ...makeCobrand().theme, logoBackground: '#ffffff' },
    });
    renderWithPortal(
      <>
        <Header languageSelector={false} />
        <Footer />
      </>,
      makePortal({ cobrand }),
    );
    const logo = screen.getByRole('img');
    expect(logo.getAttribute('src')).toBe('/sdportal/portalstatic/assets/images/logos/acme.gif');
    expect(logo.className).toBe('cp-brand__logo cp-brand__logo--plate');
    expect(calls).toEqual([]);
    vi.unstubAllGlobals();
  });

  it('probes (spec §7) when neither boot data nor record says, and shows no plate without one', async () => {
    const { calls } = stubFetch({
      'HEAD /sdportal/portalstatic/assets/images/logos/acme.png': new Response(null),
    });
    renderWithPortal(<Header languageSelector={false} />, makePortal({ cobrand: makeCobrand() }));
    const logo = await screen.findByRole('img');
    expect(logo.className).toBe('cp-brand__logo');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(
      'HEAD /sdportal/portalstatic/assets/images/logos/acme.png',
    );
    vi.unstubAllGlobals();
  });
});
