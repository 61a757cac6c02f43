import { describe, expect, it } from 'vitest';
import { makeT } from './text.ts';

describe('makeT', () => {
  it('substitutes placeholders and renders a missing key empty', () => {
    const t = makeT({ a: '{0} and {1}' });
    expect(t('a', 'x', 'y')).toBe('x and y');
    expect(t('missing')).toBe('');
  });
});
