import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkUserScope, cobrandSchema, type Permission, type UserType } from '@cardportal/domain';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db, Executor } from '../db/client.ts';
import {
  cardholders,
  companies,
  issuerCodes,
  issuers,
  multiUserLinks,
  multiUserMembers,
  realCards,
  roles,
  serverSecrets,
  userRoles,
  users,
} from '../db/schema.ts';
import type { Secrets } from '../kernel/secrets.ts';
import { issueAccount } from '../modules/accounts/index.ts';
import { saveCobrands } from '../modules/cobrand/index.ts';
import type { NewCardholder, UserScope } from '../modules/organisations/index.ts';
import { assignToken } from '../modules/token/index.ts';
import { createUser, findUserByUserId, type NewUser } from '../modules/users/index.ts';
import { loadDemoAccountingCodes } from './accounting.ts';
import { loadDemoExpenseReports, loadDemoExpenseSettings } from './expenses.ts';
import {
  DEMO_COMPANY_NUMBER,
  DemoAccountSeries,
  type DemoOrgIds,
  demoAccountNumber,
  insertDemoAccount,
  insertDemoOrganisations,
} from './organisations.ts';
import { loadDemoSelfRegistration } from './self-registration.ts';
import { insertDemoTransactions } from './transactions.ts';

/** The password of every demo user (README). */
export const DEMO_PASSWORD = 'Cardportal#2026';
/** Every demo user's security question is q1; the answer (README). */
export const DEMO_ANSWER = 'Springfield';
/** The demo token user's TOTP secret (base32) and default PIN, so any authenticator app can be the token. */
export const DEMO_TOKEN_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const DEMO_TOKEN_PIN = '2468';

/** Where a demo user sits (demo/organisations.ts): numbers and names, resolved to ids at load. */
interface DemoPlacement {
  /** Company number (types C, O, S, A); for G its group, for I its issuer, for H the issuer group. */
  company?: string;
  /** Org point number: the level manager's subtree, or the cardholder's org point. */
  orgPoint?: string;
  /** Account group name (type S; for A the group of the account it gets). */
  accountGroup?: string;
}

type DemoUser = Omit<NewUser, 'password' | 'cobrand' | 'scope' | 'newCardholder'> & {
  cobrand?: string;
  note: string;
  userType: UserType;
  place: DemoPlacement;
};

const acme = (orgPoint = 'A110', accountGroup = 'Travel'): DemoPlacement => ({
  company: DEMO_COMPANY_NUMBER,
  orgPoint,
  accountGroup,
});

/**
 * Demo users: one of every user type (README "Demo users") and the cardholders every login type and
 * state of the portal's screens needs. Cardholders (A) get a cardholder record and a card account.
 */
