import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { json, renderWithPortal, stubFetch } from '../../testing/portal.tsx';
import { forgotErrorKey } from './forgot-password-flow.ts';
import ForgotPasswordScreen from './forgot-password-screen.tsx';

const QUESTION = 'POST /cpae/public/users/securityquestions';
const FORGOT = 'POST /services/authentication-service/public/forgotPassword';
const SIGNIN_URL = '/sdportal/portalstatic/signin?cobrandHost=acme&locale=en_US';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

const serviceError = (code: string, message = 'Server English text', status = 400) =>
  json({ code, message, errors: [{ code, message }] }, status);

const submit = () => document.getElementById('submit') as HTMLButtonElement;
const here = () => window.location.pathname + window.location.search;

function describedText(element: HTMLElement): string {
  return document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent ?? '';
}

async function toQuestionStep() {
  fireEvent.change(screen.getByLabelText('User ID'), { target: { value: ' alice ' } });
  fireEvent.click(submit());
  return screen.findByLabelText('In what city were you born?');
}

beforeEach(() => {
  window.history.replaceState(
    null,
    '',
    '/sdportal/portalstatic/forgot-password?cobrandHost=acme&locale=en_US',
  );
  setCookie('sec-token=tok123; Path=/');
});
afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('forgotErrorKey', () => {
  it('maps known service codes to bundle texts and anything else to the generic text', () => {
    const error = (code: string) =>
      new ApiError(400, code, 'x', undefined, '', { code, errors: [{ code, message: 'x' }] });
    expect(forgotErrorKey(error('answer.wrong'))).toBe('forgotPassword.error.wrongAnswer');
    expect(forgotErrorKey(error('user.locked'))).toBe('forgotPassword.error.locked');
    expect(forgotErrorKey(error('forgot.firstLogin'))).toBe('forgotPassword.error.firstLogin');
    expect(forgotErrorKey(error('something.else'))).toBe('forgotPassword.error.generic');
    expect(forgotErrorKey(error('constructor'))).toBe('forgotPassword.error.generic');
    expect(forgotErrorKey(new ApiError(0, 'network', 'down'))).toBe('forgotPassword.error.generic');
  });
});

describe('ForgotPasswordScreen', () => {
  it('walks user ID → security question → e-mail confirmation, focusing each step heading', async () => {
    const { calls } = stubFetch({
      [QUESTION]: json({ questionId: 'q1', questionText: 'In what city were you born?' }),
      [FORGOT]: json({ ok: true }),
    });
    renderWithPortal(<ForgotPasswordScreen />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 1 of 3: Identify yourself');
    expect(screen.getByText('This feature cannot be used on your first login.')).toBeTruthy();
    expect(screen.getByLabelText('User ID').id).toBe('userId');

    const answer = await toQuestionStep();
    expect(answer.id).toBe('securityAnswer');
    expect((answer as HTMLInputElement).type).toBe('password');
    const step2 = screen.getByRole('heading', { level: 2 });
    expect(step2.textContent).toBe('Step 2 of 3: Answer your security question');
    await waitFor(() => expect(document.activeElement).toBe(step2));
    expect(calls[0]?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ userId: 'alice', locale: 'en_US' });

    // show/hide toggle on the answer
    const toggle = screen.getByRole('button', { name: 'Show answer' });
    fireEvent.click(toggle);
    expect((answer as HTMLInputElement).type).toBe('text');

    fireEvent.change(answer, { target: { value: ' Springfield ' } });
    fireEvent.click(submit());
    const button = await screen.findByRole('button', { name: 'Return to sign in' });
    expect(button.id).toBe('return-to-login');
    const step3 = screen.getByRole('heading', { level: 2 });
    expect(step3.textContent).toBe('Step 3 of 3: Check your e-mail');
    await waitFor(() => expect(document.activeElement).toBe(step3));
    expect(screen.getByText(/we will send a temporary password/)).toBeTruthy();
    expect(JSON.parse(calls[1]?.body ?? '')).toEqual({
      userId: 'alice',
      locale: 'en_US',
      cobrandName: 'acme',
      securityQuestion: { questionId: 'q1', questionResponse: 'Springfield' },
      securityQuestionSTO: { questionId: 'q1', questionText: 'In what city were you born?' },
    });
    fireEvent.click(button);
    expect(here()).toBe(SIGNIN_URL);
  });

  it('requires the user ID and the answer ("is required"), without calling the server', async () => {
    const { calls } = stubFetch({
      [QUESTION]: json({ questionId: 'q1', questionText: 'In what city were you born?' }),
    });
    renderWithPortal(<ForgotPasswordScreen />);
    fireEvent.click(submit());
    const userId = screen.getByLabelText('User ID');
    expect(userId.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(userId)).toBe('User ID is required');
    expect(document.activeElement).toBe(userId);
    expect(calls).toHaveLength(0);

    const answer = await toQuestionStep();
    fireEvent.click(submit());
    expect(describedText(answer)).toBe('Your answer is required');
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['answer.wrong', 'The answer does not match our records.'],
    [
      'user.locked',
      'Your user ID is temporarily locked. Try again later or contact your program administrator.',
    ],
    [
      'forgot.firstLogin',
      'Forgot password cannot be used on your first login. Sign in with the password you were given.',
    ],
    ['request.tooLong', 'We could not process your request. Please try again later.'],
  ])('shows %s as our own text next to the answer and stays on the step', async (code, message) => {
    stubFetch({
      [QUESTION]: json({ questionId: 'q1', questionText: 'In what city were you born?' }),
      [FORGOT]: serviceError(code),
    });
    renderWithPortal(<ForgotPasswordScreen />);
    const answer = await toQuestionStep();
    fireEvent.change(answer, { target: { value: 'Nowhere' } });
    fireEvent.click(submit());
    await waitFor(() => expect(describedText(answer)).toBe(message));
    expect(answer.getAttribute('aria-invalid')).toBe('true');
    expect(document.body.textContent).not.toContain('Server English text');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
      'Step 2 of 3: Answer your security question',
    );
    await waitFor(() => expect(document.activeElement).toBe(answer));
    expect(submit().disabled).toBe(false);
  });

  it('keeps the user ID step with a generic error when the question call fails', async () => {
    stubFetch({ [QUESTION]: serviceError('userId.tooLong', 'userId is too long') });
    renderWithPortal(<ForgotPasswordScreen />);
    fireEvent.change(screen.getByLabelText('User ID'), { target: { value: 'bob' } });
    fireEvent.click(submit());
    const userId = screen.getByLabelText('User ID');
    await waitFor(() =>
      expect(describedText(userId)).toBe('We could not process your request. Please try again later.'),
    );
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 1 of 3: Identify yourself');
  });

  it('cancel returns to the co-brand sign-in screen, keeping cobrandHost and locale', async () => {
    stubFetch({ [QUESTION]: json({ questionId: 'q1', questionText: 'In what city were you born?' }) });
    renderWithPortal(<ForgotPasswordScreen />);
    await toQuestionStep();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(here()).toBe(SIGNIN_URL);
  });
});
