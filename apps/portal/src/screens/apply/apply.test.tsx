import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { json, renderWithPortal, stubFetch } from '../../testing/portal.tsx';
import ApplyScreen, { applyFailure } from './apply-screen.tsx';

const APPLY = 'POST /sdportal/rest/registration/card-application';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}
const input = (id: string) => document.getElementById(id) as HTMLInputElement;
function fill(values: Record<string, string>) {
  for (const [id, value] of Object.entries(values)) fireEvent.change(input(id), { target: { value } });
}
const submit = () => document.getElementById('submit') as HTMLButtonElement;

beforeEach(() => {
  window.history.replaceState(null, '', '/sdportal/portalstatic/apply?cobrandHost=acme&locale=en_US');
  setCookie('sec-token=tok123; Path=/');
});
afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('ApplyScreen', () => {
  it('maps the answers: an unknown code, a pending application, the co-brand that does not offer it', () => {
    const error = (status: number, code: string) =>
      new ApiError(status, code, 'x', undefined, '', { code, errors: [{ code, message: 'x' }] });
    expect(applyFailure(error(422, 'application.notVerified'))).toMatchObject({
      message: 'validation.application.notVerified',
    });
    expect(applyFailure(error(409, 'application.pending'))).toMatchObject({
      message: 'validation.application.pending',
    });
    expect(applyFailure(error(403, 'application.notOffered'))).toMatchObject({
      message: 'validation.application.notOffered',
    });
  });

  it('sends the code and the applicant, the reason optional, and confirms with the address', async () => {
    const { calls } = stubFetch({ [APPLY]: json({ ok: true }) });
    renderWithPortal(<ApplyScreen />);
    expect(input('reason').required).toBe(false);
    fill({ companyCode: '123', firstName: 'Pablo', lastName: 'Ortega', email: 'p@example.com' });
    fireEvent.click(submit());
    const summary = document.getElementById('register-error') as HTMLElement;
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect([...summary.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '#companyCode',
      '#emailConfirm',
    ]);
    fill({ companyCode: '20260001', emailConfirm: 'p@example.com' });
    fireEvent.click(submit());
    const done = await screen.findByRole('heading', { name: 'Application sent' });
    await waitFor(() => expect(document.activeElement).toBe(done));
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({
      companyCode: '20260001',
      firstName: 'Pablo',
      lastName: 'Ortega',
      email: 'p@example.com',
      emailConfirm: 'p@example.com',
      reason: '',
      locale: 'en_US',
      cobrandName: 'acme',
    });
  });
});
