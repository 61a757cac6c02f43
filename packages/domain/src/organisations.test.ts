import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits.ts';
import {
  accountGroupSchema,
  accountSchema,
  cardholderSchema,
  companyGroupSchema,
  companySchema,
  issuerGroupSchema,
  issuerSchema,
  maskAccountNumber,
  orgPointSchema,
  toFieldErrors,
} from './organisations.ts';
import {
  isFeatureEnabled,
  isOfferedProgramOption,
  isProgramOptionKey,
  OFFERED_PROGRAM_OPTION_KEYS,
  PROGRAM_OPTION_KEYS,
  singleSignOnConflict,
} from './program-options.ts';

/** Field errors of a parse, or {} when it passes. */
function errors(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? {} : toFieldErrors(result.error as never);
}

const KEY = /^[a-zA-Z]+(\.[a-zA-Z0-9]+)+$/;

describe('issuer', () => {
  const good = { number: '1001', name1: 'Cardportal Demo Bank', ica: '12345', bankNumber: '0042' };
  it('accepts a complete issuer and trims it', () => {
    expect(issuerSchema.parse({ ...good, name1: '  Cardportal Demo Bank ' })).toEqual({ ...good, name2: '' });
  });
  it('names each bad field with a key', () => {
    expect(errors(issuerSchema, {})).toEqual({
      number: 'issuer.number.required',
      name1: 'issuer.name1.required',
      ica: 'issuer.ica.required',
      bankNumber: 'issuer.bankNumber.required',
    });
    expect(
      errors(issuerSchema, {
        ...good,
        number: '10a1',
        name1: 'x'.repeat(LIMITS.orgNameMaxLength + 1),
        name2: '<b>Bank</b>',
        ica: '1'.repeat(LIMITS.icaMaxDigits + 1),
        bankNumber: ' ',
      }),
    ).toEqual({
      number: 'issuer.number.format',
      name1: 'issuer.name1.tooLong',
      name2: 'issuer.name2.invalidCharacters',
      ica: 'issuer.ica.tooLong',
      bankNumber: 'issuer.bankNumber.required',
    });
    expect(errors(issuerSchema, null)).toEqual({ form: 'form.invalid' });
    expect(errors(issuerSchema, { ...good, number: 1001 })).toEqual({ number: 'issuer.number.required' });
  });
});

describe('company, groups and cardholder', () => {
  it('validate names and numbers', () => {
    expect(companySchema.parse({ number: '100001', name1: 'Acme', groupName: 'Demo group' })).toEqual({
      number: '100001',
      name1: 'Acme',
      name2: '',
      groupName: 'Demo group',
    });
    expect(errors(companySchema, { number: '', name1: '' })).toEqual({
      number: 'company.number.required',
      name1: 'company.name1.required',
    });
    expect(errors(companyGroupSchema, { name: '' })).toEqual({ name: 'companyGroup.name.required' });
    expect(errors(issuerGroupSchema, { name: 'a\u0000b' })).toEqual({
      name: 'issuerGroup.name.invalidCharacters',
    });
    expect(errors(accountGroupSchema, { name: 'Travel' })).toEqual({});
    expect(errors(cardholderSchema, { name1: 'Ada', name2: 'x'.repeat(41) })).toEqual({
      name2: 'cardholder.name2.tooLong',
    });
  });
});

describe('org point', () => {
  const top = { number: 'A000', name1: 'Head office', reportingLevel: 1 };
  it('accepts a top org point and a child; reporting level may come as text (upload)', () => {
    expect(orgPointSchema.parse(top)).toEqual({ ...top, name2: '', reportsTo: null });
    expect(
      orgPointSchema.parse({ ...top, number: 'A100', reportingLevel: '2', reportsTo: 'A000' }),
    ).toMatchObject({
      reportingLevel: 2,
      reportsTo: 'A000',
    });
  });
  it('refuses a bad number, level or reports-to', () => {
    expect(errors(orgPointSchema, { ...top, number: 'A 1' })).toEqual({ number: 'orgPoint.number.format' });
    expect(errors(orgPointSchema, { ...top, reportingLevel: 0 })).toEqual({
      reportingLevel: 'orgPoint.reportingLevel.outOfRange',
    });
    expect(errors(orgPointSchema, { ...top, reportingLevel: 1.5 })).toEqual({
      reportingLevel: 'orgPoint.reportingLevel.format',
    });
    expect(errors(orgPointSchema, { ...top, reportingLevel: 2 })).toEqual({
      reportsTo: 'orgPoint.reportsTo.required',
    });
    expect(errors(orgPointSchema, { ...top, reportsTo: 'B000' })).toEqual({
      reportsTo: 'orgPoint.reportsTo.topLevelHasNone',
    });
    expect(errors(orgPointSchema, { ...top, reportingLevel: 2, reportsTo: 'a000' })).toEqual({
      reportsTo: 'orgPoint.reportsTo.self',
    });
  });
});

