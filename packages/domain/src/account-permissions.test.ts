import { describe, expect, it } from 'vitest';
import { checkAccountStatusChange, isLastFourSearch } from './api/accounts.ts';
import { type AccountAction, isAccountDataReadOnly, mayOnAccounts } from './org-permissions.ts';
import { USER_TYPE_CODES, type UserType } from './user-types.ts';

/** The decision table of docs/authorization.md, "Accounts and cardholders". */
const TABLE: Record<AccountAction, string> = {
  viewAccounts: 'ZHIGCOSA',
  maintainAccounts: 'HIGC',
  viewAccountGroups: 'ZHIGCOS',
  maintainAccountGroups: 'HIGC',
};

describe('mayOnAccounts', () => {
  for (const [action, types] of Object.entries(TABLE) as [AccountAction, string][]) {
    it(`${action}: ${types}`, () => {
      const allowed = USER_TYPE_CODES.filter((t: UserType) => mayOnAccounts(t, action)).join('');
      expect([...allowed].sort().join('')).toBe([...types].sort().join(''));
    });
  }

  it('a system administrator reads company data only', () => {
    expect(isAccountDataReadOnly('Z')).toBe(true);
    expect(mayOnAccounts('Z', 'viewAccounts')).toBe(true);
    expect(mayOnAccounts('Z', 'maintainAccounts')).toBe(false);
    for (const t of USER_TYPE_CODES.filter((c) => c !== 'Z')) expect(isAccountDataReadOnly(t)).toBe(false);
  });

  it('managers and cardholders maintain nothing', () => {
    for (const t of ['O', 'S', 'A'] as const) {
      expect(mayOnAccounts(t, 'maintainAccounts')).toBe(false);
      expect(mayOnAccounts(t, 'maintainAccountGroups')).toBe(false);
    }
    expect(mayOnAccounts('A', 'viewAccountGroups')).toBe(false);
  });
});

describe('checkAccountStatusChange', () => {
  it('Active and Suspended go both ways and to Closed', () => {
    expect(checkAccountStatusChange('Active', 'Suspended')).toBeUndefined();
    expect(checkAccountStatusChange('Suspended', 'Active')).toBeUndefined();
    expect(checkAccountStatusChange('Active', 'Closed')).toBeUndefined();
    expect(checkAccountStatusChange('Suspended', 'Closed')).toBeUndefined();
  });
  it('Closed is final', () => {
    expect(checkAccountStatusChange('Closed', 'Active')).toBe('account.status.closedIsFinal');
    expect(checkAccountStatusChange('Closed', 'Suspended')).toBe('account.status.closedIsFinal');
    expect(checkAccountStatusChange('Closed', 'Closed')).toBeUndefined();
  });
});

describe('isLastFourSearch', () => {
  it('is exactly four digits', () => {
    expect(isLastFourSearch('1234')).toBe(true);
    expect(isLastFourSearch(' 1234 ')).toBe(true);
    expect(isLastFourSearch('123')).toBe(false);
    expect(isLastFourSearch('12345')).toBe(false);
    expect(isLastFourSearch('ab12')).toBe(false);
  });
});

describe('checkAuditRange (the audit screen)', () => {
  it('accepts empty and valid ranges of at most 30 days', async () => {
    const { checkAuditRange } = await import('./api/audit.ts');
    expect(checkAuditRange('', '')).toEqual({});
    expect(checkAuditRange('2026-11-01', '')).toEqual({});
    expect(checkAuditRange('2026-11-01', '2026-11-30')).toEqual({});
    expect(checkAuditRange('2026-11-01', '2026-12-01')).toEqual({ to: 'audit.rangeTooLong' });
    expect(checkAuditRange('2026-11-02', '2026-11-01')).toEqual({ from: 'dateRange.fromAfterTo' });
    expect(checkAuditRange('2026-02-30', '')).toEqual({ from: 'date.invalid' });
  });
});
