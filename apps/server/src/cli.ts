import path from 'node:path';
import { parseArgs } from 'node:util';
import { isUserType, LOGIN_TYPES, type LoginType, USER_TYPE_CODES } from '@cardportal/domain';
import { ConfigError, loadConfig } from './config.ts';
import { type Database, openPgliteSocket } from './db/client.ts';
import { audit } from './kernel/audit.ts';
import { errorText } from './kernel/error-text.ts';
import { findMail, listPendingMail } from './kernel/outbox.ts';
import { loadSecrets } from './kernel/secrets.ts';
import {
  CobrandImportError,
  CobrandService,
  importCobrandFile,
  listCobrands,
} from './modules/cobrand/index.ts';
import { composeMail } from './modules/mail/index.ts';
import {
  findCompanyByNumber,
  firstCompany,
  listIssuersWithCompanies,
  OrganisationError,
  scopeFromCompany,
} from './modules/organisations/index.ts';
import { assignToken, DEFAULT_PIN_DAYS } from './modules/token/index.ts';
import {
  createUser,
  describeUser,
  findUserByUserId,
  UserInputError,
  unlockUser,
} from './modules/users/index.ts';
import { initialiseDatabase, openDatabase } from './services.ts';
import { TextBundles } from './text/bundles.ts';

const USAGE = `Usage: npm run cli -- <command>
  db init                                   create and migrate the database (and load demo data in demo mode)
  cobrand list                              list co-brands
  cobrand import FILE                       import co-brands (JSON array of records, docs/cobrands.md) — all or nothing
  cobrand export                            print every co-brand as JSON
  user create --user-id ID --email E --password P [--login-type pwd|otp-2fa|token]
              [--cobrand NAME] [--first-name F] [--last-name L] [--user-type A|C|G|H|I|O|S|Z]
              [--company NUMBER] [--expired] [--first-login] [--question q1..q8] [--answer TEXT]
                                            the user goes into company NUMBER (default: the first company,
                                            in demo mode Acme Industries 100001): A as a new cardholder,
                                            C/O/S in the company, G in its group, I in its issuer, H in its
                                            issuer's group, Z in none
  org list                                  list issuers and their companies with their numbers
  user unlock ID                            lift a lock
  user show ID                              show a user (never the password hash)
  token assign --user-id ID                 assign a software token: prints the otpauth URI and the default PIN
  mail list                                 list the mails not delivered yet (without SMTP_URL they stay
                                            in the outbox): id, time, kind, recipient, subject
  mail show ID                              print one mail with its text (one-time codes, temporary passwords)`;

class UsageError extends Error {}

/**
 * Opens the same database as the server: the running server's embedded database over its local socket
 * (that server has initialised it), otherwise PostgreSQL with DATABASE_URL or the data directory itself,
 * initialised exactly as the server initialises it (initialiseDatabase: migrations and, in demo mode,
 * the demo data), so any command works as the first one on a new database.
 */
