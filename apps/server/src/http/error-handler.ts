import type { FastifyError, FastifyInstance } from 'fastify';
import { errorText } from '../kernel/error-text.ts';
import { AppError } from './app-error.ts';
import { answerInvalidRequest } from './contract.ts';
import { sendError } from './errors.ts';

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
export function isUnavailable(error: unknown): boolean {
  return causes(error).some(
    (e) =>
      UNAVAILABLE_CODES.has(String(e.code)) ||
      UNAVAILABLE_MESSAGE.test(String(e.message ?? '')) ||
      (Array.isArray(e.errors) && e.errors.some(isUnavailable)),
  );
}

/** An error as the log may show it: the driver's message and code, never a query's parameters. */
export function loggable(error: unknown): {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
} {
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
 * The one error handler: a request part its schema refused gets the route's own answer; a 4xx thrown by
 * Fastify or a plugin keeps its status with the common error shape; a database out of reach is a 503
 * with Retry-After; anything else a 500 whose log line carries the driver's message, never a query's
 * parameters. Unknown paths are a 404 naming the method and path.
 */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A request part its schema refused: the route's own answer (http/contract.ts).
    if (error.validation) return answerInvalidRequest(error, request, reply);
    // A refusal thrown outside an application handler (which answers its own in the caller's language).
    if (error instanceof AppError) {
      return sendError(reply, error.status, error.code, error.message, error.fieldErrors);
    }
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
}
