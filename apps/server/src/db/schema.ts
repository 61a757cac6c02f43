import type { Cobrand } from '@cardportal/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
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
  },
  (t) => [uniqueIndex('users_user_id_key').on(t.userId), uniqueIndex('users_ldap_id_key').on(t.ldapId)],
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

/** Audit log of sign-in events. Never holds a secret. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    event: text('event').notNull(),
    userPk: integer('user_pk').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index('audit_events_at_idx').on(t.at), index('audit_events_user_idx').on(t.userPk, t.at)],
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
