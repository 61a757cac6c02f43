import { LIMITS, type SessionStage } from '@cardportal/domain';
import { and, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db, Executor } from '../db/client.ts';
import { preparedStatement, type StatementTemplate } from '../db/prepared.ts';
import { sessions } from '../db/schema.ts';
import { sendError } from '../http/errors.ts';
import type { Secrets } from '../kernel/secrets.ts';
import { derivedToken, randomId, safeEqual, sha256 } from './crypto.ts';

export const SESSION_COOKIE = 'cpsid';
export const CSRF_COOKIE = 'sec-token';
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A session's last-seen time is written at most this often (the idle timeout is minutes). */
const TOUCH_INTERVAL_MS = 15_000;
/** Absolute lifetime: however active, a session ends 12 hours after its sign-in (ASVS V3.3.2). */
export const SESSION_MAX_AGE_MS = 12 * 60 * 60 * 1000;
const tooOld = sql`now() - make_interval(secs => ${SESSION_MAX_AGE_MS / 1000})`;

export type SessionRow = typeof sessions.$inferSelect;

type RawStatement = (db: Executor, values: Record<string, unknown>) => Promise<Record<string, unknown>[]>;

/**
 * Ends every session of a user — but the one whose id hash is `except` (the session that changed the
 * password stays: ASVS V3.3.3).
 */
export async function endSessionsOf(db: Executor, userPk: number, except?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      except ? and(eq(sessions.userPk, userPk), ne(sessions.idHash, except)) : eq(sessions.userPk, userPk),
    );
}

export interface NewSession {
  userPk: number;
  stage: SessionStage;
  cobrand: string;
  locale: string;
  sso: boolean;
  data?: Record<string, unknown>;
  /** When the sign-in happened (default now): a session that replaces another keeps its absolute lifetime. */
  createdAt?: Date;
}

/**
 * Server-side sessions and CSRF tokens (DESIGN §5). The cookie holds an opaque random id; the database
 * holds its SHA-256. Visitors without a session get an anonymous id (no database row); the sec-token
 * is an HMAC of the id, so the server "remembers" it for exactly that visitor without storing it.
 */