export const DEMO_USERS: DemoUser[] = [
  {
    userId: 'active01',
    email: 'ada.active@example.com',
    firstName: 'Ada',
    lastName: 'Active',
    userType: 'A',
    place: acme(),
    note: 'active cardholder, password sign-in',
  },
  {
    userId: 'admin01',
    email: 'carl.admin@example.com',
    firstName: 'Carl',
    lastName: 'Admin',
    userType: 'C',
    place: { company: DEMO_COMPANY_NUMBER },
    note: 'company program administrator of Acme Industries',
  },
  {
    userId: 'locked01',
    email: 'lee.locked@example.com',
    firstName: 'Lee',
    lastName: 'Locked',
    userType: 'A',
    status: 'Locked',
    place: acme('A120'),
    note: 'locked by an administrator: shows the locked screen',
  },
  {
    userId: 'expired01',
    email: 'eve.expired@example.com',
    firstName: 'Eve',
    lastName: 'Expired',
    userType: 'A',
    expired: true,
    place: acme('A120', 'Purchasing'),
    note: 'password expired: must change it',
  },
  {
    userId: 'firstlog01',
    email: 'fay.first@example.com',
    firstName: 'Fay',
    lastName: 'First',
    userType: 'A',
    firstLogin: true,
    place: acme('A210'),
    note: 'first login: must change the password',
  },
  {
    userId: 'ssouser01',
    email: 'sam.sso@example.com',
    firstName: 'Sam',
    lastName: 'Single',
    userType: 'A',
    sso: true,
    // Borealis, not Acme: Acme has multi-user, and single sign-on does not combine with it (seed 001 §6).
    place: { company: '100002', orgPoint: 'B110', accountGroup: 'General' },
    note: "SSO user of Borealis Logistics: no portal password; signs in at Borealis's provider once linked (docs/sso.md)",
  },
  {
    userId: 'otpuser01',
    email: 'otto.otp@example.com',
    firstName: 'Otto',
    lastName: 'Passcode',
    userType: 'A',
    loginType: 'otp-2fa',
    place: acme('A200'),
    note: 'e-mailed one-time passcode (otp-2fa)',
  },
  {
    userId: 'token01',
    email: 'tia.token@example.com',
    firstName: 'Tia',
    lastName: 'Token',
    userType: 'A',
    loginType: 'token',
    place: acme('A100', 'Purchasing'),
    note: 'software token (PIN + tokencode)',
  },
  {
    userId: 'bncuser01',
    email: 'bruno.norte@example.com',
    firstName: 'Bruno',
    lastName: 'Norte',
    userType: 'A',
    cobrand: 'banconorte',
    locale: 'es',
    place: { company: '200001', orgPoint: 'N110', accountGroup: 'General' },
    note: 'cardholder of Norte Logística (Banco Norte Demo), bnc co-brand',
  },
  {
    userId: 'sysadmin01',
    email: 'sys.admin@example.com',
    firstName: 'Sandra',
    lastName: 'System',
    userType: 'Z',
    place: {},
    note: 'system administrator',
  },
  {
    userId: 'isgadmin01',
    email: 'hana.group@example.com',
    firstName: 'Hana',
    lastName: 'Group',
    userType: 'H',
    place: { company: DEMO_COMPANY_NUMBER },
    note: 'issuer group administrator of Cardportal Demo Banking Group (both demo issuers)',
  },
  {
    userId: 'issadmin01',
    email: 'ivan.issuer@example.com',
    firstName: 'Ivan',
    lastName: 'Issuer',
    userType: 'I',
    place: { company: DEMO_COMPANY_NUMBER },
    note: 'issuer program administrator of Cardportal Demo Bank',
  },
  {
    userId: 'cgadmin01',
    email: 'gina.group@example.com',
    firstName: 'Gina',
    lastName: 'Group',
    userType: 'G',
    place: { company: DEMO_COMPANY_NUMBER },
    note: 'company group administrator of Demo Manufacturing Group (Acme, Borealis)',
  },
  {
    userId: 'lvlmgr01',
    email: 'olga.level@example.com',
    firstName: 'Olga',
    lastName: 'Level',
    userType: 'O',
    place: { company: DEMO_COMPANY_NUMBER, orgPoint: 'A100' },
    note: 'level manager of Acme Operations (A100 and below)',
  },
  {
    userId: 'agmgr01',
    email: 'sven.group@example.com',
    firstName: 'Sven',
    lastName: 'Accounts',
    userType: 'S',
    place: { company: DEMO_COMPANY_NUMBER, accountGroup: 'Travel' },
    note: 'account group manager of Acme Travel accounts',
  },
  {
    userId: 'multi01',
    email: 'max.multi@example.com',
    firstName: 'Max',
    lastName: 'Multi',
    userType: 'A',
    place: acme('A210', 'Purchasing'),
    note: 'cardholder of Acme, linked with multi02 (multi-user: choose the ID after sign-in)',
  },
  {
    userId: 'multi02',
    email: 'max.multi.finance@example.com',
    firstName: 'Max',
    lastName: 'Multi',
    userType: 'O',
    place: { company: DEMO_COMPANY_NUMBER, orgPoint: 'A200' },
    note: 'level manager of Acme Finance (A200 and below), linked with multi01',
  },
  {
    userId: 'bncadmin01',
    email: 'beatriz.norte@example.com',
    firstName: 'Beatriz',
    lastName: 'Norte',
    userType: 'C',
    cobrand: 'banconorte',
    locale: 'es',
    place: { company: '200001' },
    note: 'company program administrator of Norte Logística (another issuer: tenant isolation)',
  },
];

