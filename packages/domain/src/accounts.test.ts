import { describe, expect, it } from 'vitest';
import { checkAccountStatusChange, isLastFourSearch } from './api/accounts.ts';

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