describe('account', () => {
  it('takes 12 to 19 digits, dropping spaces and dashes', () => {
    expect(accountSchema.parse({ number: '5424 1800 0000 0005' })).toEqual({
      number: '5424180000000005',
      groupName: '',
      status: 'Active',
    });
    expect(errors(accountSchema, { number: '12345678901' })).toEqual({ number: 'account.number.format' });
    expect(errors(accountSchema, { number: '1'.repeat(20) })).toEqual({ number: 'account.number.format' });
    expect(errors(accountSchema, { number: '' })).toEqual({ number: 'account.number.required' });
    expect(errors(accountSchema, { number: '123456789012', status: 'Gone' })).toEqual({
      status: 'account.status.invalid',
    });
  });
  it('masks all but the BIN and the last four', () => {
    expect(maskAccountNumber('5424180000000005')).toBe('542418******0005');
    expect(maskAccountNumber('5424-1800-0000-0005', { showBin: false })).toBe('************0005');
    expect(maskAccountNumber('123456789012')).toBe('123456**9012');
    expect(maskAccountNumber('12345')).toBe('*****');
  });
  it('never shows more than 10 digits of any number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{12,19}$/), fc.boolean(), (number, showBin) => {
        const masked = maskAccountNumber(number, { showBin });
        expect(masked).toHaveLength(number.length);
        expect(masked.replace(/\*/g, '').length).toBeLessThanOrEqual(showBin ? 10 : 4);
        expect(masked.slice(-4)).toBe(number.slice(-4));
      }),
    );
  });
});

describe('every schema answers message keys only', () => {
  const schemas = [
    issuerSchema,
    issuerGroupSchema,
    companySchema,
    companyGroupSchema,
    orgPointSchema,
    accountGroupSchema,
    accountSchema,
    cardholderSchema,
  ];
  it('whatever the input', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...schemas),
        fc.anything(),
        fc.dictionary(fc.string(), fc.anything()),
        (s, a, d) => {
          for (const value of [a, d]) {
            for (const message of Object.values(errors(s, value))) expect(message).toMatch(KEY);
          }
        },
      ),
    );
  });
});

describe('program options', () => {
  it('an issuer switches a feature off for all its companies; a company may switch it off again', () => {
    expect(isFeatureEnabled('twoFactor', {}, { twoFactor: true })).toBe(false);
    expect(isFeatureEnabled('twoFactor', { twoFactor: true })).toBe(true);
    expect(isFeatureEnabled('twoFactor', { twoFactor: true }, { twoFactor: false })).toBe(false);
    expect(isFeatureEnabled('twoFactor', { twoFactor: false }, { twoFactor: true })).toBe(false);
    expect(PROGRAM_OPTION_KEYS.every(isProgramOptionKey)).toBe(true);
    expect(isProgramOptionKey('multiUser')).toBe(false);
  });

  it('offers only the options whose feature exists; the others are off whatever is stored', () => {
    expect([...OFFERED_PROGRAM_OPTION_KEYS]).toEqual([
      'twoFactor',
      'singleSignOn',
      'selfRegistration',
      'accessAsUser',
      'reportingStructureUpload',
      'disputes',
      'transactionApproval',
    ]);
    for (const key of PROGRAM_OPTION_KEYS.filter((k) => !isOfferedProgramOption(k))) {
      expect(isFeatureEnabled(key, { [key]: true }, { [key]: true }), key).toBe(false);
    }
  });

  it('never lets single sign-on combine with self-registration or multi-user (seed 001 §6)', () => {
    const on = { singleSignOn: true, selfRegistration: false, multiUser: false };
    expect(singleSignOnConflict(on)).toBeUndefined();
    expect(singleSignOnConflict({ ...on, selfRegistration: true })).toBe(
      'programOption.ssoWithSelfRegistration',
    );
    expect(singleSignOnConflict({ ...on, multiUser: true })).toBe('programOption.ssoWithMultiUser');
    expect(
      singleSignOnConflict({ singleSignOn: false, selfRegistration: true, multiUser: true }),
    ).toBeUndefined();
  });
});