/** Scope columns of a demo user from its placement; a cardholder to create for type A. */
function placeDemoUser(
  user: DemoUser,
  ids: DemoOrgIds,
  companyIssuer: Map<number, { issuerId: number; companyGroupId: number | null }>,
): { scope: UserScope; newCardholder?: NewCardholder; accountGroupId: number | null } {
  const { company, orgPoint, accountGroup } = user.place;
  const companyId = company ? (ids.companies.get(company) ?? null) : null;
  const owner = companyId === null ? undefined : companyIssuer.get(companyId);
  const orgPointId = company && orgPoint ? (ids.orgPoints.get(`${company}/${orgPoint}`) ?? null) : null;
  const accountGroupId =
    company && accountGroup ? (ids.accountGroups.get(`${company}/${accountGroup}`) ?? null) : null;
  let scope: UserScope = {};
  let newCardholder: NewCardholder | undefined;
  switch (user.userType) {
    case 'Z':
      break;
    case 'H':
      scope = { issuerGroupId: ids.issuerGroupId };
      break;
    case 'I':
      scope = { issuerId: owner?.issuerId ?? null };
      break;
    case 'G':
      scope = { companyGroupId: owner?.companyGroupId ?? null };
      break;
    case 'C':
      scope = { companyId };
      break;
    case 'O':
      scope = { companyId, orgPointId };
      break;
    case 'S':
      scope = { companyId, accountGroupId };
      break;
    case 'A':
      scope = { companyId };
      if (companyId !== null)
        newCardholder = { companyId, orgPointId, name1: user.firstName ?? '', name2: user.lastName ?? '' };
      break;
  }
  const missing = checkUserScope(user.userType, { ...scope, cardholderId: newCardholder ? 0 : null });
  if (missing.length > 0) throw new Error(`demo user ${user.userId} is misplaced: ${missing.join(', ')}`);
  return newCardholder ? { scope, newCardholder, accountGroupId } : { scope, accountGroupId };
}

/** Gives an existing user (made before organisations existed) its demo placement. */
async function placeExistingUser(
  db: Executor,
  pk: number,
  userType: UserType,
  placed: { scope: UserScope; newCardholder?: NewCardholder },
): Promise<number | null> {
  let cardholderId: number | null = null;
  if (placed.newCardholder) {
    const [row] = await db.insert(cardholders).values(placed.newCardholder).returning();
    cardholderId = row?.id ?? null;
  }
  await db
    .update(users)
    .set({ ...placed.scope, cardholderId, userType, updatedAt: sql`now()` })
    .where(eq(users.id, pk));
  return cardholderId;
}

const MARKER = 'demo-loaded';
/** Set once the demo roles and multi-user link are loaded (a database from before them gets them). */
const ROLES_MARKER = 'demo-roles-loaded';
/** Set once the demo organisations are loaded: a data directory from before them gets them on upgrade. */
const ORG_MARKER = 'demo-organisations-loaded';
/** Set once the demo cards' transactions are loaded (a database from before them gets them). */
const TRANSACTIONS_MARKER = 'demo-transactions-loaded';
/** Set once the demo issuers' code lists are in (a database from before them gets them on start). */
const ISSUER_CODES_MARKER = 'demo-issuer-codes-loaded';
/** Set once the demo real cards are in, with their transactions. */
const REAL_CARDS_MARKER = 'demo-real-cards-loaded';

/**
 * Loads the demo co-brands, images, organisations and users once (marker rows remember it). A database
 * loaded before the organisations existed gets them on its next start: its demo users are placed in
 * them and the new demo users are created; nothing else of theirs changes.
 */
