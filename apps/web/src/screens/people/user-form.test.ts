import { describe, expect, it } from 'vitest';
import { needsCompany, validateUser } from './user-form.ts';

const good = {
  userId: 'newuser01',
  firstName: 'New',
  lastName: 'User',
  email: 'new@example.com',
  emailConfirm: 'NEW@example.com',
  userType: 'A',
  companyId: '',
  locale: 'en_US',
};

describe('user form rules (packages/domain)', () => {
  it('accepts a valid new user', () => {
    expect(validateUser(good, { mode: 'create', caller: 'C' })).toEqual({});
  });

  it('answers the domain message keys', () => {
    expect(
      validateUser(
        { ...good, userId: 'ab', firstName: ' ', email: 'bad', emailConfirm: 'x' },
        { mode: 'create', caller: 'C' },
      ),
    ).toEqual({
      userId: 'userId.tooShort',
      firstName: 'firstName.required',
      email: 'email.format',
      emailConfirm: 'emailConfirm.mismatch',
    });
    expect(
      validateUser({ ...good, userId: '4111111111111111' }, { mode: 'create', caller: 'C' }).userId,
    ).toBe('userId.tooManyDigits');
  });

  it('needs the confirmation only when an edit changes the address', () => {
    const edit = { ...good, emailConfirm: '' };
    expect(validateUser(edit, { mode: 'edit', caller: 'C', originalEmail: 'New@Example.com' })).toEqual({});
    expect(
      validateUser(
        { ...edit, email: 'other@example.com' },
        { mode: 'edit', caller: 'C', originalEmail: 'new@example.com' },
      ),
    ).toEqual({ emailConfirm: 'emailConfirm.required' });
  });

  it('asks for a company only when the caller has none to default to', () => {
    expect(needsCompany('C', 'A')).toBe(false);
    expect(needsCompany('I', 'A')).toBe(true);
    expect(needsCompany('I', 'G')).toBe(false);
    expect(validateUser(good, { mode: 'create', caller: 'I' }).companyId).toBe('placement.companyIdRequired');
  });
});
