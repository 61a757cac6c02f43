import type { FastifyError, FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { LogController } from 'fastify';
import pino from 'pino';
import type { Config } from '../config.ts';
import { loggable } from './error-handler.ts';

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

/**
 * Where the log goes without a test's stream: standard output through pino's asynchronous writer
 * (pino's advice for speed). At `info` and above, in writes of at least LOG_WRITE_BYTES or every
 * LOG_FLUSH_MS, whichever comes first: a write per line cost a sign-in's event loop about 0.1 ms a line
 * (issue 19); batched, a busy server writes a few dozen lines at once and a quiet one shows a line within
 * LOG_FLUSH_MS. At `debug` and `trace` — someone is watching — each line goes out at once (lines that
 * arrive while a write is in flight go out together in the next). What is still buffered is flushed at
 * shutdown and at exit (an uncaught error exits through it too); only a SIGKILL loses the last
 * LOG_FLUSH_MS of lines.
 */
const LOG_WRITE_BYTES = 4096;
const LOG_FLUSH_MS = 200;
function stdoutLog(level: string): { stream: ReturnType<typeof pino.destination>; stop(): void } {
  const watched = level === 'debug' || level === 'trace';
  const stream = pino.destination({
    dest: 1,
    sync: false,
    ...(watched ? {} : { minLength: LOG_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS }),
  });
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

/**
 * The server's options: its logger (the serializers above; a test's stream, or standard output through
 * stdoutLog), body and route limits, and no access logging of Fastify's own (registerAccessLog). `stop`
 * flushes the log at close.
 */
export function serverOptions(
  config: Config,
  logStream?: NodeJS.WritableStream,
): { options: FastifyServerOptions; stop(): void } {
  const log = config.logLevel === 'silent' || logStream ? undefined : stdoutLog(config.logLevel);
  return {
    options: {
      logger:
        config.logLevel === 'silent'
          ? false
          : { level: config.logLevel, serializers: LOG_SERIALIZERS, stream: logStream ?? log?.stream },
      bodyLimit: 32 * 1024,
      trustProxy: false,
      routerOptions: { maxParamLength: 200, ignoreTrailingSlash: false },
      // One access-log line per request (registerAccessLog) instead of Fastify's two.
      logController: new LogController({ disableRequestLogging: true }),
    },
    stop: () => log?.stop(),
  };
}

/**
 * The access log: one line per request at info — method, path (no query), status and time, once the
 * answer has gone — and its arrival at debug; routine reads at debug only.
 */
export function registerAccessLog(app: FastifyInstance, config: Config): void {
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
}
