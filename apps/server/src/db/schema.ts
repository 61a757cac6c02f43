import type { Cobrand, ExpenseProperty } from '@cardportal/domain';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Co-brands: the validated record (packages/domain cobrandSchema) as JSON, keyed by name. */
export const cobrands = pgTable('cobrands', {
  name: text('name').primaryKey(),
  abbreviation: text('abbreviation').notNull().unique(),
  record: jsonb('record').$type<Cobrand>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Logo and footer images, served under /sdportal/portalstatic/assets/images/{logos,footers}/. */
export const cobrandAssets = pgTable('cobrand_assets', {
  path: text('path').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  etag: text('etag').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Canonical (trimmed, lower-case) user ID used for lookups. */
    userId: text('user_id').notNull(),
    /** The user ID as it was created, for display. */
    displayUserId: text('display_user_id').notNull(),
    ldapId: text('ldap_id').notNull(),
    b2bAlias: text('b2b_alias').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    userType: text('user_type').notNull().default('A'),
    status: text('status').notNull().default('Active'),
    loginType: text('login_type').notNull().default('pwd'),
    sso: boolean('sso').notNull().default(false),
    cobrand: text('cobrand').notNull(),
    locale: text('locale').notNull().default('en_US'),
    passwordHash: text('password_hash').notNull(),
    passwordChangedAt: ts('password_changed_at').notNull().defaultNow(),
    passwordExpiresAt: ts('password_expires_at'),
    passwordTemporary: boolean('password_temporary').notNull().default(false),
    firstLogin: boolean('first_login').notNull().default(true),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedAt: ts('locked_at'),
    /** 'attempts' (lifts after 30 minutes) or 'admin' (only an administrator lifts it). */
    lockReason: text('lock_reason'),
    lastLoginAt: ts('last_login_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    // Placement (packages/domain USER_TYPE_INFO.scopeFields says which a type needs; the rest stay
    // empty). Users made before organisations existed keep them empty until placed.
    issuerGroupId: integer('issuer_group_id').references((): AnyPgColumn => issuerGroups.id),
    issuerId: integer('issuer_id').references((): AnyPgColumn => issuers.id),
    companyGroupId: integer('company_group_id').references((): AnyPgColumn => companyGroups.id),
    companyId: integer('company_id').references((): AnyPgColumn => companies.id),
    orgPointId: integer('org_point_id').references((): AnyPgColumn => orgPoints.id),
    accountGroupId: integer('account_group_id').references((): AnyPgColumn => accountGroups.id),
    /** The cardholder a type-A user is. */
    cardholderId: integer('cardholder_id').references((): AnyPgColumn => cardholders.id),
    /** A named role (approver, supervisor, ...): free text until roles get their own table. */
    role: text('role'),
    /** An SSO user's identity provider and the subject it asserts for them (docs/sso.md). */
    federationProviderId: integer('federation_provider_id').references(
      (): AnyPgColumn => identityProviders.id,
    ),
    federationSubject: text('federation_subject'),
  },
  (t) => [
    uniqueIndex('users_user_id_key').on(t.userId),
    uniqueIndex('users_ldap_id_key').on(t.ldapId),
    // One login per cardholder.
    uniqueIndex('users_cardholder_key').on(t.cardholderId),
    index('users_issuer_group_idx').on(t.issuerGroupId),
    index('users_issuer_idx').on(t.issuerId),
    index('users_company_group_idx').on(t.companyGroupId),
    index('users_company_idx').on(t.companyId, t.userType),
    index('users_org_point_idx').on(t.orgPointId),
    index('users_account_group_idx').on(t.accountGroupId),
    // The user search's key order (kernel/paging.ts, docs/paging.md).
    index('users_name_order_idx').on(t.lastName, t.firstName, t.userId),
    check('users_user_type_check', sql`${t.userType} in ('A', 'C', 'G', 'H', 'I', 'O', 'S', 'Z')`),
    // One user per subject of a provider: the sign-in's lookup.
    uniqueIndex('users_federation_key').on(t.federationProviderId, t.federationSubject),
    check(
      'users_federation_check',
      sql`(${t.federationProviderId} is null) = (${t.federationSubject} is null) and (${t.federationProviderId} is null or ${t.sso})`,
    ),
  ],
);

/** The last passwords of each user (hashed), for the no-reuse-of-last-4 rule. */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userPk: integer('user_pk')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('password_history_user_idx').on(t.userPk, t.createdAt)],
);

/** Server-side sessions. The cookie holds a random id; only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userPk: integer('user_pk')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stage: text('stage').notNull(),
    cobrand: text('cobrand').notNull(),
    locale: text('locale').notNull(),
    sso: boolean('sso').notNull().default(false),
    /** Stage facts, e.g. { passcodeVerified: true } in the new-PIN stage. Never a secret. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  // expires_at and created_at: the purge (idle or past the absolute lifetime) without a table scan;
  // user_pk: signing out a user's other sessions.
  (t) => [
    index('sessions_expires_idx').on(t.expiresAt),
    index('sessions_created_idx').on(t.createdAt),
    index('sessions_user_idx').on(t.userPk),
  ],
);

/** Failed sign-ins for user IDs that do not exist, keyed by a keyed hash of the ID (never the ID). */
export const unknownAttempts = pgTable('unknown_attempts', {
  keyHash: text('key_hash').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedAt: ts('locked_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Audit trail: sign-in events and administrators' changes. `user_pk` is the user the event is about;
 * for an administrator's change also who made it (`actor_*`), what (`entity`, `entity_id`) and the
 * before/after of each changed non-secret field (`changes`). Never holds a secret. Migration 0004 added
 * the admin columns, nullable, so the sign-in rows written before it stay valid.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    event: text('event').notNull(),
    userPk: integer('user_pk').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    actorPk: integer('actor_pk').references(() => users.id, { onDelete: 'set null' }),
    /** The actor's user ID as shown then (kept if the actor row is later changed). */
    actorUserId: text('actor_user_id'),
    entity: text('entity'),
    entityId: text('entity_id'),
    changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>(),
  },
  // (at, id): the audit trail's key order, newest first (docs/paging.md); also every range on `at`.
  (t) => [index('audit_events_at_id_idx').on(t.at, t.id), index('audit_events_user_idx').on(t.userPk, t.at)],
);

/** Error statements the portal reports (log/logErrorStatement.json), size-limited. */
export const clientLogs = pgTable(
  'client_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    message: text('message').notNull(),
  },
  (t) => [index('client_logs_at_idx').on(t.at)],
);

/** Secrets shared by every instance (HMAC keys), generated once. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Transactional outbox: a mail is written in the same transaction as the change that causes it and
 * delivered by the mail worker with retries. The body is blanked once sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    lastError: text('last_error'),
  },
  (t) => [index('mail_outbox_due_idx').on(t.sentAt, t.nextAttemptAt)],
);

/** One-time passcodes (e-mailed), stored as keyed hashes; single use, 15 minutes. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userPk: integer('user_pk')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('otp_codes_user_idx').on(t.userPk, t.createdAt)],
);

/** Each user's security question and its answer (argon2id of the normalised answer). */
export const securityAnswers = pgTable('security_answers', {
  userPk: integer('user_pk')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  questionId: text('question_id').notNull(),
  answerHash: text('answer_hash').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Software tokens (TOTP, 8 digits, 60 s): secret encrypted at rest, PIN hashed. */
export const tokens = pgTable('tokens', {
  userPk: integer('user_pk')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEnc: text('secret_enc').notNull(),
  /** 'new-pin' (default PIN must be replaced), 'normal', 'next-token' (after 3 wrong tokencodes). */
  mode: text('mode').notNull().default('new-pin'),
  pinHash: text('pin_hash').notNull(),
  pinExpiresAt: ts('pin_expires_at'),
  /** The last TOTP step accepted: a step is never accepted twice. */
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------------
// Organisations (seed 001 §3; docs/organisations.md). Rows in use are made inactive, never deleted.

/** Groups of issuers (an issuer group administrator, type H, sees all of one). */
export const issuerGroups = pgTable('issuer_groups', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  active: boolean('active').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Issuers (banks): name 1 and 2, number, ICA, bank number. */
export const issuers = pgTable(
  'issuers',
  {
    id: serial('id').primaryKey(),
    issuerGroupId: integer('issuer_group_id').references(() => issuerGroups.id),
    number: text('number').notNull(),
    name1: text('name1').notNull(),
    name2: text('name2').notNull().default(''),
    ica: text('ica').notNull(),
    bankNumber: text('bank_number').notNull(),
    /** The co-brand its users sign in under by default. */
    cobrand: text('cobrand').references(() => cobrands.name),
    active: boolean('active').notNull().default(true),
    /**
     * Password policy of its users (seed 001 §5: "minimum length is configurable", duration 30–90 days):
     * the shortest password they may set (12–20) and the days a password they set stays valid (30–90).
     * packages/domain LIMITS holds the bounds and defaults; users without an issuer use the defaults.
     */
    passwordMinLength: integer('password_min_length').notNull().default(12),
    passwordDurationDays: integer('password_duration_days').notNull().default(90),
    /**
     * The issuer's card BINs (seed 001 §9: 6–16 digits each, the list ≤ 255 characters; packages/domain
     * parseCardBins), space-separated; empty: any. A card number issued under it must start with one.
     */
    cardBins: text('card_bins').notNull().default(''),
    /** Account digits to display (seed 001 §9: 1–8): how many last digits its screens show. */
    accountDigits: integer('account_digits').notNull().default(4),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('issuers_number_key').on(t.number),
    index('issuers_group_idx').on(t.issuerGroupId),
    check('issuers_password_min_length_check', sql`${t.passwordMinLength} between 12 and 20`),
    check('issuers_password_duration_days_check', sql`${t.passwordDurationDays} between 30 and 90`),
    check('issuers_account_digits_check', sql`${t.accountDigits} between 1 and 8`),
  ],
);

/** Program types an issuer offers (corporate, purchasing, ...: packages/domain PROGRAM_TYPES). */
export const programTypes = pgTable('program_types', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  active: boolean('active').notNull().default(true),
});

/** Groups of companies within one issuer (a company group administrator, type G, sees all of one). */
export const companyGroups = pgTable(
  'company_groups',
  {
    id: serial('id').primaryKey(),
    issuerId: integer('issuer_id')
      .notNull()
      .references(() => issuers.id),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('company_groups_issuer_name_key').on(t.issuerId, t.name)],
);

/**
 * Companies: name 1 and 2, number (unique across the system), group. `multi_user`, once true, never
 * goes back to false (seed 001 §4): a trigger refuses it (migration 0003) and the repository too.
 */
export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    issuerId: integer('issuer_id')
      .notNull()
      .references(() => issuers.id),
    companyGroupId: integer('company_group_id').references(() => companyGroups.id),
    programTypeId: integer('program_type_id').references(() => programTypes.id),
    number: text('number').notNull(),
    name1: text('name1').notNull(),
    name2: text('name2').notNull().default(''),
    multiUser: boolean('multi_user').notNull().default(false),
    /**
     * The self-registration corporate code (seed 001 §5: 6–10 digits) the company hands its cardholders;
     * null: its cardholders cannot register themselves (docs/self-registration.md). Unique, so a code
     * names one company.
     */
    registrationCode: text('registration_code'),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('companies_number_key').on(t.number),
    uniqueIndex('companies_registration_code_key').on(t.registrationCode),
    check('companies_registration_code_check', sql`${t.registrationCode} ~ '^[0-9]{6,10}$'`),
    index('companies_issuer_idx').on(t.issuerId),
    index('companies_group_idx').on(t.companyGroupId),
  ],
);

/**
 * The reporting structure: org points of one company, each reporting to another of the same company
 * (the composite foreign key keeps a parent inside the company) or to none at the top.
 */
export const orgPoints = pgTable(
  'org_points',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    number: text('number').notNull(),
    name1: text('name1').notNull(),
    name2: text('name2').notNull().default(''),
    reportingLevel: integer('reporting_level').notNull(),
    reportsToId: integer('reports_to_id'),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // Numbers compare case-insensitively (packages/domain reporting-structure.ts).
    uniqueIndex('org_points_company_number_key').on(t.companyId, sql`lower(${t.number})`),
    uniqueIndex('org_points_company_id_key').on(t.companyId, t.id),
    index('org_points_reports_to_idx').on(t.reportsToId),
    foreignKey({
      name: 'org_points_reports_to_fk',
      columns: [t.companyId, t.reportsToId],
      foreignColumns: [t.companyId, t.id],
    }),
    check('org_points_reporting_level_check', sql`${t.reportingLevel} >= 1`),
  ],
);

/** Account groups of a company (an account group manager, type S, sees one). */
export const accountGroups = pgTable(
  'account_groups',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_groups_company_name_key').on(t.companyId, t.name)],
);

/** Cardholders: name 1 and 2, in a company and (optionally) an org point. */
export const cardholders = pgTable(
  'cardholders',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    orgPointId: integer('org_point_id').references(() => orgPoints.id),
    name1: text('name1').notNull(),
    name2: text('name2').notNull().default(''),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // The cardholder list's key order in a company (docs/paging.md).
    index('cardholders_company_idx').on(t.companyId, t.name2, t.name1, t.id),
    index('cardholders_org_point_idx').on(t.orgPointId),
  ],
);

/**
 * Card accounts: the card number (12-19 digits) sealed at rest (kernel/card-vault.ts: `number_cipher`,
 * found by its keyed hash `number_hash`), with only its BIN, last four and length in the clear (every
 * answer shows it masked from those, packages/domain maskCardParts); group, status (Active, Suspended,
 * Closed: a closed account is the inactive form, never deleted). `number` is the plaintext column of
 * before 0008: start-up seals what an older version left in it (sealPlainCardNumbers) and empties it.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    accountGroupId: integer('account_group_id').references(() => accountGroups.id),
    cardholderId: integer('cardholder_id').references(() => cardholders.id),
    /** Before 0008 only; null once sealed (docs/card-data.md). */
    number: text('number'),
    numberCipher: text('number_cipher'),
    numberHash: text('number_hash'),
    /** The BIN (first 6 digits) and the number's length, kept in the clear to show it masked. */
    bin: text('bin'),
    numberLength: integer('number_length'),
    /** Last four digits, for searching without touching the full number. */
    last4: text('last4').notNull(),
    status: text('status').notNull().default('Active'),
    /** The issuer's account status code last set with the status (issuer_codes, kind accountStatus). */
    statusCode: text('status_code'),
    /** The card's expiry as printed on it, `MM/YY` (packages/domain normaliseCardExpiry); null: not known. */
    expiry: text('expiry'),
    /**
     * Failed self-registration proofs of this card since its last success or unlock, and when it locked
     * (seed 001 §4: after SELF_REGISTRATION_MAX_ATTEMPTS; only an administrator unlocks it).
     */
    registrationFailures: integer('registration_failures').notNull().default(0),
    registrationLockedAt: ts('registration_locked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_number_hash_key').on(t.numberHash),
    index('accounts_company_idx').on(t.companyId, t.last4),
    index('accounts_group_idx').on(t.accountGroupId),
    index('accounts_cardholder_idx').on(t.cardholderId),
    check(
      'accounts_sealed_check',
      sql`(${t.number} is null and ${t.numberCipher} is not null and ${t.numberHash} is not null and ${t.bin} ~ '^[0-9]{6}$' and ${t.numberLength} between 12 and 19) or (${t.number} ~ '^[0-9]{12,19}$' and ${t.numberCipher} is null)`,
    ),
    check('accounts_status_check', sql`${t.status} in ('Active', 'Suspended', 'Closed')`),
    check('accounts_expiry_check', sql`${t.expiry} ~ '^(0[1-9]|1[0-2])/[0-9]{2}$'`),
  ],
);

