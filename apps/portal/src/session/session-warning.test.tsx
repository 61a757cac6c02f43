import { announcedSeconds } from '@cardportal/ui';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../lib/browser.ts';
import { json, renderWithPortal, stubFetch, text } from '../testing/portal.tsx';
import { PortalSessionWarning } from './session-warning.tsx';

const CONTENT = 'GET /sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json';
const PING = 'GET /sdportal/rest/sessionExpire/pingPortal.json';
const LOGOUT = 'GET /heracles/logout';
const LOGOUT_URL = '/sdportal/portalstatic/logout?cobrandHost=acme&locale=en_US';

const content = {
  sessionExpireWarningBoxTitle: 'Session ending',
  generalSessionAboutToExpireMessage: 'Your session ends in {0} seconds.',
  sessionExpireContinueButtonLabel: 'Keep working',
  sessionExpireLogoutButtonLabel: 'Sign out',
  warningAfterMs: 5000,
  countdownSeconds: 80,
};

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function Harness() {
  return (
    <>
      <input id="somewhere" aria-label="Somewhere" />
      <PortalSessionWarning />
    </>
  );
}

let assign: ReturnType<typeof vi.spyOn>;

async function start(routes: Parameters<typeof stubFetch>[0]) {
  const stub = stubFetch({ [LOGOUT]: text(LOGOUT_URL), ...routes });
  renderWithPortal(<Harness />);
  const field = screen.getByLabelText('Somewhere');
  field.focus();
  await advance(0);
  return { ...stub, field };
}

const dialog = () => screen.queryByRole('alertdialog');
const liveRegion = () => dialog()?.querySelector('[aria-live="polite"]') as HTMLElement;

beforeEach(() => {
  vi.useFakeTimers();
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
});

describe('announcedSeconds', () => {
  it('announces every tenth second and each of the last ten, never the opening value', () => {
    expect(announcedSeconds(80, 80)).toBeNull();
    expect(announcedSeconds(75, 80)).toBeNull();
    expect(announcedSeconds(70, 80)).toBe(70);
    expect(announcedSeconds(61, 80)).toBe(70);
    expect(announcedSeconds(11, 80)).toBe(20);
    expect(announcedSeconds(10, 80)).toBe(10);
    expect(announcedSeconds(3, 80)).toBe(3);
  });
});

describe('session-expiry warning', () => {
  it('opens after warningAfterMs as a labelled modal alertdialog with a polite, throttled countdown', async () => {
    const { calls } = await start({ [CONTENT]: json(content) });
    expect(calls[0]?.url).toBe(
      '/sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json?cobrandHost=acme',
    );
    await advance(4999);
    expect(dialog()).toBeNull();
    await advance(1);
    const box = dialog() as HTMLElement;
    expect(box.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-labelledby') ?? '')?.textContent).toBe(
      'Session ending',
    );
    const message = () => document.getElementById(box.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(message()).toBe('Your session ends in 80 seconds.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep working' }));
    expect(liveRegion().textContent).toBe('');
    await advance(5000);
    expect(message()).toBe('Your session ends in 75 seconds.');
    expect(liveRegion().textContent).toBe('');
    await advance(5000);
    expect(liveRegion().textContent).toBe('Your session ends in 70 seconds.');
    await advance(3000);
    expect(message()).toBe('Your session ends in 67 seconds.');
    expect(liveRegion().textContent).toBe('Your session ends in 70 seconds.');
    await advance(58_000);
    expect(liveRegion().textContent).toBe('Your session ends in 9 seconds.');
    expect(assign).not.toHaveBeenCalled();
  });

  it('traps Tab and Shift+Tab between the two buttons', async () => {
    await start({ [CONTENT]: json(content) });
    await advance(5000);
    const box = dialog() as HTMLElement;
    const keep = screen.getByRole('button', { name: 'Keep working' });
    const out = screen.getByRole('button', { name: 'Sign out' });
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(document.activeElement).toBe(out);
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(document.activeElement).toBe(keep);
    fireEvent.keyDown(box, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(out);
    fireEvent.keyDown(box, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(keep);
  });

  it('Esc counts as Continue: pings, closes, gives focus back and restarts the idle timer', async () => {
    const { calls, field } = await start({ [CONTENT]: json(content), [PING]: json({ ok: true }) });
    await advance(5000);
    fireEvent.keyDown(dialog() as HTMLElement, { key: 'Escape' });
    await advance(0);
    expect(calls.some((c) => c.url === '/sdportal/rest/sessionExpire/pingPortal.json')).toBe(true);
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(field);
    await advance(4999);
    expect(dialog()).toBeNull();
    await advance(1);
    expect(dialog()).not.toBeNull();
    expect(dialog()?.textContent).toContain('80 seconds');
    expect(assign).not.toHaveBeenCalled();
  });

  it('Continue pings and closes; a failed ping logs out', async () => {
    await start({ [CONTENT]: json(content), [PING]: json({ code: 'session.required', message: 'x' }, 401) });
    await advance(5000);
    fireEvent.click(screen.getByRole('button', { name: 'Keep working' }));
    await advance(0);
    expect(assign).toHaveBeenCalledWith(LOGOUT_URL);
  });

  it('logs out at zero', async () => {
    const { calls } = await start({ [CONTENT]: json(content) });
    await advance(5000 + 79_000);
    expect(assign).not.toHaveBeenCalled();
    await advance(1000);
    expect(calls.some((c) => c.url === '/heracles/logout')).toBe(true);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(LOGOUT_URL);
  });

  it('the Logout button logs out', async () => {
    await start({ [CONTENT]: json(content) });
    await advance(5000);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await advance(0);
    expect(assign).toHaveBeenCalledWith(LOGOUT_URL);
  });

  it('falls back to the bundle texts and the spec defaults when the content call fails', async () => {
    await start({ [CONTENT]: text('down', 500) });
    await advance(219_999);
    expect(dialog()).toBeNull();
    await advance(1);
    expect(screen.getByRole('heading', { name: 'Your session is about to expire' })).toBeTruthy();
    expect(dialog()?.textContent).toContain('your session will end in 80 seconds');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });
});
