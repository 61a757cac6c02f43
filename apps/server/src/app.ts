import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Redis } from 'ioredis';
import pino from 'pino';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { answerInvalidRequest, openApiRoute, registerContracts } from './http/contract.ts';
import { sendError } from './http/errors.ts';
import { errorText } from './kernel/error-text.ts';
import type { Secrets } from './kernel/secrets.ts';
import { MODULES } from './modules.ts';
import { registerSecurityHeaders } from './security/headers.ts';
import { SessionManager } from './security/sessions.ts';
import { rateLimitStore, Throttle } from './security/throttle.ts';
import type { TextBundles } from './text/bundles.ts';

declare module 'fastify' {
  /** A route's own body type, when it is neither JSON nor /heracles/login's form (415 otherwise). */
  interface FastifyContextConfig {
    bodyType?: string;
    bodyTypeRefusal?: { code: string; message: string };
  }
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    secrets: Secrets;
    texts: TextBundles;
    sessions: SessionManager;
    redis: Redis | undefined;
    throttle: Throttle;
  }
}

export interface Services {
  database: Database;
  secrets: Secrets;
  texts: TextBundles;
  redis?: Redis;
  /** Where the log goes (stdout when unset); tests capture it to check that no secret reaches it. */
  logStream?: NodeJS.WritableStream;
}

/**
 * How requests and errors are logged. No header is logged at all — not cookies, not the CSRF headers,
 * not Set-Cookie — because these serializers never copy one (so no redaction pass is needed on each
 * line; the fuzz test greps the trace-level log for every secret and session id it sent). The URL
 * without its query string: a client may put anything
 * there (a form posted by GET carries the password in it). Errors without `rawPacket`: Node attaches
 * the raw bytes of a malformed request (cookies, bodies) to its parse errors.
 */