async function open(config: ReturnType<typeof loadConfig>): Promise<Database> {
  if (!config.databaseUrl) {
    const shared = await openPgliteSocket(config.dataDir);
    if (shared) return shared;
  }
  const database = await openDatabase(config, { pool: 2 });
  try {
    const { demoLoaded } = await initialiseDatabase(database, config);
    // On standard error: standard output is the command's answer (JSON for cobrand export, user show).
    if (demoLoaded) console.error('new database: demo data loaded');
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function run(argv: string[]): Promise<number> {
  const config = loadConfig();
  const [group, action, ...rest] = argv;
  if (!group || group === 'help' || group === '--help') {
    console.log(USAGE);
    return 0;
  }
  const key = `${group} ${action ?? ''}`.trim();
  const commands = [
    'db init',
    'cobrand list',
    'cobrand import',
    'cobrand export',
    'user create',
    'org list',
    'user unlock',
    'user show',
    'token assign',
    'mail list',
    'mail show',
  ];
  if (!commands.includes(key)) throw new UsageError(`Unknown command: ${key}`);

  if (key === 'db init') {
    const database = await open(config);
    await database.close();
    console.log(`database ready (${database.kind})`);
    return 0;
  }

  const database = await open(config);
  const { db } = database;
  try {
    switch (key) {
      case 'cobrand list': {
        for (const c of await listCobrands(db)) {
          console.log(`${c.name}\t${c.abbreviation}\t${c.locales.join(',')}\t${c.appName}`);
        }
        return 0;
      }
      case 'cobrand export': {
        console.log(JSON.stringify(await listCobrands(db), null, 2));
        return 0;
      }
      case 'cobrand import': {
        const file = rest[0];
        if (!file) throw new UsageError('cobrand import needs a FILE');
        const count = await importCobrandFile(db, path.resolve(file));
        console.log(`imported ${count} co-brand(s)`);
        return 0;
      }
      case 'user create': {
        const { values } = parseArgs({
          args: rest,
          options: {
            'user-id': { type: 'string' },
            email: { type: 'string' },
            password: { type: 'string' },
            'login-type': { type: 'string', default: 'pwd' },
            cobrand: { type: 'string', default: 'cardportal' },
            'first-name': { type: 'string', default: '' },
            'last-name': { type: 'string', default: '' },
            'user-type': { type: 'string', default: 'A' },
            company: { type: 'string' },
            expired: { type: 'boolean', default: false },
            'first-login': { type: 'boolean', default: false },
            question: { type: 'string' },
            answer: { type: 'string' },
          },
          strict: true,
        });
        if (!values['user-id'] || !values.email || !values.password) {
          throw new UsageError('user create needs --user-id, --email and --password');
        }
        const loginType = values['login-type'] as LoginType;
        if (!LOGIN_TYPES.includes(loginType))
          throw new UsageError(`--login-type must be one of ${LOGIN_TYPES.join(', ')}`);
        const userType = values['user-type'];
        if (!isUserType(userType))
          throw new UsageError(`--user-type must be one of ${USER_TYPE_CODES.join(', ')}`);
        const company = values.company
          ? await findCompanyByNumber(db, values.company)
          : await firstCompany(db);
        if (values.company && !company)
          throw new UserInputError('company', `no such company: ${values.company}`);
        if (!company && userType !== 'Z') {
          // Without demo data a new database has no organisation: its first user is the system
          // administrator, who creates issuers (and they companies) in the application.
          throw new UserInputError(
            'company',
            `no company to put the user in: this database has none${config.demo ? '' : ' (no demo data, DEMO=0)'}; create the system administrator first (--user-type Z), who creates issuers and companies in the application`,
          );
        }
        const placement = company
          ? await scopeFromCompany(db, userType, company, {
              name1: values['first-name'] || values['user-id'],
              name2: values['last-name'],
            })
          : { scope: {} };
        const user = await createUser(db, {
          userId: values['user-id'],
          email: values.email,
          password: values.password,
          loginType,
          userType,
          cobrand: values.cobrand,
          firstName: values['first-name'],
          lastName: values['last-name'],
          expired: values.expired,
          firstLogin: values['first-login'],
          question: values.question,
          answer: values.answer,
          ...placement,
        });
        await audit(db, 'user.created', { userPk: user.id, detail: { by: 'cli' } });
        console.log(
          `created user ${user.displayUserId} (ldap id ${user.ldapId}), type ${user.userType}` +
            (company && userType !== 'Z' ? `, company ${company.number}` : ''),
        );
        return 0;
      }
      case 'org list': {
        for (const issuer of await listIssuersWithCompanies(db)) {
          console.log(
            [
              'issuer',
              issuer.number,
              issuer.name1,
              `ICA ${issuer.ica}`,
              `bank ${issuer.bankNumber}`,
              `group ${issuer.groupName ?? '-'}`,
              issuer.active ? 'active' : 'inactive',
            ].join('\t'),
          );
          for (const c of issuer.companies) {
            console.log(
              [
                '  company',
                c.number,
                c.name1,
                `group ${c.groupName ?? '-'}`,
                c.multiUser ? 'multi-user' : 'single-user',
                c.active ? 'active' : 'inactive',
              ].join('\t'),
            );
          }
        }
        return 0;
      }
      case 'user unlock': {
        const id = rest[0];
        if (!id) throw new UsageError('user unlock needs an ID');
        const found = await findUserByUserId(db, id);
        if (!found) throw new UsageError(`no such user: ${id}`);
        // A user locked by an expired temporary password gets a new one by mail (shared/users.ts).
        const texts = { cobrands: new CobrandService(db), texts: new TextBundles(config.bundlesDir) };
        const unlocked = await db.transaction(async (tx) => {
          const row = await unlockUser(tx, found, (user, password, inTx) =>
            composeMail(
              texts,
              'temporary-password',
              user,
              { cobrand: user.cobrand, locale: user.locale },
              [password],
              inTx,
            ),
          );
          if (row) await audit(tx, 'user.unlocked', { userPk: row.id, detail: { by: 'cli' } });
          return row;
        });
        const renewed = found.lockReason === 'temporary-expired' && unlocked !== undefined;
        console.log(
          `user ${found.displayUserId} is ${unlocked?.status ?? found.status}` +
            (renewed ? ': a new temporary password is in the outbox (npm run cli -- mail list)' : ''),
        );
        return 0;
      }
      case 'token assign': {
        const { values } = parseArgs({
          args: rest,
          options: { 'user-id': { type: 'string' } },
          strict: true,
        });
        if (!values['user-id']) throw new UsageError('token assign needs --user-id');
        const user = await findUserByUserId(db, values['user-id']);
        if (!user) throw new UsageError(`no such user: ${values['user-id']}`);
        const secrets = await loadSecrets(db);
        const { uri, defaultPin } = await assignToken(db, secrets, user);
        console.log(`otpauth URI: ${uri}`);
        console.log(
          `default PIN: ${defaultPin} (valid ${DEFAULT_PIN_DAYS} days; the first sign-in asks for a new PIN)`,
        );
        return 0;
      }
      case 'mail list': {
        for (const m of await listPendingMail(db)) {
          console.log([m.id, m.createdAt.toISOString(), m.kind, m.recipient, m.subject].join('\t'));
        }
        return 0;
      }
      case 'mail show': {
        const id = rest[0];
        if (!id || !/^[1-9]\d{0,15}$/.test(id)) throw new UsageError('mail show needs a mail ID (mail list)');
        const mail = await findMail(db, Number(id));
        if (!mail) throw new UsageError(`no such mail: ${id}`);
        console.log(`To: ${mail.recipient}`);
        console.log(`Subject: ${mail.subject}`);
        console.log(`Date: ${mail.createdAt.toISOString()}`);
        console.log(mail.sentAt ? `Delivered: ${mail.sentAt.toISOString()}` : 'Not delivered');
        console.log('');
        console.log(mail.body);
        return 0;
      }
      case 'user show': {
        const id = rest[0];
        if (!id) throw new UsageError('user show needs an ID');
        const user = await findUserByUserId(db, id);
        if (!user) throw new UsageError(`no such user: ${id}`);
        console.log(JSON.stringify(describeUser(user), null, 2));
        return 0;
      }
    }
    return 0;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof UserInputError ||
      error instanceof OrganisationError ||
      error instanceof CobrandImportError
    ) {
      console.error(error.message);
      if (error instanceof UsageError) console.error(USAGE);
      process.exit(2);
    }
    // The driver's message: Drizzle's own would list the query's parameters (hashes, addresses).
    console.error(errorText(error));
    process.exit(1);
  },
);
