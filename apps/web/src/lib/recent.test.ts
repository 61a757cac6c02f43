import { afterEach, describe, expect, it } from 'vitest';
import { RECENT_MAX, readRecent, rememberRecent } from './recent.ts';

afterEach(() => localStorage.clear());

describe('recently viewed', () => {
  it('keeps the newest first, without duplicates, at most 10, per user', () => {
    for (let i = 0; i < 12; i++) rememberRecent('Admin01', { kind: 'user', id: `u${i}`, label: `User ${i}` });
    rememberRecent('admin01', { kind: 'user', id: 'u5', label: 'User 5' });
    const list = readRecent('admin01');
    expect(list).toHaveLength(RECENT_MAX);
    expect(list[0]?.id).toBe('u5');
    expect(list.filter((i) => i.id === 'u5')).toHaveLength(1);
    expect(readRecent('other')).toEqual([]);
  });

  it('stores only kind, id and label, and ignores damaged storage', () => {
    rememberRecent('a', { kind: 'user', id: 'x', label: 'X', secret: 'no' } as never);
    expect(JSON.parse(localStorage.getItem('cp.recent.a') ?? '')).toEqual([
      { kind: 'user', id: 'x', label: 'X' },
    ]);
    localStorage.setItem('cp.recent.b', '{not json');
    expect(readRecent('b')).toEqual([]);
  });
});
