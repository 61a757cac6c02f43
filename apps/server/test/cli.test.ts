import type { ParseArgsOptionsConfig } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, USAGE } from '../src/commands.ts';
import { accounts, auditEvents, issuers } from '../src/db/schema.ts';
import { parseCommandArgs } from '../src/kernel/cli.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { runCliCapturing } from './support/cli.ts';

/**
 * The admin CLI of DESIGN §3, in-process (runCli, commands.ts) on a test database of its own: the same
 * parsing, commands and exit codes as `npm run cli`, without a process and a compile per command. What
 * only a process of its own shows (a new data directory, the running server's socket) is in
 * cli-process.pglite.test.ts.
 */
const cli = runCliCapturing;

describe('admin CLI', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  /** The CLI in-process, on this test's database (demo data loaded: `user create`'s default company). */
  const cp = (...args: string[]) =>
    cli(args, {
      env: { NODE_ENV: 'test', DATA_DIR: ctx.config.dataDir, DEMO: '1' },
      database: ctx.services.database,
    });

  it('issues a card account to a cardholder, sealed at rest and printed masked (DESIGN §7)', async () => {
    const issued = await cp('account', 'create', '--user-id', 'active01', '--number', '4000 0012 3456 7899');
    expect(issued.stderr).toBe('');
    expect(issued.code).toBe(0);
    expect(issued.stdout).toBe('issued card account 400000******7899 to active01\n');
    const db = ctx.services.database.db;
    const [row] = await db.select().from(accounts).where(eq(accounts.last4, '7899'));
    expect(row).toMatchObject({ number: null, bin: '400000', numberLength: 16, status: 'Active' });
    expect(ctx.services.secrets.cards.open(row?.numberCipher ?? '', row?.numberHash ?? '')).toBe(
      '4000001234567899',
    );
    const events = await db.select().from(auditEvents).where(eq(auditEvents.event, 'account.issued'));
    expect(JSON.stringify(events)).toContain('400000******7899');
    expect(JSON.stringify(events)).not.toContain('4000001234567899');

    // The same number again, a wrong check digit, a non-cardholder: refused (exit 2), nothing written.
    const again = await cp('account', 'create', '--user-id', 'active01', '--number', '4000001234567899');
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/already been issued/)]);
    const luhn = await cp('account', 'create', '--user-id', 'active01', '--number', '4000001234567898');
    expect([luhn.code, luhn.stderr]).toEqual([2, expect.stringMatching(/check digit/)]);
    const admin = await cp('account', 'create', '--user-id', 'admin01', '--number', '4000001234567881');
    expect([admin.code, admin.stderr]).toEqual([2, expect.stringMatching(/no cardholder user: admin01/)]);
    // Outside the issuer's card BINs, once it lists some.
    await db.update(issuers).set({ cardBins: '542418' }).where(eq(issuers.number, '1001'));
    const bin = await cp('account', 'create', '--user-id', 'active01', '--number', '4000001234567881');
    await db.update(issuers).set({ cardBins: '' }).where(eq(issuers.number, '1001'));
    expect([bin.code, bin.stderr]).toEqual([2, expect.stringMatching(/card BINs/)]);
    expect(await db.select().from(accounts).where(eq(accounts.bin, '400000'))).toHaveLength(1);
    // No output anywhere carries the full number.
    for (const r of [issued, again, luhn, admin, bin])
      expect(r.stdout + r.stderr).not.toContain('4000001234567899');
  });

  it('creates, shows, unlocks a user and assigns a token', async () => {
    expect((await cp('db', 'init')).stdout).toMatch(/^database ready \((pglite|postgres)\)\n$/);
    const created = await cp(
      'user',
      'create',
      '--user-id',
      'cliuser01',
      '--email',
      'cli@example.com',
      '--password',
      'Cli-password-2026',
      '--login-type',
      'token',
      '--question',
      'q2',
      '--answer',
      'Rexthedog',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(
      /created user cliuser01 \(ldap id ldap-[A-Za-z0-9]{16}\), type A, company 100001/,
    );

    const shown = await cp('user', 'show', 'CLIUSER01');
    expect(shown.code).toBe(0);
    const user = JSON.parse(shown.stdout);
    expect(user).toMatchObject({
      userId: 'cliuser01',
      loginType: 'token',
      status: 'Active',
      email: 'cli@example.com',
      userType: 'A',
    });
    // A cardholder of the first demo company, with a cardholder record of its own.
    expect(user.companyId).toEqual(expect.any(Number));
    expect(user.cardholderId).toEqual(expect.any(Number));
    expect(shown.stdout).not.toMatch(/passwordHash|argon2/);

    const token = await cp('token', 'assign', '--user-id', 'cliuser01');
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(
      /otpauth:\/\/totp\/[^\s]*\?[^\s]*secret=[A-Z2-7]+[^\s]*digits=8[^\s]*period=60/,
    );
    expect(token.stdout).toMatch(/default PIN: [1-9]\d{3}/);

    const unlocked = await cp('user', 'unlock', 'cliuser01');
    expect(unlocked.stdout).toContain('is Active');
    // db init loads the demo data (argon2 hashes of every demo user): slow on a loaded machine.
  }, 180_000);

  it('lists issuers and companies with their numbers', async () => {
    const listed = await cp('org', 'list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^issuer\t1001\tCardportal Demo Bank\tICA 12345\tbank 0042\tgroup Cardportal Demo Banking Group\tactive$/,
    );
    expect(listed.stdout).toMatch(
      /^ {2}company\t100001\tAcme Industries\tgroup Demo Manufacturing Group\tmulti-user\tactive$/m,
    );
    expect(listed.stdout).toMatch(/^ {2}company\t100002\tBorealis Logistics\t.*\tsingle-user\t/m);
    expect(listed.stdout).toMatch(/^issuer\t2001\tBanco Norte Demo\t/m);
    expect(listed.stdout).toMatch(/^ {2}company\t200001\t/m);
  });

  it('creates users of every type in the company given', async () => {
    const make = (id: string, type: string, company?: string) =>
      cp(
        'user',
        'create',
        '--user-id',
        id,
        '--email',
        `${id}@example.com`,
        '--password',
        'Cli-password-2026',
        '--user-type',
        type,
        ...(company ? ['--company', company] : []),
      );
    const expected: Record<string, string[]> = {
      Z: [],
      H: ['issuerGroupId'],
      I: ['issuerId'],
      G: ['companyGroupId'],
      C: ['companyId'],
      O: ['companyId', 'orgPointId'],
      S: ['companyId', 'accountGroupId'],
      A: ['companyId', 'cardholderId'],
    };
    const scopeColumns = [
      'issuerGroupId',
      'issuerId',
      'companyGroupId',
      'companyId',
      'orgPointId',
      'accountGroupId',
      'cardholderId',
    ];
    for (const [type, columns] of Object.entries(expected)) {
      const id = `clitype${type.toLowerCase()}01`;
      const made = await make(id, type, '200001');
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain(`type ${type}`);
      const user = JSON.parse((await cp('user', 'show', id)).stdout);
      expect(user.userType).toBe(type);
      for (const column of scopeColumns) {
        if (columns.includes(column)) expect(user[column], `${type} ${column}`).toEqual(expect.any(Number));
        else expect(user[column], `${type} ${column}`).toBeNull();
      }
    }
    const admin = JSON.parse((await cp('user', 'show', 'clitypec01')).stdout);
    const defaulted = await make('clidefault01', 'C');
    expect(defaulted.stdout).toContain('company 100001');
    const placed = JSON.parse((await cp('user', 'show', 'clidefault01')).stdout);
    expect(placed.companyId).not.toBe(admin.companyId);
  }, 180_000);

  it('refuses an unknown company or user type with one clear line', async () => {
    const base = ['user', 'create', '--email', 'z@example.com', '--password', 'Cli-password-2026'];
    const noCompany = await cp(...base, '--user-id', 'clinoco01', '--company', '999999');
    expect(noCompany.code).toBe(2);
    expect(noCompany.stderr.trim()).toBe('no such company: 999999');
    const badType = await cp(...base, '--user-id', 'clibadtype01', '--user-type', 'X');
    expect(badType.code).toBe(2);
    expect(badType.stderr.split('\n')[0]).toBe('--user-type must be one of A, C, G, H, I, O, S, Z');
    expect((await cp('user', 'show', 'clinoco01')).code).toBe(2);
    const spacedAnswer = await cp(...base, '--user-id', 'clianswer01', '--answer', 'Rex the dog');
    expect(spacedAnswer.code).toBe(2);
    expect(spacedAnswer.stderr).toContain('securityAnswer.spaces');
  });

  it('refuses bad input with one clear line and exit code 2', async () => {
    const duplicate = await cp(
      'user',
      'create',
      '--user-id',
      'cliuser01',
      '--email',
      'x@example.com',
      '--password',
      'Cli-password-2026',
    );
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('already exists');
    const weak = await cp(
      'user',
      'create',
      '--user-id',
      'cliuser02',
      '--email',
      'y@example.com',
      '--password',
      'short',
    );
    expect(weak.code).toBe(2);
    expect(weak.stderr).toMatch(/password/);
    const unknown = await cp('user', 'show', 'nobody01');
    expect(unknown.code).toBe(2);
    expect((await cp('frobnicate')).code).toBe(2);
    const badEnv = await cli(['cobrand', 'list'], { env: { DATA_DIR: ctx.config.dataDir, PORT: 'eighty' } });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toMatch(/PORT/);
  });
});

