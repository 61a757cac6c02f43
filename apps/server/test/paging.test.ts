import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CursorError, decodeCursor, encodeCursor, type KeyPart } from '../src/kernel/paging.ts';

/** The kernel's cursor (kernel/paging.ts): what it carries back, and everything it refuses with a 400. */
const keys: KeyPart[] = [
  { expr: sql`at`, type: 'timestamptz' },
  { expr: sql`name`, type: 'text' },
  { expr: sql`id`, type: 'int' },
];
const list = { list: 'things', keys };
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('keyset cursor', () => {
  it('round-trips the key values, microseconds and any text included', () => {
    const values = ['2026-11-24 21:59:18.123456+00', 'Ünïcödé "quoted", (comma)', 42];
    // Offsets PostgreSQL writes for other time zones, and a leap day.
    for (const at of ['2024-02-29 23:59:59+05:30', '2026-11-24 08:00:00-03', '2026-11-24 08:00:00.5Z'])
      expect(decodeCursor(list, encodeCursor('things', [at, 'a', 1]), 'after')[0]).toBe(at);
    const cursor = encodeCursor('things', values);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(list, cursor, 'after')).toEqual(values);
  });

  it('refuses a cursor it cannot read, naming the parameter, as a 400', () => {
    const refused = [
      '',
      'not base64 at all!',
      'x'.repeat(2000),
      b64('not json'),
      b64('[1,2,3]'),
      b64('{"l":"things","k":[]}'),
      b64('{"l":"others","k":["2026-11-24 21:59:18+00","a",1]}'),
      b64('{"l":"things","k":["2026-11-24 21:59:18+00","a"]}'),
      b64('{"l":"things","k":["2026-11-24 21:59:18+00","a",1,2]}'),
      b64('{"l":"things","k":["yesterday","a",1]}'),
      // Of the right shape, but no time PostgreSQL can cast (its error would be a 5xx).
      b64('{"l":"things","k":["2026-02-30 00:00:00+00","a",1]}'),
      b64('{"l":"things","k":["2026-13-01 00:00:00+00","a",1]}'),
      b64('{"l":"things","k":["2026-11-24 24:00:00+00","a",1]}'),
      b64('{"l":"things","k":["2026-11-24 23:59:60+00","a",1]}'),
      b64('{"l":"things","k":["2026-11-24 21:59:18+99","a",1]}'),
      b64('{"l":"things","k":["0000-01-01 00:00:00+00","a",1]}'),
      b64('{"l":"things","k":["2026-11-24 21:59:18+00",7,1]}'),
      b64('{"l":"things","k":["2026-11-24 21:59:18+00","a","1"]}'),
      b64('{"l":"things","k":["2026-11-24 21:59:18+00","a",1.5]}'),
      b64('{"l":"things","k":["2026-11-24 21:59:18+00","a",1e300]}'),
      b64('{"l":"things","k":["2026-11-24 21:59:18+00","a",1],"extra":true}'),
      b64(`{"l":"things","k":["2026-11-24 21:59:18+00","${'a'.repeat(500)}",1]}`),
    ];
    for (const cursor of refused) {
      let thrown: unknown;
      try {
        decodeCursor(list, cursor, 'before');
      } catch (error) {
        thrown = error;
      }
      expect(thrown, cursor).toBeInstanceOf(CursorError);
      expect((thrown as CursorError).status).toBe(400);
      expect((thrown as CursorError).fieldErrors).toEqual({ before: 'page.cursorInvalid' });
    }
  });
});