export async function loadDemoData(db: Db, config: Config, secrets: Secrets): Promise<boolean> {
  const markers = new Set(
    (await db.select({ name: serverSecrets.name }).from(serverSecrets)).map((r) => r.name),
  );
  if (markers.has(MARKER) && markers.has(ORG_MARKER)) {
    if (
      markers.has(ROLES_MARKER) &&
      markers.has(TRANSACTIONS_MARKER) &&
      markers.has(ISSUER_CODES_MARKER) &&
      markers.has(REAL_CARDS_MARKER) &&
      markers.has(ACCOUNTING_MARKER) &&
      markers.has(EXPENSE_SETTINGS_MARKER) &&
      markers.has(EXPENSE_REPORTS_MARKER) &&
      markers.has(SELF_REGISTRATION_MARKER)
    )
      return false;
    await loadLaterDemoData(db, secrets, markers);
    return true;
  }
  if (!markers.has(MARKER)) await loadCobrands(db, config);
  const series = new DemoAccountSeries(secrets.cards);
  const ids = await db.transaction((tx) => insertDemoOrganisations(tx, series));
  const companyIssuer = new Map(
    (await db.query.companies.findMany()).map((c) => [
      c.id,
      { issuerId: c.issuerId, companyGroupId: c.companyGroupId },
    ]),
  );
  for (const demo of DEMO_USERS) {
    const { note: _note, cobrand, place: _place, ...user } = demo;
    const placed = placeDemoUser(demo, ids, companyIssuer);
    const existing = await findUserByUserId(db, user.userId);
    let cardholderId: number | null | undefined;
    if (existing) {
      cardholderId = await db.transaction((tx) => placeExistingUser(tx, existing.id, demo.userType, placed));
    } else {
      const created = await createUser(db, {
        ...user,
        password: DEMO_PASSWORD,
        question: 'q1',
        answer: DEMO_ANSWER,
        cobrand: cobrand ?? 'cardportal',
        ...placed,
      });
      cardholderId = created.cardholderId;
      if (created.loginType === 'token') {
        await assignToken(db, secrets, created, {
          secretBase32: DEMO_TOKEN_SECRET,
          defaultPin: DEMO_TOKEN_PIN,
        });
      }
    }
    if (cardholderId && placed.scope.companyId) {
      await insertDemoAccount(db, series, {
        companyId: placed.scope.companyId,
        accountGroupId: placed.accountGroupId,
        cardholderId,
      });
    }
  }
  await db
    .insert(serverSecrets)
    .values([
      { name: MARKER, value: new Date().toISOString() },
      { name: ORG_MARKER, value: new Date().toISOString() },
    ])
    .onConflictDoNothing();
  await loadLaterDemoData(db, secrets, markers);
  return true;
}

/** Set once the demo accounting codes are in (issue 16). */
const ACCOUNTING_MARKER = 'demo-accounting-codes-loaded';

/** Set once the demo expense set-up is in (issue 17). */
const EXPENSE_SETTINGS_MARKER = 'demo-expense-settings-loaded';

/** Set once the demo expense reports are in, one in every state (issue 17 items 2-3). */
const EXPENSE_REPORTS_MARKER = 'demo-expense-reports-loaded';

/** Set once the demo's cardholder self-registration is in (docs/self-registration.md). */
const SELF_REGISTRATION_MARKER = 'demo-self-registration-loaded';

/** The demo data added by later issues, each once (its marker remembers it). */
async function loadLaterDemoData(db: Db, secrets: Secrets, markers: ReadonlySet<string>): Promise<void> {
  if (!markers.has(ROLES_MARKER)) await loadDemoRolesAndLinks(db);
  if (!markers.has(TRANSACTIONS_MARKER)) await loadDemoTransactions(db);
  if (!markers.has(ISSUER_CODES_MARKER)) await loadDemoIssuerCodes(db);
  if (!markers.has(REAL_CARDS_MARKER)) await loadDemoRealCards(db, secrets);
  if (!markers.has(ACCOUNTING_MARKER)) {
    await loadDemoAccountingCodes(db);
    await db
      .insert(serverSecrets)
      .values({ name: ACCOUNTING_MARKER, value: new Date().toISOString() })
      .onConflictDoNothing();
  }
  if (!markers.has(EXPENSE_SETTINGS_MARKER)) {
    await loadDemoExpenseSettings(db);
    await db
      .insert(serverSecrets)
      .values({ name: EXPENSE_SETTINGS_MARKER, value: new Date().toISOString() })
      .onConflictDoNothing();
  }
  if (!markers.has(EXPENSE_REPORTS_MARKER)) {
    await loadDemoExpenseReports(db);
    await db
      .insert(serverSecrets)
      .values({ name: EXPENSE_REPORTS_MARKER, value: new Date().toISOString() })
      .onConflictDoNothing();
  }
  if (!markers.has(SELF_REGISTRATION_MARKER)) {
    await loadDemoSelfRegistration(db, secrets);
    await db
      .insert(serverSecrets)
      .values({ name: SELF_REGISTRATION_MARKER, value: new Date().toISOString() })
      .onConflictDoNothing();
  }
}

