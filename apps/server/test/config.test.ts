import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

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

  it('turns demo data off by default with DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' }).demo).toBe(false);
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

  it('marks https public URLs secure', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://cards.bank.example' }).secure).toBe(true);
  });
});
