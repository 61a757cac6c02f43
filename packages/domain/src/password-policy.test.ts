import { describe, expect, it } from 'vitest';
import { checkIssuerPasswordPolicy, DEFAULT_PASSWORD_POLICY } from './api/issuers.ts';
import { LIMITS } from './limits.ts';
import { checkPasswordConstruction, effectiveMinLength } from './password.ts';

describe("an issuer's password settings (seed 001 §5)", () => {
  it('takes the minimum length as a parameter, never below the default of 12', () => {
    expect(checkPasswordConstruction('Brand-new-pw14')).toEqual([]);
    expect(checkPasswordConstruction('Brand-new-pw14', '', 16)).toEqual(['tooShort']);
    expect(checkPasswordConstruction('Brand-new-pw-16ch', '', 16)).toEqual([]);
    // A minimum under the default (or not a whole number) is the default: 11 characters stay too short.
    expect(checkPasswordConstruction('Brand-new-1', '', 8)).toEqual(['tooShort']);
    expect(effectiveMinLength(8)).toBe(LIMITS.passwordMinLength);
    expect(effectiveMinLength(Number.NaN)).toBe(LIMITS.passwordMinLength);
    expect(effectiveMinLength(25)).toBe(LIMITS.passwordMaxLength);
  });

  it('accepts 12..20 characters and 30..90 days, and names each setting out of range', () => {
    expect(DEFAULT_PASSWORD_POLICY).toEqual({ passwordMinLength: 12, passwordDurationDays: 90 });
    for (let n = 12; n <= 20; n++) expect(checkIssuerPasswordPolicy({ passwordMinLength: n })).toEqual({});
    for (let d = 30; d <= 90; d++) expect(checkIssuerPasswordPolicy({ passwordDurationDays: d })).toEqual({});
    for (const n of [11, 21, 12.5, Number.NaN]) {
      expect(checkIssuerPasswordPolicy({ passwordMinLength: n })).toEqual({
        passwordMinLength: 'issuer.passwordMinLength.range',
      });
    }
    for (const d of [29, 91]) {
      expect(checkIssuerPasswordPolicy({ passwordDurationDays: d })).toEqual({
        passwordDurationDays: 'issuer.passwordDurationDays.range',
      });
    }
  });
});
