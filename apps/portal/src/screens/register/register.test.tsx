import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { json, renderWithPortal, stubFetch } from '../../testing/portal.tsx';
import RegisterScreen, { registerFailure } from './register-screen.tsx';

const REGISTER = 'POST /sdportal/rest/registration/cardholder';
const CARD = '5424 1800 0800 0017';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

const serviceError = (status: number, code: string, fieldErrors?: Record<string, string>) =>
  json(
    { code, message: 'Server English', errors: [{ code, message: 'Server English' }], fieldErrors },
    status,
  );

const submit = () => document.getElementById('submit') as HTMLButtonElement;
const input = (id: string) => document.getElementById(id) as HTMLInputElement;

function fill(values: Record<string, string>) {
  for (const [id, value] of Object.entries(values)) fireEvent.change(input(id), { target: { value } });
}

const VALID = {
  cardNumber: CARD,
  companyCode: '20260001',
  cardExpiry: '09/30',
  userId: 'mateoruiz',
  email: 'mateo@example.com',
  emailConfirm: 'mateo@example.com',
};

beforeEach(() => {
  window.history.replaceState(null, '', '/sdportal/portalstatic/register?cobrandHost=acme&locale=en_US');
  setCookie('sec-token=tok123; Path=/');
});
afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('registerFailure', () => {
  it('maps field errors to their fields, the proof to one message, anything else to the generic text', () => {
    const error = (status: number, code: string, fieldErrors?: Record<string, string>) =>
      new ApiError(status, code, 'x', fieldErrors, '', { code, errors: [{ code, message: 'x' }] });
    expect(registerFailure(error(409, 'userId.exists', { userId: 'userId.exists' }))).toEqual({
      kind: 'fields',
      fields: { userId: 'userId.exists' },
    });
    expect(registerFailure(error(422, 'registration.notVerified'))).toEqual({
      kind: 'form',
      message: 'validation.registration.notVerified',
    });
    expect(registerFailure(error(409, 'registration.alreadyRegistered'))).toMatchObject({
      message: 'validation.registration.alreadyRegistered',
    });
    expect(registerFailure(error(400, 'form.invalid', { constructor: 'x' }))).toMatchObject({ kind: 'form' });
    expect(registerFailure(new ApiError(0, 'network', 'down'))).toEqual({
      kind: 'form',
      message: 'register.error.generic',
    });
  });
});

describe('RegisterScreen', () => {
  it('labels every field with its hint, refuses what the rules refuse before sending, and lists the fields to correct', async () => {
    const { calls } = stubFetch({});
    renderWithPortal(<RegisterScreen />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const card = screen.getByLabelText('Card number');
    expect(card.id).toBe('cardNumber');
    expect(card.getAttribute('autocomplete')).toBe('off');
    expect(document.getElementById(card.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
      /12 to 19/,
    );
    expect(screen.getByLabelText('Expiry date').id).toBe('cardExpiry');
    expect(screen.getByRole('group', { name: 'Your card' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Your user ID' })).toBeTruthy();

    fill({ ...VALID, cardNumber: '1234', cardExpiry: '13/30', emailConfirm: 'other@example.com' });
    fireEvent.click(submit());
    const summary = document.getElementById('register-error') as HTMLElement;
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect(calls).toHaveLength(0);
    const links = [...summary.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['#cardNumber', '#cardExpiry', '#emailConfirm']);
    expect(input('cardNumber').getAttribute('aria-invalid')).toBe('true');
    expect(input('cardNumber').getAttribute('aria-describedby')).toBe('cardNumber-hint cardNumber-error');
    expect(document.getElementById('cardNumber-error')?.textContent).toBe(
      'Enter the card number as printed on the card: 12 to 19 digits.',
    );
  });

  it('sends the form once, shows the confirmation with the address and focuses it, and forgets the card number', async () => {
    const { calls } = stubFetch({ [REGISTER]: json({ ok: true }) });
    renderWithPortal(<RegisterScreen />);
    fill(VALID);
    fireEvent.click(submit());
    fireEvent.click(submit());
    const done = await screen.findByRole('heading', { name: 'Check your e-mail' });
    await waitFor(() => expect(document.activeElement).toBe(done));
    expect(screen.getByText(/mateo@example\.com/)).toBeTruthy();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({
      cardNumber: CARD,
      companyCode: '20260001',
      expiry: '09/30',
      userId: 'mateoruiz',
      email: 'mateo@example.com',
      emailConfirm: 'mateo@example.com',
      locale: 'en_US',
      cobrandName: 'acme',
    });
    expect(document.body.textContent).not.toContain('5424');
    fireEvent.click(screen.getByRole('button', { name: 'Return to sign in' }));
    expect(window.location.pathname + window.location.search).toBe(
      '/sdportal/portalstatic/signin?cobrandHost=acme&locale=en_US',
    );
  });

  it('shows the refused proof as one message, and a taken user ID at its field, keeping what was typed', async () => {
    stubFetch({ [REGISTER]: serviceError(422, 'registration.notVerified') });
    renderWithPortal(<RegisterScreen />);
    fill(VALID);
    fireEvent.click(submit());
    const summary = document.getElementById('register-error') as HTMLElement;
    await waitFor(() => expect(summary.textContent).toContain('We could not verify these card details'));
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect(input('cardNumber').value).toBe(CARD);

    stubFetch({ [REGISTER]: serviceError(409, 'userId.exists', { userId: 'userId.exists' }) });
    fireEvent.click(submit());
    await waitFor(() =>
      expect(document.getElementById('userId-error')?.textContent).toMatch(/already exists/),
    );
    expect(summary.querySelector('a')?.getAttribute('href')).toBe('#userId');
  });
});