describe('admin CLI command line (node:util parseArgs over the modules’ commands)', () => {
  const noDb = { env: { DATA_DIR: '/nonexistent' } };

  it('lists every command of every module once, in the usage', async () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of [
      'db init',
      'cobrand import',
      'org list',
      'user create',
      'token assign',
      'mail show',
    ]) {
      expect(names).toContain(name);
      expect(USAGE).toMatch(new RegExp(`^ {2}${name}\\b`, 'm'));
    }
    const help = await cli(['help'], noDb);
    expect([help.code, help.stdout.trim()]).toEqual([0, USAGE]);
    expect((await cli([], noDb)).stdout.trim()).toBe(USAGE);
  });

  it('refuses an unknown option, a missing value or argument and an extra argument before opening anything', async () => {
    // DATA_DIR does not exist: each answer comes from the parsing alone.
    const cases: [string[], string][] = [
      [['user', 'show'], 'user show needs ID'],
      [['user', 'show', 'a', 'b'], 'user show: unexpected argument b'],
      [['token', 'assign', '--user'], "token assign: Unknown option '--user'"],
      [['token', 'assign', '--user-id'], "token assign: Option '--user-id <value>' argument missing"],
      [['user', 'frobnicate'], 'Unknown command: user frobnicate'],
    ];
    for (const [args, line] of cases) {
      const answer = await cli(args, noDb);
      expect([answer.code, answer.stderr.split('\n')[0]], args.join(' ')).toEqual([2, line]);
      expect(answer.stderr, 'with the usage').toContain(USAGE);
      expect(answer.stdout).toBe('');
    }
  });

  it('types a command’s values from its declared options', () => {
    const command = COMMANDS.find((c) => c.name === 'user create');
    const options = command?.options as ParseArgsOptionsConfig;
    const { values } = parseCommandArgs(command ?? COMMANDS[0]!, ['--user-id', 'x1', '--expired']);
    expect(values).toMatchObject({
      'user-id': 'x1',
      expired: true,
      'login-type': 'pwd',
      'first-login': false,
    });
    expect(options.password?.type).toBe('string');
  });
});

describe('admin CLI: common passwords (issue 13, item 5)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  it('refuses `user create --password` with a common one: exit 2, one clear line, nothing created', async () => {
    const create = (password: string) =>
      cli(
        [
          'user',
          'create',
          '--user-id',
          'clicommon01',
          '--email',
          'clicommon01@example.com',
          '--password',
          password,
        ],
        {
          env: { DATA_DIR: ctx.config.dataDir, DEMO: '1' },
          database: ctx.services.database,
        },
      );
    const refused = await create('Password123!');
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      'password is too common: it is on the list of commonly used passwords (or is one with digits or symbols added); choose another',
    ]);
    // Nothing was created: the same user ID with a good password goes through.
    const created = await create('Lantern-Quay-2026');
    expect(created.code, created.stderr).toBe(0);
  });
});
