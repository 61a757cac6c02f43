import { isUserType, LOGIN_TYPES, type LoginType, USER_TYPE_CODES } from '@cardportal/domain';
import { audit } from '../../kernel/audit.ts';
import { CliInputError, defineCommand } from '../../kernel/cli.ts';
import { composeMail, mailTexts } from '../mail/index.ts';
import { findCompanyByNumber, firstCompany, scopeFromCompany } from '../organisations/index.ts';
import { createUser, describeUser, findUserByUserId, unlockUser } from './users.ts';

/** The user commands of the admin CLI (DESIGN §3). */
export const userCommands = [
  defineCommand({
    name: 'user create',
    synopsis: `--user-id ID --email E --password P [--login-type pwd|otp-2fa|token]
[--cobrand NAME] [--first-name F] [--last-name L] [--user-type ${USER_TYPE_CODES.join('|')}]
[--company NUMBER] [--expired] [--first-login] [--question q1..q8] [--answer TEXT]`,
    summary: `the user goes into company NUMBER (default: the first company,
in demo mode Acme Industries 100001): A as a new cardholder,
C/O/S in the company, G in its group, I in its issuer, H in its
issuer's group, Z in none`,
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
    async run({ db, config, io }, { values }) {
      const userId = values['user-id'];
      if (!userId || !values.email || !values.password) {
        throw new CliInputError('user create needs --user-id, --email and --password', true);
      }
      const loginType = values['login-type'] as LoginType;
      if (!LOGIN_TYPES.includes(loginType)) {
        throw new CliInputError(`--login-type must be one of ${LOGIN_TYPES.join(', ')}`, true);
      }
      const userType = values['user-type'];
      if (!isUserType(userType)) {
        throw new CliInputError(`--user-type must be one of ${USER_TYPE_CODES.join(', ')}`, true);
      }
      const company = values.company ? await findCompanyByNumber(db, values.company) : await firstCompany(db);
      if (values.company && !company) throw new CliInputError(`no such company: ${values.company}`);
      if (!company && userType !== 'Z') {
        // Without demo data a new database has no organisation: its first user is the system
        // administrator, who creates issuers (and they companies) in the application.
        throw new CliInputError(
          `no company to put the user in: this database has none${config.demo ? '' : ' (no demo data, DEMO=0)'}; create the system administrator first (--user-type Z), who creates issuers and companies in the application`,
        );
      }
      const placement = company
        ? await scopeFromCompany(db, userType, company, {
            name1: values['first-name'] || userId,
            name2: values['last-name'],
          })
        : { scope: {} };
      const user = await createUser(db, {
        userId,
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
      io.out(
        `created user ${user.displayUserId} (ldap id ${user.ldapId}), type ${user.userType}` +
          (company && userType !== 'Z' ? `, company ${company.number}` : ''),
      );
    },
  }),
  defineCommand({
    name: 'user unlock',
    synopsis: 'ID',
    summary: 'lift a lock (an expired temporary password: a new one goes out by mail)',
    positionals: ['ID'],
    async run({ db, texts, io }, { positionals: [id = ''] }) {
      const found = await findUserByUserId(db, id);
      if (!found) throw new CliInputError(`no such user: ${id}`);
      const composer = mailTexts(db, texts);
      const unlocked = await db.transaction(async (tx) => {
        const row = await unlockUser(tx, found, (user, password, inTx) =>
          composeMail(
            composer,
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
      io.out(
        `user ${found.displayUserId} is ${unlocked?.status ?? found.status}` +
          (renewed ? ': a new temporary password is in the outbox (npm run cli -- mail list)' : ''),
      );
    },
  }),
  defineCommand({
    name: 'user show',
    synopsis: 'ID',
    summary: 'show a user (never the password hash)',
    positionals: ['ID'],
    async run({ db, io }, { positionals: [id = ''] }) {
      const user = await findUserByUserId(db, id);
      if (!user) throw new CliInputError(`no such user: ${id}`);
      io.out(JSON.stringify(describeUser(user), null, 2));
    },
  }),
];
