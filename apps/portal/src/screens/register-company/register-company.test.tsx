import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { json, renderWithPortal, stubFetch } from '../../testing/portal.tsx';
import RegisterCompanyScreen, { applicationFailure } from './register-company-screen.tsx';

const APPLY = 'POST /sdportal/rest/registration/company';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

const input = (id: string) => document.getElementById(id) as HTMLInputElement;
const submit = () => document.getElementById('submit') as HTMLButtonElement;
function fill(values: Record<string, string>) {
  for (const [id, value] of Object.entries(values)) fireEvent.change(input(id), { target: { value } });
}
const VALID = {
  corporateCode: '46820135',
  companyName: 'Sur Logística S.L.',
  firstName: 'Inés',
  lastName: 'Sur',
  userId: 'inessur',
  email: 'ines@sur.example',
  emailConfirm: 'ines@sur.example',
};

beforeEach(() => {
  window.history.replaceState(
    null,
    '',
    '/sdportal/portalstatic/register-company?cobrandHost=acme&locale=en_US',
  );
  setCookie('sec-token=tok123; Path=/');
});
afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('RegisterCompanyScreen', () => {
  it('maps the answers: fields, the proof, the co-brand that does not offer it, anything else', () => {
    const error = (status: number, code: string, fieldErrors?: Record<string, string>) =>
      new ApiError(status, code, 'x', fieldErrors, '', { code, errors: [{ code, message: 'x' }] });
    expect(applicationFailure(error(409, 'userId.exists', { userId: 'userId.exists' }))).toEqual({
      kind: 'fields',
      fields: { userId: 'userId.exists' },
    });
    expect(applicationFailure(error(422, 'registration.notVerified'))).toMatchObject({
      message: 'validation.registration.notVerified',
    });
    expect(applicationFailure(error(403, 'registration.notOffered'))).toMatchObject({
      message: 'validation.registration.notOffered',
    });
    expect(applicationFailure(error(500, 'server.error'))).toMatchObject({
      message: 'register.error.generic',
    });
  });

  it('groups the company and its administrator, checks the rules first, the second name line optional', async () => {
    const { calls } = stubFetch({ [APPLY]: json({ ok: true }) });
    renderWithPortal(<RegisterCompanyScreen />);
    expect(screen.getByRole('group', { name: 'Your company' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'The program administrator' })).toBeTruthy();
    expect(input('companyName2').required).toBe(false);
    fill({ ...VALID, corporateCode: '12', firstName: '' });
    fireEvent.click(submit());
    const summary = document.getElementById('register-error') as HTMLElement;
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect([...summary.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '#corporateCode',
      '#firstName',
    ]);
    expect(calls).toHaveLength(0);

    fill(VALID);
    fireEvent.click(submit());
    const done = await screen.findByRole('heading', { name: 'Application sent' });
    await waitFor(() => expect(document.activeElement).toBe(done));
    expect(done.parentElement?.textContent).toContain('Sur Logística S.L.');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({
      code: '46820135',
      companyName: 'Sur Logística S.L.',
      companyName2: '',
      firstName: 'Inés',
      lastName: 'Sur',
      userId: 'inessur',
      email: 'ines@sur.example',
      emailConfirm: 'ines@sur.example',
      locale: 'en_US',
      cobrandName: 'acme',
    });
  });
});
