import {
  type Action,
  apiErrorSchema,
  authorize,
  emptyObjectSchema,
  resolveLocale,
  toFieldErrors,
} from '@cardportal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import { ThrottleUnavailable } from '../security/throttle.ts';
import { AppError } from './app-error.ts';
import type { Caller } from './caller.ts';
import { requireCaller } from './caller.ts';
import { sendError } from './errors.ts';
import { recordUniqueKeyRefusal, UNIQUE_KEY_REFUSALS, uniqueKeyBudgetSpent } from './unique-keys.ts';

interface Handled<P, Q, B> {
  caller: Caller;
  request: FastifyRequest<{ Params: P; Querystring: Q }>;
  reply: FastifyReply;
  /** The body as its schema parsed it (undefined for a route without one). */
  body: B;
  /** The query as its schema parsed it. */
  query: Q;
}

/** A route's answers by status; a non-JSON answer as `{ description, content: { type: { schema } } }`. */
export type RouteAnswers = Record<
  number | string,
  z.ZodType | { description?: string; content: Record<string, { schema: z.ZodType }> }
>;

/**
 * An application route's contract (docs/api.md "Contracts"): the zod schemas of packages/domain for its
 * path parameters, query and body, and for its answers.
 */
export interface AppContract<P, Q, B> {
  /**
   * The action the route needs (packages/domain authorization.ts POLICY): checked before any request
   * part is looked at (403 with the rule's code), published as the operation's `x-permission`, read by
   * the authorization matrix test. `signedIn` for what every signed-in user may do with its own data.
   */
  permission: Action;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The answer to a returned value (status `status`), or the answers by status. */
  response: z.ZodType | RouteAnswers;
  /** The status of a returned value (200); the work returning undefined answers 204. */
  status?: number;
  /** The schema of every 4xx answer (ApiError: `{ code, message, fieldErrors? }`). */
  refusal?: z.ZodType;
  /** The system-wide unique key the body tries (user ID, company or issuer number): http/unique-keys.ts. */
  uniqueKey?: (body: B) => string;
  /** The refusal of a request part its schema refused (default `400 form.invalid`, the fields' keys). */
  invalid?: (error: z.ZodError) => AppError;
  /** More route options (a body limit, a body type, a route error handler). */
  route?: Pick<RouteShorthandOptions, 'bodyLimit' | 'config' | 'errorHandler'>;
  /** For the document: what the route does, and its body's media type when not JSON. */
  docs?: { summary?: string; description?: string; consumes?: string[] };
}

/**
 * One shape for an application endpoint, as route options: the caller first (401 without a full
 * session, before any request part is looked at; http/caller.ts), its permission for the route's action
 * (403, packages/domain authorization.ts), then the params, query and body
 * validated by their schemas (400 `form.invalid` with field errors as message keys), the work, and an
 * AppError answered as `{ code, message, fieldErrors? }` with the message in the caller's
 * language (`validation.{code}` of the Messages bundle). `undefined` from the work answers 204; an
 * answer leaves through its status's schema.
 */
export function appHandler(app: FastifyInstance) {
  const text = (locale: string, key: string, fallback = key) =>
    app.texts.text(resolveLocale(locale), 'Messages', `validation.${key}`) || fallback;

  /** The caller resolved for a request (before its parts are validated). */
  const callers = new WeakMap<FastifyRequest, Caller>();

  const refuse = (caller: Caller | undefined, reply: FastifyReply, error: AppError) => {
    const message = text(caller?.locale ?? '', error.code, error.message);
    const detailed = error.detail ? `${message} ${error.detail}` : message;
    if (!error.rows && !error.extra)
      return sendError(reply, error.status, error.code, detailed, error.fieldErrors);
    return reply
      .code(error.status)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send({
        ...error.extra,
        code: error.code,
        message: detailed,
        fieldErrors: error.fieldErrors,
        rows: error.rows,
      });
  };

  return <P = Record<string, string>, Q = Record<string, unknown>, B = undefined>(
    work: (input: Handled<P, Q, B>) => Promise<unknown>,
    contract: AppContract<P, Q, B>,
  ) => {
    const status = contract.status ?? 200;
    const answers: RouteAnswers =
      contract.response instanceof z.ZodType ? { [status]: contract.response } : contract.response;
    const invalid =
      contract.invalid ??
      ((error: z.ZodError) => new AppError('invalid', 'form.invalid', { fieldErrors: toFieldErrors(error) }));
    return {
      ...contract.route,
      schema: {
        ...contract.docs,
        ...(contract.params ? { params: contract.params } : {}),
        // A route that declares no query reads none (any sent is dropped).
        querystring: contract.query ?? emptyObjectSchema,
        ...(contract.body ? { body: contract.body } : {}),
        response: { ...answers, '4xx': contract.refusal ?? apiErrorSchema },
      },
      config: {
        ...contract.route?.config,
        permission: contract.permission,
        invalid: (error: z.ZodError, request: FastifyRequest, reply: FastifyReply) =>
          refuse(callers.get(request), reply, invalid(error)),
      },
      preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
        const caller = await requireCaller(app, request, reply);
        if (!caller) return reply;
        callers.set(request, caller);
        const refusal = authorize(caller, contract.permission);
        if (refusal) return refuse(caller, reply, new AppError('forbidden', refusal.code));
        if (contract.uniqueKey) {
          let wait: number | undefined;
          try {
            wait = await uniqueKeyBudgetSpent(app, caller);
          } catch (error) {
            if (!(error instanceof ThrottleUnavailable)) throw error;
            reply.header('retry-after', '5');
            return sendError(reply, 503, 'service.unavailable', text(caller.locale, 'service.unavailable'));
          }
          if (wait !== undefined) {
            reply.header('retry-after', String(wait));
            return sendError(
              reply,
              429,
              'uniqueKey.budgetSpent',
              text(caller.locale, 'uniqueKey.budgetSpent'),
            );
          }
        }
      },
      handler: async (raw: FastifyRequest, reply: FastifyReply) => {
        const request = raw as FastifyRequest<{ Params: P; Querystring: Q }>;
        const caller = callers.get(raw) as Caller;
        const body = request.body as B;
        try {
          const result = await work({ caller, request, reply, body, query: request.query as Q });
          if (result === reply || reply.sent) return reply;
          if (result === undefined) return reply.code(204).send();
          return reply.code(status).send(result);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          if (contract.uniqueKey && error.code in UNIQUE_KEY_REFUSALS)
            await recordUniqueKeyRefusal(app, caller, error.code, contract.uniqueKey(body), request.ip);
          return refuse(caller, reply, error);
        }
      },
    };
  };
}