/**
 * Program options (packages/domain PROGRAM_OPTION_KEYS) at issuer or company level: one row per owner
 * and key. A company's row may only switch off what its issuer switched on (isFeatureEnabled).
 */
export const programOptions = pgTable(
  'program_options',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    level: text('level').notNull(),
    issuerId: integer('issuer_id').references(() => issuers.id),
    companyId: integer('company_id').references(() => companies.id),
    enabled: boolean('enabled').notNull().default(false),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // The check below leaves the other owner column empty, and NULLs never collide.
    uniqueIndex('program_options_issuer_key').on(t.issuerId, t.key),
    uniqueIndex('program_options_company_key').on(t.companyId, t.key),
    check(
      'program_options_owner_check',
      sql`(${t.level} = 'issuer' and ${t.issuerId} is not null and ${t.companyId} is null) or (${t.level} = 'company' and ${t.companyId} is not null and ${t.issuerId} is null)`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------------
// Roles and multi-user (seed 001 §4, §6; docs/authorization.md, docs/multi-user.md).

/** Roles an issuer defines: a name and the permissions it carries (packages/domain PERMISSIONS). */
export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    issuerId: integer('issuer_id')
      .notNull()
      .references(() => issuers.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    permissions: jsonb('permissions').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_issuer_name_key').on(t.issuerId, sql`lower(${t.name})`)],
);

/** The roles a user holds (only active users are given one: the service checks). */
export const userRoles = pgTable(
  'user_roles',
  {
    userPk: integer('user_pk')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    grantedByPk: integer('granted_by_pk').references(() => users.id, { onDelete: 'set null' }),
    grantedAt: ts('granted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userPk, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

/** A multi-user link: the user IDs of one person, all of one issuer. */
export const multiUserLinks = pgTable('multi_user_links', {
  id: serial('id').primaryKey(),
  issuerId: integer('issuer_id')
    .notNull()
    .references(() => issuers.id),
  createdByPk: integer('created_by_pk').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Members of a link: a user belongs to one link at most (the primary key). A membership is unconfirmed
 * until that user, signed in as itself, confirms it; only confirmed members may switch to each other.
 */
export const multiUserMembers = pgTable(
  'multi_user_members',
  {
    userPk: integer('user_pk')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: integer('link_id')
      .notNull()
      .references(() => multiUserLinks.id, { onDelete: 'cascade' }),
    confirmedAt: ts('confirmed_at'),
    addedByPk: integer('added_by_pk').references(() => users.id, { onDelete: 'set null' }),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [index('multi_user_members_link_idx').on(t.linkId)],
);

/**
 * One imported transaction file (modules/transactions import.ts, DESIGN §7): which issuer, who, what
 * file (its SHA-256), and what came of it. Only a file that was taken is recorded: a refused file
 * changes nothing (its report goes back to whoever sent it; the audit trail has the attempt).
 */
export const transactionImports = pgTable(
  'transaction_imports',
  {
    id: serial('id').primaryKey(),
    issuerId: integer('issuer_id').references(() => issuers.id),
    fileName: text('file_name').notNull(),
    fileSha256: text('file_sha256').notNull(),
    format: text('format').notNull(),
    rows: integer('rows').notNull(),
    imported: integer('imported').notNull(),
    duplicates: integer('duplicates').notNull(),
    byUserPk: integer('by_user_pk').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [check('transaction_imports_format_check', sql`${t.format} in ('csv', 'xml')`)],
);

/**
 * Card transactions (issue 15, DESIGN §7 "Money", "Transactions"): amount and tax in integer minor
 * units of an ISO 4217 currency, the account (never its number), the merchant, and where in its life
 * the transaction is (seed 001 §4: New → Reviewed → Approved → Locked; exported beside it). `reference`
 * is the issuer's id of the transaction: unique per issuer, so a second import of a file adds nothing.
 * Issuer and company are copied from the account when imported (an account never changes company), so
 * each scope's list runs on an index of its own (docs/transactions.md).
 */
export const transactions = pgTable(
  'transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * Copied from the account at import, in the same statement that finds it (no foreign key of their
     * own: the account's holds them, and a key check per row would halve the import; docs/transactions.md).
     */
    issuerId: integer('issuer_id').notNull(),
    companyId: integer('company_id').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    reference: text('reference').notNull(),
    transactionDate: date('transaction_date', { mode: 'string' }).notNull(),
    postingDate: date('posting_date', { mode: 'string' }).notNull(),
    merchantName: text('merchant_name').notNull(),
    merchantCity: text('merchant_city').notNull().default(''),
    merchantCountry: text('merchant_country').notNull(),
    mcc: text('mcc').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    tax: bigint('tax', { mode: 'bigint' }).notNull().default(sql`0`),
    status: text('status').notNull().default('New'),
    exportedAt: ts('exported_at'),
    /** Lines of its split (transaction_splits), 0 when not split: the list shows it without a join. */
    splitLines: smallint('split_lines').notNull().default(0),
    /** When a dispute was filed (transaction_disputes): the list shows it without a join. */
    disputedAt: ts('disputed_at'),
    /** The file it came in (transaction_imports), none for the demo data; no foreign key, as above. */
    importId: integer('import_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('transactions_issuer_reference_key').on(t.issuerId, t.reference),
    // The Transaction Summary's key (date, id) within each scope (docs/transactions.md), ascending: read
    // forwards for "oldest", backwards for "newest" (`ORDER BY … DESC` is NULLS FIRST, which a `DESC`
    // index — Drizzle writes NULLS LAST — cannot give; migration 0019, docs/paging.md).
    index('transactions_company_date_idx').on(t.companyId, t.transactionDate, t.id),
    index('transactions_account_date_idx').on(t.accountId, t.transactionDate, t.id),
    index('transactions_issuer_date_idx').on(t.issuerId, t.transactionDate, t.id),
    // A company's transactions in one status (what is left to review, approve, lock), in the same order.
    index('transactions_company_status_date_idx').on(t.companyId, t.status, t.transactionDate, t.id),
    check('transactions_status_check', sql`${t.status} in ('New', 'Reviewed', 'Approved', 'Locked')`),
    check('transactions_amount_check', sql`${t.amount} <> 0`),
    check('transactions_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('transactions_mcc_check', sql`${t.mcc} ~ '^[0-9]{4}$'`),
    check('transactions_split_lines_check', sql`${t.splitLines} = 0 or ${t.splitLines} between 2 and 100`),
  ],
);

/**
 * The spend picture's roll-up (docs/transactions.md "Spend picture"): per card account, month, merchant
 * category code and currency, the net spend in minor units and the count. Kept by a statement-level
 * trigger on `transactions` (migration 0012), so every insert — an import's COPY, its staged insert, the
 * demo data — adds to it in the same transaction; amounts, dates, codes and currencies of a transaction
 * never change, and a transaction is never deleted. The issuer and company are copied for the scopes.
 */
export const spendMonths = pgTable(
  'spend_months',
  {
    accountId: integer('account_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    mcc: text('mcc').notNull(),
    currency: text('currency').notNull(),
    issuerId: integer('issuer_id').notNull(),
    companyId: integer('company_id').notNull(),
    minor: bigint('minor', { mode: 'bigint' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.month, t.mcc, t.currency] }),
    index('spend_months_company_idx').on(t.companyId, t.month),
    index('spend_months_issuer_idx').on(t.issuerId, t.month),
  ],
);

/**
 * A split transaction's lines (issue 15 item 5, seed 001 §5): 2–100, amounts and taxes in minor units of
 * the transaction's currency totalling its own exactly (checked by packages/domain checkSplit before they
 * are written, in the transaction that writes them). Unsplit deletes them.
 */
export const transactionSplits = pgTable(
  'transaction_splits',
  {
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    line: smallint('line').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    tax: bigint('tax', { mode: 'bigint' }).notNull(),
    description: text('description').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.transactionId, t.line] }),
    check('transaction_splits_line_check', sql`${t.line} between 1 and 100`),
    check('transaction_splits_amount_check', sql`${t.amount} <> 0`),
  ],
);

/**
 * An issuer's code lists (issue 15 items 1 and 6, seed 001 §5, §9), one table for the three: dispute
 * reasons, account status codes (each mapped to a system status, 1 character: A, S or C) and maintenance
 * reason codes. Each list at most 99; a code of at most 2 characters without spaces, unique in its list;
 * a description of at most 75 (packages/domain issuer-codes.ts).
 */
export const issuerCodes = pgTable(
  'issuer_codes',
  {
    id: serial('id').primaryKey(),
    issuerId: integer('issuer_id')
      .notNull()
      .references(() => issuers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    code: text('code').notNull(),
    description: text('description').notNull(),
    /** Account status codes only: the system status it sets (A Active, S Suspended, C Closed). */
    systemStatus: text('system_status'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('issuer_codes_issuer_kind_code_key').on(t.issuerId, t.kind, t.code),
    check('issuer_codes_kind_check', sql`${t.kind} in ('dispute', 'accountStatus', 'maintenance')`),
    check('issuer_codes_code_check', sql`${t.code} ~ '^[^[:space:]]{1,2}$'`),
    check(
      'issuer_codes_system_status_check',
      sql`(${t.kind} = 'accountStatus') = (${t.systemStatus} is not null) and (${t.systemStatus} is null or ${t.systemStatus} in ('A', 'S', 'C'))`,
    ),
  ],
);

/**
 * A cardholder's maintenance reason codes (seed 001 §9: at most 10 per cardholder), codes of its
 * issuer's maintenance list, kept by code.
 */
export const cardholderReasons = pgTable(
  'cardholder_reasons',
  {
    cardholderId: integer('cardholder_id')
      .notNull()
      .references(() => cardholders.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cardholderId, t.code] })],
);

/**
 * A real card (issue 15 item 1, seed 001 "Real card maintenance with alias"): a company's card account
 * without a cardholder (a purchasing or lodge card, the funding card behind virtual card numbers) known
 * in the application by its alias. The number is the account's, sealed like every other; the alias is
 * unique in the company (case-insensitively, `alias_key`). In use — transactions posted to its account —
 * it is marked inactive instead of deleted (seed 001 §4).
 */
export const realCards = pgTable(
  'real_cards',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    alias: text('alias').notNull(),
    /** lower(alias): the uniqueness and the list's sort key. */
    aliasKey: text('alias_key').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('real_cards_account_key').on(t.accountId),
    uniqueIndex('real_cards_company_alias_key').on(t.companyId, t.aliasKey),
    check('real_cards_alias_check', sql`length(${t.alias}) between 1 and 40`),
  ],
);

/**
 * A dispute filed on a transaction (issue 15 item 6): one per transaction, never changed after it is
 * submitted (seed 001 §4) — no statement updates its form; the reason is copied as it was.
 */
export const transactionDisputes = pgTable(
  'transaction_disputes',
  {
    id: serial('id').primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('Submitted'),
    reasonCode: text('reason_code').notNull(),
    reasonDescription: text('reason_description').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    explanation: text('explanation').notNull(),
    byUserPk: integer('by_user_pk').references(() => users.id, { onDelete: 'set null' }),
    submittedAt: ts('submitted_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('transaction_disputes_transaction_key').on(t.transactionId),
    check('transaction_disputes_amount_check', sql`${t.amount} > 0`),
    check('transaction_disputes_status_check', sql`${t.status} in ('Submitted')`),
  ],
);

/**
 * General-ledger exports (issue 15 item 7): one company's approved transactions over at most 30 days,
 * marked exported; the file is written from the rows that carry the export's id, whenever it is asked for.
 */
export const transactionExports = pgTable(
  'transaction_exports',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    format: text('format').notNull(),
    transactions: integer('transactions').notNull(),
    rows: integer('rows').notNull(),
    byUserPk: integer('by_user_pk').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('transaction_exports_company_idx').on(t.companyId, t.id),
    check('transaction_exports_format_check', sql`${t.format} in ('csv', 'xlsx')`),
  ],
);

/**
 * The transactions of each export, so its file reads the same whenever it is asked for (a later export
 * that takes a transaction again does not change an earlier file); keyed in the file's order (date, id).
 */
export const transactionExportRows = pgTable(
  'transaction_export_rows',
  {
    exportId: integer('export_id')
      .notNull()
      .references(() => transactionExports.id, { onDelete: 'cascade' }),
    transactionDate: date('transaction_date', { mode: 'string' }).notNull(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.exportId, t.transactionDate, t.transactionId] })],
);

/** Text compared byte by byte (`COLLATE "C"`): a key whose prefix search and order one btree index answers. */
const keyText = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * A company's accounting codes (issue 16 item 1, docs/accounting.md): the segments of its ledger
 * string, in `position` order. A list code keeps its values below; a text code is typed freely up to
 * `max_length`. `depends_on_id` names the list code whose chosen value decides this code's values (never
 * circular, never on or as a text code: packages/domain dependencyProblem). `value_count` is kept with
 * every value added or removed, so the 10,000-values rule needs no count.
 */
export const accountingCodes = pgTable(
  'accounting_codes',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    /** upper(name): names are unique in the company whatever their case. */
    nameKey: text('name_key').notNull(),
    position: smallint('position').notNull(),
    kind: text('kind').notNull(),
    entry: text('entry').notNull().default('list'),
    maxLength: smallint('max_length').notNull().default(25),
    dependsOnId: integer('depends_on_id').references((): AnyPgColumn => accountingCodes.id),
    active: boolean('active').notNull().default(true),
    valueCount: integer('value_count').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounting_codes_company_name_key').on(t.companyId, t.nameKey),
    index('accounting_codes_company_position_idx').on(t.companyId, t.position),
    index('accounting_codes_depends_on_idx').on(t.dependsOnId),
    check('accounting_codes_kind_check', sql`${t.kind} in ('list', 'text')`),
    check('accounting_codes_entry_check', sql`${t.entry} in ('list', 'entry')`),
    check('accounting_codes_max_length_check', sql`${t.maxLength} between 1 and 25`),
    check('accounting_codes_value_count_check', sql`${t.valueCount} >= 0`),
  ],
);

/**
 * A list code's values (customer codes, seed 001 §5: 1–25 characters, not all zeros), unique in the
 * code whatever their case (`value_key`, upper case, byte order). A dependent code's value belongs to
 * one value of the code it depends on (`parent_id`). Searched by the start of the code or of the
 * description over `(code_id, value_key)` and `(code_id, description_key)`; listed by `value_key`.
 */
export const accountingValues = pgTable(
  'accounting_values',
  {
    id: serial('id').primaryKey(),
    codeId: integer('code_id')
      .notNull()
      .references(() => accountingCodes.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    valueKey: keyText('value_key').notNull(),
    description: text('description').notNull().default(''),
    descriptionKey: keyText('description_key').notNull().default(''),
    parentId: integer('parent_id').references((): AnyPgColumn => accountingValues.id),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounting_values_code_value_key').on(t.codeId, t.valueKey),
    index('accounting_values_code_description_idx').on(t.codeId, t.descriptionKey),
    index('accounting_values_code_parent_idx').on(t.codeId, t.parentId, t.valueKey),
    index('accounting_values_parent_idx').on(t.parentId),
    check('accounting_values_value_check', sql`length(${t.value}) between 1 and 25`),
  ],
);

/**
 * A named part of one list code's values (issue 16 item 2): a scheme line may offer only these — e.g.
 * the cost centres of one division. Cannot be deleted while a scheme uses it.
 */
export const accountingSubsets = pgTable(
  'accounting_subsets',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    codeId: integer('code_id')
      .notNull()
      .references(() => accountingCodes.id),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounting_subsets_company_name_key').on(t.companyId, t.nameKey),
    index('accounting_subsets_code_idx').on(t.codeId),
  ],
);

export const accountingSubsetValues = pgTable(
  'accounting_subset_values',
  {
    subsetId: integer('subset_id')
      .notNull()
      .references(() => accountingSubsets.id, { onDelete: 'cascade' }),
    valueId: integer('value_id')
      .notNull()
      .references(() => accountingValues.id),
  },
  (t) => [
    primaryKey({ columns: [t.subsetId, t.valueId] }),
    index('accounting_subset_values_value_idx').on(t.valueId),
  ],
);

/**
 * Which codes apply to an account (issue 16 item 2): a scheme's lines name the codes, in order, each
 * required or not, with who may change it on a transaction (`override`, packages/domain OVERRIDE_LEVELS)
 * and an optional subset of its values. One scheme may be the company's default.
 */
export const accountingSchemes = pgTable(
  'accounting_schemes',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounting_schemes_company_name_key').on(t.companyId, t.nameKey),
    uniqueIndex('accounting_schemes_company_default_key').on(t.companyId).where(sql`${t.isDefault}`),
  ],
);

export const accountingSchemeLines = pgTable(
  'accounting_scheme_lines',
  {
    schemeId: integer('scheme_id')
      .notNull()
      .references(() => accountingSchemes.id, { onDelete: 'cascade' }),
    codeId: integer('code_id')
      .notNull()
      .references(() => accountingCodes.id),
    position: smallint('position').notNull(),
    required: boolean('required').notNull().default(false),
    override: text('override').notNull().default('cardholder'),
    subsetId: integer('subset_id').references(() => accountingSubsets.id),
  },
  (t) => [
    primaryKey({ columns: [t.schemeId, t.codeId] }),
    index('accounting_scheme_lines_code_idx').on(t.codeId),
    index('accounting_scheme_lines_subset_idx').on(t.subsetId),
    check(
      'accounting_scheme_lines_override_check',
      sql`${t.override} in ('cardholder', 'manager', 'administrator', 'none')`,
    ),
  ],
);

/** A card account's own scheme (else its group's, else the company's default). */
export const accountAccounting = pgTable(
  'account_accounting',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.id),
    schemeId: integer('scheme_id')
      .notNull()
      .references(() => accountingSchemes.id),
  },
  (t) => [index('account_accounting_scheme_idx').on(t.schemeId)],
);