const LOG_SERIALIZERS = {
  res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
  req: (request: FastifyRequest) => {
    const query = request.url.indexOf('?');
    return {
      method: request.method,
      url: query < 0 ? request.url : `${request.url.slice(0, query)}?[redacted]`,
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  // Every error Fastify itself logs goes through the same filter as ours (loggable): the driver's
  // message, never a query's parameters (a DrizzleQueryError carries them as properties, in its message
  // and in its stack), nor a parse error's raw bytes. Plain objects are our own, already filtered.
  err: (error: FastifyError) => (error instanceof Error ? loggable(error) : error),
};

/**
 * The public, cacheable reads every page load makes (co-brand record and locales, text bundles, built
 * assets, logos, the session-warning content, health probes): logged at `debug` when they succeed
 * quickly. Everything else — every sign-in and credential call, every application call, every unsafe
 * method, every error and every slow answer — is logged at `info` (docs/security.md, Logs).
 */
const ROUTINE_READS = [
  '/sdportal/rest/cobrand/',
  '/sdportal/rest/cobrands/',
  '/sdportal/portalstatic/assets/',
  '/sdportal/portalstatic/theme/',
  '/sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json',
  '/app/assets/',
  '/healthz',
  '/readyz',
];
const SLOW_MS = 1000;

function isRoutineRead(method: string, url: string, status: number, elapsedMs: number): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    status < 400 &&
    elapsedMs < SLOW_MS &&
    ROUTINE_READS.some((prefix) => url.startsWith(prefix))
  );
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';

/** Driver and PostgreSQL codes of a database out of reach (SQLSTATE class 08, 57P0x, 53300). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|not queryable/i;

/**
 * The errors along an error's `cause` chain: Drizzle wraps the driver's error in a DrizzleQueryError
 * whose own message is the query and its parameters.
 */
function causes(error: unknown): { code?: unknown; message?: unknown; errors?: unknown }[] {
  const chain: { code?: unknown; message?: unknown; errors?: unknown }[] = [];
  for (let e = error; e && typeof e === 'object' && chain.length < 5; e = (e as { cause?: unknown }).cause) {
    chain.push(e as { code?: unknown; message?: unknown });
  }
  return chain;
}

/** Errors that mean the database is out of reach: answer 503, not 500. */
function isUnavailable(error: unknown): boolean {
  return causes(error).some(
    (e) =>
      UNAVAILABLE_CODES.has(String(e.code)) ||
      UNAVAILABLE_MESSAGE.test(String(e.message ?? '')) ||
      (Array.isArray(e.errors) && e.errors.some(isUnavailable)),
  );
}

/** An error as the log may show it: the driver's message and code, never a query's parameters. */
function loggable(error: unknown): { [key: string]: unknown; type: string; message: string; stack: string } {
  const chain = causes(error);
  const root = chain[chain.length - 1] ?? {};
  const query = (error as { query?: unknown })?.query;
  return {
    type: String((error as Error)?.constructor?.name ?? typeof error),
    message: errorText(error),
    code: root.code,
    ...(typeof query === 'string' ? { query: query.slice(0, 500) } : {}),
    stack:
      (error as Error)?.stack
        ?.split('\n')
        .filter((line) => /^\s+at /.test(line))
        .slice(0, 8)
        .join('\n') ?? '',
  };
}

/**
 * Where the log goes without a test's stream: standard output through pino's asynchronous writer
 * (pino's advice for speed). A line is written at once when no write is in flight; under load the
 * lines that arrive meanwhile go out together in the next write, so there is no delay when quiet and
 * no write per line when busy. What is still buffered is flushed at shutdown and at exit.
 */
function stdoutLog(): { stream: ReturnType<typeof pino.destination>; stop(): void } {
  const stream = pino.destination({ dest: 1, sync: false });
  const flush = () => {
    try {
      stream.flushSync();
    } catch {
      // Nothing buffered, or stdout already gone.
    }
  };
  process.once('exit', flush);
  return {
    stream,
    stop() {
      process.off('exit', flush);
      flush();
    },
  };
}

export async function buildApp(config: Config, services: Services): Promise<FastifyInstance> {
  const log = config.logLevel === 'silent' || services.logStream ? undefined : stdoutLog();
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            serializers: LOG_SERIALIZERS,
            stream: services.logStream ?? log?.stream,
          },
    bodyLimit: 32 * 1024,
    trustProxy: false,
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: false },
    // One access-log line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  });

  // The access log: one line per request at info — method, path (no query), status and time, once the
  // answer has gone — and its arrival at debug.
  const debugLog = config.logLevel === 'debug' || config.logLevel === 'trace';
  if (debugLog) {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({ req: request }, 'incoming request');
      done();
    });
  }
  app.addHook('onResponse', (request, reply, done) => {
    if (isRoutineRead(request.method, request.url, reply.statusCode, reply.elapsedTime)) {
      if (debugLog) {
        request.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
      }
    } else {
      request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
    done();
  });

  app.decorate('config', config);
  app.decorate('database', services.database);
  app.decorate('db', services.database.db);
  app.decorate('secrets', services.secrets);
  app.decorate('texts', services.texts);
  app.decorate('redis', services.redis);
  app.decorate('throttle', new Throttle(services.redis, 'cardportal:th:'));
  app.decorate('sessions', new SessionManager(services.database.db, config, services.secrets));
  // The modules' own services (app.cobrands, app.login, ...), before any hook or route.
  for (const module of MODULES) module.services?.(app);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 8 * 1024 });
  // Every route's contract: zod validation and serialisation, and the OpenAPI document (http/contract.ts).
  await registerContracts(app, { version: '0.1.0' });
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: config.secure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });

  if (config.rateLimits) {
    await app.register(fastifyRateLimit, {
      global: true,
      max: 600,
      timeWindow: '1 minute',
      // Global through Redis; per instance while Redis is down (security/throttle.ts).
      store: rateLimitStore(new Throttle(services.redis, 'cardportal:rl:'), ''),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        code: 'rate.limited',
        message: `Too many requests: try again in ${Math.ceil(context.ttl / 1000)} seconds`,
      }),
    });
  }

  // Each call takes one body type (DESIGN §4): JSON, except /heracles/login (form-encoded). A body of
  // another type is refused with 415 before any handler reads it (ASVS V13.1.5, V13.2.5).
  // Callback-style hooks: the safe methods pass through without a promise (public-call speed, issue 6).
  app.addHook('preValidation', (request, reply, done) => {
    if (!UNSAFE_METHODS.has(request.method)) return done();
    // A route may declare another body type (the reporting-structure upload: an .xlsx workbook).
    const declared = request.routeOptions.config;
    const expected =
      declared.bodyType ?? (request.url.split('?')[0] === '/heracles/login' ? FORM : JSON_TYPE);
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    const type = String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (hasBody && type !== expected) {
      const refusal = declared.bodyTypeRefusal;
      sendError(
        reply,
        415,
        refusal?.code ?? 'request.contentType',
        refusal ? `${refusal.message}: Content-Type must be ${expected}` : `Content-Type must be ${expected}`,
      );
      return;
    }
    done();
  });

  // CSRF (DESIGN §5): every state-changing request carries the sec-token issued for its session, and
  // comes from our own origin.
  const ourOrigin = new URL(config.publicUrl).origin;
  app.addHook('onRequest', (request, reply, done) => {
    if (!UNSAFE_METHODS.has(request.method)) return done();
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== ourOrigin && origin !== `${request.protocol}://${request.host}`) {
      sendError(reply, 403, 'csrf.origin', 'Cross-origin request refused');
      return;
    }
    if (!app.sessions.checkCsrf(request)) {
      sendError(reply, 403, 'csrf.invalid', 'Missing or invalid CSRF token: reload the page and try again');
      return;
    }
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A request part its schema refused: the route's own answer (http/contract.ts).
    if (error.validation) return answerInvalidRequest(error, request, reply);
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return sendError(reply, 429, 'rate.limited', error.message);
    }
    if (status >= 400 && status < 500) {
      return sendError(reply, status, String(error.code ?? 'request.invalid'), error.message);
    }
    if (isUnavailable(error)) {
      const { message, code } = loggable(error);
      request.log.error({ err: { message, code } }, 'database unavailable');
      reply.header('retry-after', '5');
      return sendError(
        reply,
        503,
        'service.unavailable',
        'The service is temporarily unavailable: try again shortly',
      );
    }
    request.log.error({ err: loggable(error) }, 'unhandled error');
    return sendError(reply, 500, 'server.error', 'An unexpected error has occurred');
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      404,
      'not_found',
      `No such resource: ${request.method} ${request.url.split('?')[0]?.slice(0, 200)}`,
    ),
  );

  for (const module of MODULES) {
    if (module.routes) await app.register(module.routes);
  }
  await app.register(openApiRoute);
  app.addHook('onClose', () => {
    log?.stop();
  });
  return app;
}
