import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

/** Production outside the demo needs the card keys (docs/card-data.md). */
const CARD_KEYS = {
  CARD_DATA_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
  CARD_HASH_KEY: Buffer.alloc(32, 2).toString('base64'),
};

describe('configuration (DESIGN §3)', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.demo).toBe(true);
    expect(c.rateLimits).toBe(true);
    expect(c.sessionWarningMs).toBe(220_000);
    expect(c.sessionIdleMs).toBe(300_000);
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
    expect(c.secure).toBe(false);
  });

  it('runs one process per core with PostgreSQL and Redis, one otherwise; refuses workers that could not share', () => {
    const cores = availableParallelism();
    const pg = { DATABASE_URL: 'postgres://x@localhost/db', DEMO: '1' };
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig(pg).workers).toBe(1);
    expect(loadConfig({ ...pg, REDIS_URL: 'redis://localhost' })).toMatchObject({
      workers: cores,
      hashThreads: 1,
    });
    expect(loadConfig({ ...pg, REDIS_URL: 'redis://localhost', WORKERS: '1' })).toMatchObject({
      workers: 1,
      hashThreads: cores,
    });
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/WORKERS must be 1 with the embedded database/);
    expect(() => loadConfig({ ...pg, WORKERS: '2' })).toThrow(/WORKERS above 1 needs REDIS_URL/);
    for (const bad of ['0', '65', 'two', '1.5'])
      expect(() => loadConfig({ WORKERS: bad })).toThrow(/WORKERS/);
  });

  it('turns demo data off by default with DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db', ...CARD_KEYS }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db', DEMO: '1' }).demo).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'not a url'],
    ['SMTP_URL', 'http://mail'],
    ['PUBLIC_URL', 'ftp://x'],
    ['RATE_LIMITS', 'sometimes'],
    ['SESSION_WARNING_MS', '-5'],
    ['NODE_ENV', 'staging'],
    ['DEMO', 'maybe'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      expect((error as Error).message).toContain(name);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('refuses demo data on a non-loopback HOST in production unless DEMO_PUBLIC=1', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '128.0.0.1', 'cards.example.com']) {
      const env = { HOST: host };
      expect(() => loadConfig(env), host).toThrow(ConfigError);
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as Error).message).toContain('DEMO_PUBLIC');
        expect((error as Error).message).toContain(`HOST ${host}`);
        expect((error as Error).message).not.toContain('\n');
      }
      // Told explicitly; or no demo data; or not production.
      expect(loadConfig({ ...env, DEMO_PUBLIC: '1' }).demo).toBe(true);
      expect(loadConfig({ ...env, DEMO: '0', ...CARD_KEYS }).demo).toBe(false);
      expect(loadConfig({ ...env, NODE_ENV: 'development' }).host).toBe(host);
    }
    for (const host of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      'localhost',
      'LOCALHOST',
    ]) {
      expect(loadConfig({ HOST: host }).demo, host).toBe(true);
    }
    expect(() => loadConfig({ HOST: '0.0.0.0', DEMO_PUBLIC: 'perhaps' })).toThrow(/DEMO_PUBLIC/);
    // With DATABASE_URL, demo data is off by default: any HOST.
    expect(
      loadConfig({ HOST: '0.0.0.0', DATABASE_URL: 'postgres://x@localhost/db', ...CARD_KEYS }).demo,
    ).toBe(false);
  });

  it('marks https public URLs secure', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://cards.bank.example' }).secure).toBe(true);
  });
});