/** An account group's scheme, for its accounts without one of their own. */
export const accountGroupAccounting = pgTable(
  'account_group_accounting',
  {
    groupId: integer('group_id')
      .primaryKey()
      .references(() => accountGroups.id),
    schemeId: integer('scheme_id')
      .notNull()
      .references(() => accountingSchemes.id),
  },
  (t) => [index('account_group_accounting_scheme_idx').on(t.schemeId)],
);

/** A card account's default coding: per code, a value (list code) or text (text code). */
export const accountCodingDefaults = pgTable(
  'account_coding_defaults',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    codeId: integer('code_id')
      .notNull()
      .references(() => accountingCodes.id, { onDelete: 'cascade' }),
    valueId: integer('value_id').references(() => accountingValues.id),
    text: text('text'),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.codeId] }),
    index('account_coding_defaults_code_idx').on(t.codeId),
    index('account_coding_defaults_value_idx').on(t.valueId),
    check('account_coding_defaults_one_check', sql`(${t.valueId} is null) <> (${t.text} is null)`),
  ],
);

/**
 * A mass allocation (issue 16 item 3): one coding applied to many of a company's transactions at once,
 * all or nothing; its items keep each transaction's allocation from before, so it can be undone as a
 * whole while none of them has changed since.
 */
export const massAllocations = pgTable(
  'mass_allocations',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    byUserPk: integer('by_user_pk').references(() => users.id, { onDelete: 'set null' }),
    byUserId: text('by_user_id').notNull(),
    transactions: integer('transactions').notNull(),
    /** Transactions of the date range left as they were: locked, exported or split (they cannot take it). */
    skipped: integer('skipped').notNull().default(0),
    /** The coding applied: [{ percent, coding: { code name: value } }], as shown in the list. */
    coding: jsonb('coding').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    undoneAt: ts('undone_at'),
  },
  (t) => [index('mass_allocations_company_idx').on(t.companyId, t.id)],
);

