import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { hasNavigatedInApp, Link, navigate, screenSegment, useLocationKey } from './router.tsx';

describe('screenSegment', () => {
  it.each([
    ['/sdportal/portalstatic', ''],
    ['/sdportal/portalstatic/', ''],
    ['/sdportal/portalstatic/signin', 'signin'],
    ['/sdportal/portalstatic/logout/', 'logout'],
    ['/sdportal/portalstatic/whatever', 'whatever'],
    ['/sdportal/portalstatic/a/b', null],
    ['/sdportal/portalstaticx', null],
    ['/app/', null],
  ])('%s → %s', (path, expected) => {
    expect(screenSegment(path)).toBe(expected);
  });
});

function Where() {
  return <output>{useLocationKey()}</output>;
}

describe('navigation', () => {
  beforeEach(() => window.history.replaceState(null, '', '/sdportal/portalstatic/signin?cobrandHost=acme'));

  it('navigate() pushes history and re-renders subscribers', () => {
    render(<Where />);
    expect(screen.getByRole('status').textContent).toBe('/sdportal/portalstatic/signin?cobrandHost=acme');
    const before = window.history.length;
    act(() => navigate('/sdportal/portalstatic/locked?cobrandHost=acme'));
    expect(screen.getByRole('status').textContent).toBe('/sdportal/portalstatic/locked?cobrandHost=acme');
    expect(window.history.length).toBe(before + 1);
    expect(hasNavigatedInApp()).toBe(true);
  });

  it('replace does not add a history entry', () => {
    const before = window.history.length;
    act(() => navigate('/sdportal/portalstatic/logout', { replace: true }));
    expect(window.history.length).toBe(before);
    expect(window.location.pathname).toBe('/sdportal/portalstatic/logout');
  });

  it('Link navigates in the app on a plain click and keeps its href', () => {
    render(
      <>
        <Link to="/sdportal/portalstatic/logout?locale=de">go</Link>
        <Where />
      </>,
    );
    const link = screen.getByRole('link', { name: 'go' });
    expect(link.getAttribute('href')).toBe('/sdportal/portalstatic/logout?locale=de');
    fireEvent.click(link);
    expect(screen.getByRole('status').textContent).toBe('/sdportal/portalstatic/logout?locale=de');
  });

  it('Link leaves modified clicks to the browser', () => {
    render(<Link to="/sdportal/portalstatic/logout">go</Link>);
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    screen.getByRole('link').dispatchEvent(event);
    // the browser, not the app, handles it (e.g. opens a new tab)
    expect(event.defaultPrevented).toBe(false);
  });
});
