import { describe, expect, it } from 'vitest';
import { isAllowedExternalTarget, isHttpsUrl, isSameOriginPath, relFor } from './urls.ts';

describe('url checks', () => {
  const origin = 'https://portal.example';
  it('accepts only same-origin paths', () => {
    expect(isSameOriginPath('/heracles/logout', origin)).toBe(true);
    for (const bad of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '',
    ]) {
      expect(isSameOriginPath(bad, origin)).toBe(false);
    }
  });
  it('accepts https URLs only', () => {
    expect(isHttpsUrl('https://bank.example/sso')).toBe(true);
    expect(isHttpsUrl('http://bank.example/sso')).toBe(false);
    expect(isHttpsUrl('https://bank.example/a b')).toBe(false);
    expect(isAllowedExternalTarget('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternalTarget(null)).toBe(false);
  });
  it('adds noopener noreferrer to https links only', () => {
    expect(relFor('https://bank.example/privacy')).toBe('noopener noreferrer');
    expect(relFor('/privacy')).toBeUndefined();
  });
});