export const massAllocationItems = pgTable(
  'mass_allocation_items',
  {
    batchId: integer('batch_id')
      .notNull()
      .references(() => massAllocations.id, { onDelete: 'cascade' }),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    /** The transaction's allocation lines before (their amounts as text, values by id), [] when it had none. */
    before: jsonb('before').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.transactionId] }),
    index('mass_allocation_items_transaction_idx').on(t.transactionId),
  ],
);

/**
 * A transaction's cost allocation (issue 16 item 3): lines of its whole amount (`split_line` 0) or of
 * one line of its split, by amount (and percent when allocated so), totalling it exactly; each line's
 * coding in allocation_values. `batch_id`: the mass allocation that wrote it. Splitting or unsplitting
 * a transaction removes its allocation (the lines it divided are gone).
 */
export const transactionAllocations = pgTable(
  'transaction_allocations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    splitLine: smallint('split_line').notNull().default(0),
    position: smallint('position').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    percent: smallint('percent'),
    batchId: integer('batch_id').references(() => massAllocations.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('transaction_allocations_line_key').on(t.transactionId, t.splitLine, t.position),
    index('transaction_allocations_batch_idx').on(t.batchId),
    check('transaction_allocations_amount_check', sql`${t.amount} <> 0`),
    check('transaction_allocations_percent_check', sql`${t.percent} between 1 and 100`),
  ],
);