/**
 * The demo real cards (issue 15 item 1): a company card account without a cardholder, known by its
 * alias, with months of spending like every demo card — so deleting it marks it inactive instead.
 */
export const DEMO_REAL_CARDS: readonly { company: string; alias: string; sequence: number }[] = [
  { company: '100001', alias: 'Travel lodge card', sequence: 900_001 },
  { company: '100002', alias: 'Fleet fuel card', sequence: 900_002 },
];

async function loadDemoRealCards(db: Db, secrets: Secrets): Promise<void> {
  await db.transaction(async (tx) => {
    const accountIds: number[] = [];
    for (const demo of DEMO_REAL_CARDS) {
      const [company] = await tx
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.number, demo.company));
      if (!company) continue;
      // The account rule of the application (issue.ts): sealed, and skipped if issued already.
      const issued = await issueAccount(tx, secrets.cards, {
        companyId: company.id,
        cardholderId: null,
        groupId: null,
        number: demoAccountNumber(demo.sequence),
      });
      if (issued.problem !== undefined) continue;
      await tx.insert(realCards).values({
        companyId: company.id,
        accountId: issued.accountId,
        alias: demo.alias,
        aliasKey: demo.alias.toLowerCase(),
      });
      accountIds.push(issued.accountId);
    }
    if (accountIds.length > 0) await insertDemoTransactions(tx, new Date(), accountIds);
    await tx
      .insert(serverSecrets)
      .values({ name: REAL_CARDS_MARKER, value: new Date().toISOString() })
      .onConflictDoNothing();
  });
}

/**
 * The demo issuers' code lists (issue 15 items 1 and 6): dispute reasons in the card schemes' chargeback
 * terms, account status codes with the system status each sets, and maintenance reason codes.
 */
export const DEMO_ISSUER_CODES: readonly {
  kind: 'dispute' | 'accountStatus' | 'maintenance';
  code: string;
  description: string;
  systemStatus?: 'A' | 'S' | 'C';
}[] = [
  { kind: 'dispute', code: 'NR', description: 'Goods or services not received' },
  { kind: 'dispute', code: 'DP', description: 'Duplicate charge' },
  { kind: 'dispute', code: 'IA', description: 'Incorrect amount charged' },
  { kind: 'dispute', code: 'CR', description: 'Credit not processed' },
  { kind: 'dispute', code: 'NA', description: 'Transaction not authorised by the cardholder' },
  { kind: 'dispute', code: 'ND', description: 'Not as described or defective' },
  { kind: 'dispute', code: 'CA', description: 'Cancelled recurring transaction' },
  { kind: 'accountStatus', code: 'AC', description: 'Active', systemStatus: 'A' },
  {
    kind: 'accountStatus',
    code: 'TS',
    description: 'Temporarily suspended by the company',
    systemStatus: 'S',
  },
  { kind: 'accountStatus', code: 'LS', description: 'Lost or stolen', systemStatus: 'C' },
  { kind: 'accountStatus', code: 'FR', description: 'Suspected fraud', systemStatus: 'S' },
  { kind: 'accountStatus', code: 'CL', description: 'Closed at the cardholder’s request', systemStatus: 'C' },
  { kind: 'maintenance', code: 'AD', description: 'Address changed' },
  { kind: 'maintenance', code: 'LM', description: 'Credit limit changed' },
  { kind: 'maintenance', code: 'NM', description: 'Name changed' },
  { kind: 'maintenance', code: 'RP', description: 'Card replaced' },
  { kind: 'maintenance', code: 'LA', description: 'Leave of absence' },
];

async function loadDemoIssuerCodes(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const issuer of await tx.select({ id: issuers.id }).from(issuers)) {
      await tx
        .insert(issuerCodes)
        .values(
          DEMO_ISSUER_CODES.map((r) => ({ issuerId: issuer.id, ...r, systemStatus: r.systemStatus ?? null })),
        )
        .onConflictDoNothing();
    }
    await tx
      .insert(serverSecrets)
      .values({ name: ISSUER_CODES_MARKER, value: new Date().toISOString() })
      .onConflictDoNothing();
  });
}

