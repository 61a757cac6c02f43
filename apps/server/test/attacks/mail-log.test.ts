/**
 * Issue 13, item 3: the embedded default (NODE_ENV=production, demo data, no SMTP_URL) printed every
 * pending mail — one-time codes, temporary passwords — to the log, and again after each restart. Now
 * the log says only that a mail waits (id, kind, masked recipient) and how to read it (`npm run cli --
 * mail show ID`, cli.pglite.test.ts); no line at any level carries a code, a password or a mail's text.
 */
import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { mailOutbox } from '../../src/db/schema.ts';
import { DEMO_ANSWER } from '../../src/demo/load.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from '../harness.ts';

let ctx: TestContext;
let log = '';
const logStream = new Writable({
  write(chunk, _encoding, done) {
    log += chunk.toString();
    done();
  },
});
const restarted: FastifyInstance[] = [];

beforeAll(async () => {
  // The embedded default: production, demo data, no SMTP_URL, the production log level.
  ctx = await startTestApp({ NODE_ENV: 'production', DEMO: '1', LOG_LEVEL: 'info' }, { logStream });
  expect(ctx.config.smtpUrl).toBeUndefined();
  expect(ctx.config.demo).toBe(true);
});
afterAll(async () => {
  for (const app of restarted) await app.close();
  await ctx?.close();
});

const lines = () =>
  log
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: number; msg: string; [key: string]: unknown });

describe('secrets in the log (issue 13, item 3)', () => {
  it('logs no one-time code, temporary password or mail text, at any level, also after a restart', async () => {
    // A one-time code (otpuser01) and a temporary password (forgot password, the demo answer).
    const otp = new TestClient(ctx.app);
    expect((await otp.login('otpuser01', DEMO_PASSWORD)).body).toMatch(/\/otp\?/);
    const reset = await new TestClient(ctx.app).postJson(
      '/services/authentication-service/public/forgotPassword',
      {
        userId: 'active01',
        locale: 'en_US',
        securityQuestion: { questionId: 'q1', questionResponse: DEMO_ANSWER },
      },
    );
    expect(reset.statusCode).toBe(200);
    await ctx.app.mailWorker.runOnce();

    // What the mails carry (read from the outbox, as `mail show` does): the check below can fail.
    const mails = await ctx.app.db.select().from(mailOutbox);
    const otpMail = mails.find((m) => m.kind === 'otp');
    const resetMail = mails.find((m) => m.kind === 'temporary-password');
    const code = /\b(\d{6})\b/.exec(otpMail?.body ?? '')?.[1] ?? '';
    const temporary =
      /(\S{14})\s*$/m.exec(resetMail?.body.split('\n').find((l) => /temporary/i.test(l)) ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(temporary).toHaveLength(14);

    // A restart (a new app on the same database, its worker knowing nothing of the last one's), at the
    // most verbose level the product accepts.
    await ctx.app.close();
    const again = await buildApp({ ...ctx.config, logLevel: 'trace' }, ctx.services);
    restarted.push(again);
    await again.ready();
    await again.mailWorker.runOnce();
    // Trace-level request lines too, and the code used (the failure path logs as well).
    expect((await new TestClient(again).get('/healthz')).statusCode).toBe(200);
    const wrong = new TestClient(again);
    await wrong.login('otpuser01', DEMO_PASSWORD);
    await wrong.login('otpuser01', code, { 'login-form-type': 'otp' });

    const logged = lines();
    expect(logged.some((l) => l.level <= 20)).toBe(true); // trace/debug lines were written
    // Nothing secret on any line: not the code, not the temporary password, no mail's text or subject.
    // (The code as a number of its own: six digits also occur inside times and durations.)
    expect(log).not.toMatch(new RegExp(`(?<![0-9])${code}(?![0-9])`));
    for (const secret of [temporary, DEMO_PASSWORD, DEMO_ANSWER]) expect(log).not.toContain(secret);
    for (const mail of [otpMail, resetMail]) {
      for (const text of mail?.body.split('\n').filter((l) => l.trim().length > 20) ?? []) {
        expect(log).not.toContain(text.trim());
      }
      expect(log).not.toContain(mail?.subject);
      expect(log).not.toContain(mail?.recipient);
    }
    // Each waiting mail is announced, before and after the restart: id, kind, masked recipient, how to read it.
    for (const mail of [otpMail, resetMail]) {
      const notices = logged.filter((l) => l.mailId === mail?.id);
      expect(notices).toHaveLength(2);
      for (const notice of notices) {
        expect(notice.msg).toBe(
          `mail ${mail?.id} kept in the outbox (no SMTP_URL): read it with npm run cli -- mail show ${mail?.id}`,
        );
        expect(notice.to).toMatch(/^\w\*\*\*@example\.com$/);
        expect(Object.keys(notice).sort()).toEqual([
          'hostname',
          'kind',
          'level',
          'mailId',
          'msg',
          'pid',
          'time',
          'to',
        ]);
      }
    }
  });

  it('logs an error carrying a query and its parameters without the parameters', async () => {
    const [app] = restarted;
    const from = log.length;
    const error = new DrizzleQueryError(
      'update users set password_hash = $1 where id = $2',
      ['$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$not-a-real-hash', 42],
      undefined as unknown as Error,
    );
    app?.log.error({ err: error }, 'a failure');
    app?.log.error({ err: new Error('wrapped', { cause: error }) }, 'a wrapped failure');
    const written = log.slice(from);
    expect(written).toContain('"msg":"a failure"');
    expect(written).toContain('"msg":"a wrapped failure"');
    expect(written).toContain('update users set password_hash = $1');
    expect(written).not.toContain('argon2id');
    expect(written).not.toContain('not-a-real-hash');
  });
});