export const allocationValues = pgTable(
  'allocation_values',
  {
    allocationId: bigint('allocation_id', { mode: 'number' })
      .notNull()
      .references(() => transactionAllocations.id, { onDelete: 'cascade' }),
    codeId: integer('code_id')
      .notNull()
      .references(() => accountingCodes.id),
    valueId: integer('value_id').references(() => accountingValues.id),
    text: text('text'),
  },
  (t) => [
    primaryKey({ columns: [t.allocationId, t.codeId] }),
    index('allocation_values_code_idx').on(t.codeId),
    index('allocation_values_value_idx').on(t.valueId),
    check('allocation_values_one_check', sql`(${t.valueId} is null) <> (${t.text} is null)`),
  ],
);

/**
 * A company's custom data fields (issue 16 item 4): its own fields captured on its transactions and
 * carried into the export — text, number, date (in a chosen format) or a list of values (packages/domain
 * custom-fields.ts has the rules).
 */
export const customFields = pgTable(
  'custom_fields',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    label: text('label').notNull(),
    labelKey: text('label_key').notNull(),
    position: smallint('position').notNull(),
    type: text('type').notNull(),
    length: smallint('length').notNull().default(80),
    decimals: smallint('decimals').notNull().default(0),
    dateFormat: text('date_format').notNull().default('YYYY-MM-DD'),
    required: boolean('required').notNull().default(false),
    active: boolean('active').notNull().default(true),
    /** A list field's values, in order. */
    listValues: jsonb('list_values').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('custom_fields_company_label_key').on(t.companyId, t.labelKey),
    check('custom_fields_type_check', sql`${t.type} in ('text', 'number', 'date', 'list')`),
  ],
);