export class SessionManager {
  private readonly cache = new WeakMap<FastifyRequest, Promise<SessionRow | null>>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly secrets: Secrets,
  ) {}

  csrfTokenFor(sessionId: string): string {
    return derivedToken(this.secrets.hmac, 'csrf', sessionId, LIMITS.csrfTokenLength);
  }

  /** The session id the request carries, if well-formed. */
  idOf(request: FastifyRequest): string | undefined {
    const id = request.cookies[SESSION_COOKIE];
    return id && ID_PATTERN.test(id) ? id : undefined;
  }

  /** The live session of the request (any stage), or null. Memoised per request. */
  get(request: FastifyRequest): Promise<SessionRow | null> {
    let pending = this.cache.get(request);
    if (!pending) {
      pending = this.load(request);
      this.cache.set(request, pending);
    }
    return pending;
  }

  private async load(request: FastifyRequest): Promise<SessionRow | null> {
    const id = this.idOf(request);
    if (!id) return null;
    const idHash = sha256(id);
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(
        and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, sql`now()`), gt(sessions.createdAt, tooOld)),
      )
      .limit(1);
    if (!row) return null;
    if (Date.now() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await this.touch(row);
    return row;
  }

  /** Renews the idle timeout (pingPortal.json and ordinary activity). */
  async touch(row: SessionRow): Promise<void> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.sessionIdleMs);
    await this.db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.idHash, row.idHash));
    row.lastSeenAt = now;
    row.expiresAt = expiresAt;
  }

  /**
   * Starts a session (sign-in or a stage change): always a new id, so an id known before sign-in is
   * worthless after it; the previous session of the request is deleted. `alongside`: statements
   * committed with the session's row, in its one statement (the sign-in's success, issue 19).
   */
  async start(
    request: FastifyRequest,
    reply: FastifyReply,
    values: NewSession,
    alongside?: StatementTemplate,
  ): Promise<SessionRow> {
    const prior = this.idOf(request);
    const id = randomId();
    const now = new Date();
    const createdAt = values.createdAt ?? now;
    const expiresAt = new Date(now.getTime() + this.config.sessionIdleMs);
    // One prepared statement: the previous session's row (if any: a null hash matches none) and
    // `alongside` go in data-modifying CTEs of the insert (CPU-bound on the database's side too: issues 6, 19).
    const [raw] = await this.startStatement(alongside)(this.db, {
      ...alongside?.values,
      priorHash: prior ? sha256(prior) : null,
      idHash: sha256(id),
      userPk: values.userPk,
      stage: values.stage,
      cobrand: values.cobrand,
      locale: values.locale,
      sso: values.sso,
      data: JSON.stringify(values.data ?? {}),
      createdAt: createdAt.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    if (!raw) throw new Error('session insert returned no row');
    const row: SessionRow = {
      idHash: raw.id_hash as string,
      userPk: values.userPk,
      stage: values.stage,
      cobrand: values.cobrand,
      locale: values.locale,
      sso: values.sso,
      data: values.data ?? {},
      createdAt,
      lastSeenAt: now,
      expiresAt,
    };
    this.setCookies(reply, id);
    this.cache.set(request, Promise.resolve(row));
    return row;
  }

  private readonly startStatements = new Map<string, RawStatement>();

  /** The session insert with the CTEs of `alongside`'s kind, built once per kind. */
  private startStatement(alongside: StatementTemplate | undefined) {
    const key = alongside?.name ?? '';
    let statement = this.startStatements.get(key);
    if (!statement) {
      const placeholder = (name: string) => sql.placeholder(name);
      const ctes = [
        sql`previous as (delete from ${sessions} where ${sessions.idHash} = ${placeholder('priorHash')}::text)`,
        ...(alongside?.parts ?? []).map((part, i) => sql`${sql.identifier(`alongside_${i}`)} as (${part})`),
      ];
      statement = preparedStatement<Record<string, unknown>>(
        `session_start${key ? `_${key}` : ''}`,
        sql`with ${sql.join(ctes, sql`, `)}
          insert into ${sessions} (id_hash, user_pk, stage, cobrand, locale, sso, data, created_at, last_seen_at, expires_at)
          values (${placeholder('idHash')}, ${placeholder('userPk')}::integer, ${placeholder('stage')},
            ${placeholder('cobrand')}, ${placeholder('locale')}, ${placeholder('sso')}::boolean,
            ${placeholder('data')}::jsonb, ${placeholder('createdAt')}::timestamptz,
            ${placeholder('lastSeenAt')}::timestamptz, ${placeholder('expiresAt')}::timestamptz)
          returning id_hash`,
      );
      this.startStatements.set(key, statement);
    }
    return statement;
  }

  /** Ends the request's session on the server and hands the browser a fresh anonymous id. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<SessionRow | null> {
    const row = await this.destroy(request);
    this.setCookies(reply, randomId());
    this.cache.set(request, Promise.resolve(null));
    return row;
  }

  private async destroy(request: FastifyRequest): Promise<SessionRow | null> {
    const id = this.idOf(request);
    if (!id) return null;
    const [row] = await this.db
      .delete(sessions)
      .where(eq(sessions.idHash, sha256(id)))
      .returning();
    return row ?? null;
  }

  /** Makes sure the visitor has a session id and the matching sec-token cookie (HTML pages, /csrf). */
  ensureCsrf(request: FastifyRequest, reply: FastifyReply): void {
    const id = this.idOf(request);
    if (!id) {
      this.setCookies(reply, randomId());
      return;
    }
    const token = this.csrfTokenFor(id);
    if (request.cookies[CSRF_COOKIE] !== token) {
      reply.setCookie(CSRF_COOKIE, token, {
        path: '/',
        sameSite: 'lax',
        secure: this.config.secure,
        httpOnly: false,
      });
    }
  }

  private setCookies(reply: FastifyReply, id: string): void {
    reply.setCookie(SESSION_COOKIE, id, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.secure,
    });
    reply.setCookie(CSRF_COOKIE, this.csrfTokenFor(id), {
      path: '/',
      httpOnly: false,
      sameSite: 'lax',
      secure: this.config.secure,
    });
  }

  /** True when a state-changing request carries the token issued for its own session. */
  checkCsrf(request: FastifyRequest): boolean {
    const header = request.headers['x-csrf-token'] ?? request.headers['x-xsrf-token'];
    const other = request.headers['x-xsrf-token'];
    if (typeof header !== 'string' || (typeof other === 'string' && other !== header)) return false;
    const cookie = request.cookies[CSRF_COOKIE];
    const id = this.idOf(request);
    if (!cookie || !id) return false;
    return safeEqual(header, cookie) && safeEqual(header, this.csrfTokenFor(id));
  }

  /**
   * The request's session if it is in one of `stages`; otherwise answers 401 (no session) or 403 (a
   * partial session calling another stage's endpoint) and returns undefined.
   */
  async require(
    request: FastifyRequest,
    reply: FastifyReply,
    stages: readonly SessionStage[],
  ): Promise<SessionRow | undefined> {
    const session = await this.get(request);
    if (!session) {
      await sendError(reply, 401, 'session.required', 'No session: sign in first');
      return undefined;
    }
    if (!stages.includes(session.stage as SessionStage)) {
      await sendError(reply, 403, 'stage.forbidden', 'This session may not call this endpoint');
      return undefined;
    }
    return session;
  }

  /** Records stage facts (never secrets) on the session. */
  async setData(row: SessionRow, data: Record<string, unknown>): Promise<void> {
    row.data = { ...row.data, ...data };
    await this.db.update(sessions).set({ data: row.data }).where(eq(sessions.idHash, row.idHash));
  }

  /** Deletes expired sessions (idle or past the absolute lifetime); keeps the table bounded. */
  async purgeExpired(): Promise<number> {
    const rows = await this.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, sql`now()`), lt(sessions.createdAt, tooOld)))
      .returning({ id: sessions.idHash });
    return rows.length;
  }
}