/** A few months of spending on every demo card (demo/transactions.ts), once. */
async function loadDemoTransactions(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await insertDemoTransactions(tx);
    await tx
      .insert(serverSecrets)
      .values({ name: TRANSACTIONS_MARKER, value: new Date().toISOString() })
      .onConflictDoNothing();
  });
}

/**
 * Demo roles per issuer (docs/authorization.md "Roles") given to the demo administrators, and the demo
 * person with two linked, confirmed user IDs (multi01 and multi02: docs/multi-user.md).
 */
export const DEMO_ROLES: {
  issuer: string;
  name: string;
  description: string;
  permissions: Permission[];
  holders: string[];
}[] = [
  {
    issuer: '1001',
    name: 'Program administrator',
    description: 'Maintains peer users, links user IDs, may access as a user and approves transactions',
    permissions: ['peerUserModify', 'linkUsers', 'accessAsUser', 'approveTransactions'],
    holders: ['admin01', 'cgadmin01'],
  },
  {
    issuer: '1001',
    name: 'Super user',
    description: 'May access the application as a user it administers',
    permissions: ['accessAsUser'],
    holders: [],
  },
  {
    issuer: '2001',
    name: 'Administrador del programa',
    description: 'Usuarios pares, vinculación de usuarios y acceso como usuario',
    permissions: ['peerUserModify', 'linkUsers', 'accessAsUser', 'approveTransactions'],
    holders: ['bncadmin01'],
  },
  {
    issuer: '1001',
    name: 'Approver',
    description: 'Approves the reviewed transactions of the cards in scope',
    permissions: ['approveTransactions'],
    holders: ['lvlmgr01'],
  },
];

async function loadDemoRolesAndLinks(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const demo of DEMO_ROLES) {
      const [issuer] = await tx
        .select({ id: issuers.id })
        .from(issuers)
        .where(eq(issuers.number, demo.issuer));
      if (!issuer) continue;
      const [role] = await tx
        .insert(roles)
        .values({
          issuerId: issuer.id,
          name: demo.name,
          description: demo.description,
          permissions: demo.permissions,
        })
        .onConflictDoNothing()
        .returning({ id: roles.id });
      if (!role) continue;
      for (const holder of demo.holders) {
        const user = await findUserByUserId(tx, holder);
        if (user)
          await tx.insert(userRoles).values({ userPk: user.id, roleId: role.id }).onConflictDoNothing();
      }
    }
    const members = (await Promise.all(['multi01', 'multi02'].map((id) => findUserByUserId(tx, id)))).filter(
      (u) => u !== undefined,
    );
    const [issuer] = await tx.select({ id: issuers.id }).from(issuers).where(eq(issuers.number, '1001'));
    if (members.length === 2 && issuer) {
      const [link] = await tx
        .insert(multiUserLinks)
        .values({ issuerId: issuer.id })
        .returning({ id: multiUserLinks.id });
      if (link)
        await tx
          .insert(multiUserMembers)
          .values(members.map((u) => ({ userPk: u.id, linkId: link.id, confirmedAt: new Date() })))
          .onConflictDoNothing();
    }
    await tx
      .insert(serverSecrets)
      .values({ name: ROLES_MARKER, value: new Date().toISOString() })
      .onConflictDoNothing();
  });
}

/** The demo co-brands and their images (apps/server/demo). */
async function loadCobrands(db: Db, config: Config): Promise<void> {
  const dir = config.demoDir;
  const raw: unknown = JSON.parse(readFileSync(path.join(dir, 'cobrands.json'), 'utf8'));
  const records = cobrandSchema.array().parse(raw);
  const assets: { path: string; bytes: Uint8Array }[] = [];
  for (const folder of ['logos', 'footers']) {
    const folderPath = path.join(dir, folder);
    if (!existsSync(folderPath)) continue;
    for (const file of readdirSync(folderPath)) {
      if (/\.(png|jpg|gif)$/.test(file))
        assets.push({ path: `${folder}/${file}`, bytes: readFileSync(path.join(folderPath, file)) });
    }
  }
  await saveCobrands(db, records, assets);
}