/** A transaction's value of a custom field, in its stored form (an exact decimal, an ISO date, the list's spelling). */
export const transactionCustomValues = pgTable(
  'transaction_custom_values',
  {
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    fieldId: integer('field_id')
      .notNull()
      .references(() => customFields.id),
    value: text('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.transactionId, t.fieldId] }),
    index('transaction_custom_values_field_idx').on(t.fieldId),
  ],
);

/**
 * A company's expense types (issue 17 item 1; packages/domain expenses.ts has the rules): at most 50, a
 * name unique in any case, general or mileage, with at most 10 properties its lines capture.
 */
export const expenseTypes = pgTable(
  'expense_types',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    category: text('category').notNull().default('general'),
    properties: jsonb('properties').$type<ExpenseProperty[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('expense_types_company_name_key').on(t.companyId, t.nameKey),
    check('expense_types_category_check', sql`${t.category} in ('general', 'mileage')`),
  ],
);

/** A company's expense policy (at most one): its currency, receipts, descriptions and instructions. */
export const expensePolicies = pgTable(
  'expense_policies',
  {
    companyId: integer('company_id')
      .primaryKey()
      .references(() => companies.id),
    currency: text('currency').notNull(),
    /** Minor units: lines above it need a receipt; null when only the types' own amounts say so. */
    receiptAboveMinor: bigint('receipt_above_minor', { mode: 'bigint' }),
    descriptionMaxLength: smallint('description_max_length').notNull().default(255),
    workflowInstructions: text('workflow_instructions').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('expense_policies_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('expense_policies_description_check', sql`${t.descriptionMaxLength} between 10 and 255`),
    check(
      'expense_policies_receipt_check',
      sql`${t.receiptAboveMinor} is null or ${t.receiptAboveMinor} > 0`,
    ),
  ],
);

/** The policy's limit and receipt amount for one expense type, in the policy's currency. */
export const expensePolicyLimits = pgTable(
  'expense_policy_limits',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => expensePolicies.companyId, { onDelete: 'cascade' }),
    typeId: integer('type_id')
      .notNull()
      .references(() => expenseTypes.id, { onDelete: 'cascade' }),
    limitMinor: bigint('limit_minor', { mode: 'bigint' }),
    receiptAboveMinor: bigint('receipt_above_minor', { mode: 'bigint' }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.typeId] }),
    index('expense_policy_limits_type_idx').on(t.typeId),
    check('expense_policy_limits_limit_check', sql`${t.limitMinor} is null or ${t.limitMinor} > 0`),
    check(
      'expense_policy_limits_receipt_check',
      sql`${t.receiptAboveMinor} is null or ${t.receiptAboveMinor} > 0`,
    ),
  ],
);

/** A company's mileage rates (at most 50): per km or mile, in 1/10,000 of the currency's major unit. */
export const mileageRates = pgTable(
  'mileage_rates',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    unit: text('unit').notNull(),
    currency: text('currency').notNull(),
    rateE4: bigint('rate_e4', { mode: 'bigint' }).notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mileage_rates_company_name_key').on(t.companyId, t.nameKey),
    // Seed 001 §5: no duplicate rate per unit.
    uniqueIndex('mileage_rates_company_rate_key').on(t.companyId, t.unit, t.currency, t.rateE4),
    check('mileage_rates_unit_check', sql`${t.unit} in ('km', 'mi')`),
    check('mileage_rates_rate_check', sql`${t.rateE4} > 0`),
    check('mileage_rates_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

/** A company's tax rates (at most 10), in 1/1,000 of a percent. */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    rateE3: integer('rate_e3').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tax_rates_company_name_key').on(t.companyId, t.nameKey),
    check('tax_rates_rate_check', sql`${t.rateE3} > 0 and ${t.rateE3} <= 100000`),
  ],
);

/**
 * A company's approval profiles: an approval limit (required) in a currency, the share of its approvers
 * who must approve a step routed to it, and its approvers (approval_profile_members).
 */
export const approvalProfiles = pgTable(
  'approval_profiles',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    currency: text('currency').notNull(),
    limitMinor: bigint('limit_minor', { mode: 'bigint' }).notNull(),
    approvalPercentage: smallint('approval_percentage').notNull().default(100),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('approval_profiles_company_name_key').on(t.companyId, t.nameKey),
    uniqueIndex('approval_profiles_company_id_key').on(t.companyId, t.id),
    check('approval_profiles_limit_check', sql`${t.limitMinor} > 0`),
    check('approval_profiles_percentage_check', sql`${t.approvalPercentage} between 1 and 100`),
    check('approval_profiles_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

/** An approver of a profile: a user of the profile's company, in at most one profile (their limit). */
export const approvalProfileMembers = pgTable(
  'approval_profile_members',
  {
    profileId: integer('profile_id')
      .notNull()
      .references(() => approvalProfiles.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
  },
  (t) => [
    primaryKey({ columns: [t.profileId, t.userId] }),
    uniqueIndex('approval_profile_members_user_key').on(t.userId),
  ],
);

/** Reports above `amount` (in its currency) need a step approved by the profile (issue 17 item 3). */
export const approvalThresholds = pgTable(
  'approval_thresholds',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    currency: text('currency').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    profileId: integer('profile_id')
      .notNull()
      .references(() => approvalProfiles.id),
  },
  (t) => [
    uniqueIndex('approval_thresholds_company_amount_key').on(t.companyId, t.currency, t.amountMinor),
    index('approval_thresholds_profile_idx').on(t.profileId),
    check('approval_thresholds_amount_check', sql`${t.amountMinor} > 0`),
    check('approval_thresholds_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

/**
 * Files stored content-addressed (DESIGN §7 "Files"): receipts today, by the SHA-256 of their bytes
 * (a file uploaded twice is stored once), in the database so every instance sees them; type-checked by
 * content and EICAR-checked before they are written (kernel/files.ts).
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    sha256: text('sha256').primaryKey(),
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('stored_files_sha256_check', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check('stored_files_size_check', sql`${t.size} between 1 and 4194304`),
  ],
);

/**
 * Expense reports (issue 17 item 2, packages/domain expense-reports.ts): a cardholder's, in its
 * company, in one currency; `total_minor` and `line_count` are written with every change of its lines,
 * in the same transaction (the total always equals the lines). `round` counts submissions: approvals of
 * earlier rounds do not count. A reroute waiting for its approver is `reroute_pk` and the step it takes.
 */
export const expenseReports = pgTable(
  'expense_reports',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    ownerPk: integer('owner_pk')
      .notNull()
      .references(() => users.id),
    cardholderId: integer('cardholder_id')
      .notNull()
      .references(() => cardholders.id),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('Saved'),
    totalMinor: bigint('total_minor', { mode: 'bigint' }).notNull().default(sql`0`),
    lineCount: smallint('line_count').notNull().default(0),
    flaggedCount: smallint('flagged_count').notNull().default(0),
    round: integer('round').notNull().default(0),
    reroutePk: integer('reroute_pk').references(() => users.id),
    rerouteStep: text('reroute_step'),
    submittedAt: ts('submitted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // A cardholder's reports, newest change first (the list's key), and a company's, in one status or all.
    // Ascending, read backwards: `ORDER BY updated_at DESC, id DESC` is NULLS FIRST, which an index
    // declared `DESC` (NULLS LAST) cannot give — the planner sorted instead (bench/expenses.ts found it).
    index('expense_reports_owner_idx').on(t.ownerPk, t.updatedAt, t.id),
    index('expense_reports_company_idx').on(t.companyId, t.updatedAt, t.id),
    index('expense_reports_company_status_idx').on(t.companyId, t.status, t.updatedAt, t.id),
    // Open reports of a cardholder (deactivation refuses them) and held ones of a company (a new policy).
    index('expense_reports_cardholder_status_idx').on(t.cardholderId, t.status),
    check(
      'expense_reports_status_check',
      sql`${t.status} in ('Saved', 'Held', 'Submitted', 'Approved', 'SentBack')`,
    ),
    check('expense_reports_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('expense_reports_lines_check', sql`${t.lineCount} between 0 and 200`),
  ],
);

/**
 * A report's lines: a card transaction of its cardholder (on one report at most: the unique index), an
 * out-of-pocket cost, or a journey (odometer start below end, priced by a mileage rate); amounts in minor
 * units of the report's currency; at most one receipt each (stored_files).
 */
export const expenseLines = pgTable(
  'expense_lines',
  {
    id: serial('id').primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => expenseReports.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    typeId: integer('type_id')
      .notNull()
      .references(() => expenseTypes.id),
    transactionId: bigint('transaction_id', { mode: 'number' }).references(() => transactions.id),
    expenseDate: date('expense_date', { mode: 'string' }).notNull(),
    description: text('description').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    taxRateId: integer('tax_rate_id').references(() => taxRates.id),
    taxMinor: bigint('tax_minor', { mode: 'bigint' }),
    mileageRateId: integer('mileage_rate_id').references(() => mileageRates.id),
    odometerStart: integer('odometer_start'),
    odometerEnd: integer('odometer_end'),
    properties: jsonb('properties').$type<Record<string, string>>().notNull().default({}),
    receiptSha256: text('receipt_sha256').references(() => storedFiles.sha256),
    receiptName: text('receipt_name'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('expense_lines_report_idx').on(t.reportId, t.id),
    uniqueIndex('expense_lines_transaction_key').on(t.transactionId),
    index('expense_lines_type_idx').on(t.typeId),
    index('expense_lines_tax_rate_idx').on(t.taxRateId),
    index('expense_lines_mileage_rate_idx').on(t.mileageRateId),
    index('expense_lines_receipt_idx').on(t.receiptSha256),
    check('expense_lines_kind_check', sql`${t.kind} in ('card', 'cash', 'mileage')`),
    check('expense_lines_card_check', sql`(${t.kind} = 'card') = (${t.transactionId} is not null)`),
    check(
      'expense_lines_mileage_check',
      sql`(${t.kind} = 'mileage') = (${t.mileageRateId} is not null) and (${t.kind} <> 'mileage' or ${t.odometerStart} < ${t.odometerEnd})`,
    ),
  ],
);

/** What happened to a report (its history) and the approvals of each round. */
export const expenseReportActions = pgTable(
  'expense_report_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => expenseReports.id, { onDelete: 'cascade' }),
    round: integer('round').notNull(),
    action: text('action').notNull(),
    byPk: integer('by_pk').references(() => users.id),
    step: text('step'),
    targetPk: integer('target_pk').references(() => users.id),
    note: text('note').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('expense_report_actions_report_idx').on(t.reportId, t.id),
    check(
      'expense_report_actions_action_check',
      sql`${t.action} in ('submitted', 'held', 'resubmitted', 'approved', 'sentBack', 'rerouted')`,
    ),
  ],
);

/** Who a submitted report waits for now (rewritten at every step): the approver's queue reads it. */
export const expenseReportPending = pgTable(
  'expense_report_pending',
  {
    userPk: integer('user_pk')
      .notNull()
      .references(() => users.id),
    reportId: integer('report_id')
      .notNull()
      .references(() => expenseReports.id, { onDelete: 'cascade' }),
    since: ts('since').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userPk, t.reportId] }),
    // The queue's key: the oldest waiting first.
    index('expense_report_pending_queue_idx').on(t.userPk, t.since, t.reportId),
    index('expense_report_pending_report_idx').on(t.reportId),
  ],
);

/**
 * OpenID Connect identity providers (docs/sso.md): each belongs to one co-brand or one company. The
 * client secret is sealed with the server's token key (AES-256-GCM), never stored in the clear.
 */
export const identityProviders = pgTable(
  'identity_providers',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    displayName: text('display_name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretEnc: text('client_secret_enc'),
    scope: text('scope').notNull().default('openid'),
    subjectClaim: text('subject_claim').notNull().default('sub'),
    /**
     * 'oidc', or 'saml' (SAML 2.0, docs/sso.md "SAML"): then `issuer` is the IdP's entity ID, `client_id`
     * our service provider's entity ID, and the IdP's SSO URL, signing certificate (PEM) and logout page
     * are the saml_ columns.
     */
    protocol: text('protocol').notNull().default('oidc'),
    samlEntryPoint: text('saml_entry_point'),
    samlCertificate: text('saml_certificate'),
    samlLogoutUrl: text('saml_logout_url'),
    cobrand: text('cobrand').references(() => cobrands.name),
    companyId: integer('company_id').references((): AnyPgColumn => companies.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('identity_providers_key').on(t.key),
    // A co-brand sends all its users to one provider.
    uniqueIndex('identity_providers_cobrand_key').on(t.cobrand),
    index('identity_providers_company_idx').on(t.companyId),
    check('identity_providers_owner_check', sql`(${t.cobrand} is null) <> (${t.companyId} is null)`),
    check(
      'identity_providers_protocol_check',
      sql`(${t.protocol} = 'oidc' and ${t.samlEntryPoint} is null and ${t.samlCertificate} is null) or (${t.protocol} = 'saml' and ${t.samlEntryPoint} is not null and ${t.samlCertificate} is not null and ${t.clientSecretEnc} is null)`,
    ),
  ],
);

/**
 * A sign-in on its way through a provider: the SHA-256 of its `state`, of the browser's binding cookie,
 * and the nonce and PKCE verifier it will be checked with. Taken (deleted) by the first callback that
 * names it, so a state works once; older than SSO_ATTEMPT_MINUTES it works never.
 */
export const ssoAttempts = pgTable(
  'sso_attempts',
  {
    stateHash: text('state_hash').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    bindingHash: text('binding_hash').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** A SAML sign-in whose response was verified: the subject it asserted, for the binding check to release. */
    subject: text('subject'),
    cobrand: text('cobrand'),
    locale: text('locale').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sso_attempts_created_idx').on(t.createdAt)],
);

/**
 * Company self-registration (issue 18 item 1, docs/self-registration.md): an issuer's invitation of a
 * company by name with a corporate code (6–10 digits), the company's application with its first program
 * administrator, and the issuer's decision. Wrong names for a code count against it and lock it after
 * SELF_REGISTRATION_MAX_ATTEMPTS; an administrator unlocks it.
 */
export const companyRegistrations = pgTable(
  'company_registrations',
  {
    id: serial('id').primaryKey(),
    issuerId: integer('issuer_id')
      .notNull()
      .references(() => issuers.id),
    code: text('code').notNull(),
    /** The company's name as the bank knows it (the new company's name1). */
    companyName: text('company_name').notNull(),
    status: text('status').notNull().default('Invited'),
    failures: integer('failures').notNull().default(0),
    lockedAt: ts('locked_at'),
    invitedBy: integer('invited_by').references((): AnyPgColumn => users.id),
    invitedAt: ts('invited_at').notNull().defaultNow(),
    // The application.
    companyName2: text('company_name2'),
    adminFirstName: text('admin_first_name'),
    adminLastName: text('admin_last_name'),
    adminUserId: text('admin_user_id'),
    adminEmail: text('admin_email'),
    adminLocale: text('admin_locale'),
    appliedAt: ts('applied_at'),
    // The decision.
    decidedBy: integer('decided_by').references((): AnyPgColumn => users.id),
    decidedAt: ts('decided_at'),
    declineReason: text('decline_reason'),
    companyId: integer('company_id').references(() => companies.id),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('company_registrations_code_key').on(t.code),
    // The issuer's list, newest first, and by status (kernel/paging.ts reads them backwards).
    index('company_registrations_issuer_idx').on(t.issuerId, t.id),
    index('company_registrations_issuer_status_idx').on(t.issuerId, t.status, t.id),
    check('company_registrations_code_check', sql`${t.code} ~ '^[0-9]{6,10}$'`),
    check(
      'company_registrations_status_check',
      sql`${t.status} in ('Invited', 'Applied', 'Approved', 'Declined')`,
    ),
    check('company_registrations_applied_check', sql`(${t.status} = 'Invited') = (${t.appliedAt} is null)`),
  ],
);

/**
 * New card account applications (issue 18 item 3, docs/self-registration.md): a prospective
 * cardholder's application to a company, and the company's decision. An approval creates the
 * cardholder and issues the card account (`cardholder_id`, `account_id`).
 */
export const cardApplications = pgTable(
  'card_applications',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    status: text('status').notNull().default('Pending'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    locale: text('locale').notNull(),
    reason: text('reason').notNull().default(''),
    appliedAt: ts('applied_at').notNull().defaultNow(),
    decidedBy: integer('decided_by').references((): AnyPgColumn => users.id),
    decidedAt: ts('decided_at'),
    declineReason: text('decline_reason'),
    cardholderId: integer('cardholder_id').references(() => cardholders.id),
    accountId: integer('account_id').references(() => accounts.id),
  },
  (t) => [
    // The company's queue, newest first, and by status (kernel/paging.ts reads them backwards).
    index('card_applications_company_idx').on(t.companyId, t.id),
    index('card_applications_company_status_idx').on(t.companyId, t.status, t.id),
    check('card_applications_status_check', sql`${t.status} in ('Pending', 'Approved', 'Declined')`),
    check(
      'card_applications_decided_check',
      sql`(${t.status} = 'Pending') = (${t.decidedAt} is null) and (${t.status} = 'Approved') = (${t.accountId} is not null)`,
    ),
  ],
);
