import { resolveLocale, toFieldErrors } from '@cardportal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ThrottleUnavailable } from '../security/throttle.ts';
import type { Caller } from '../shared/user-scope.ts';
import { requireCaller } from './caller.ts';
import { sendError } from './errors.ts';
import { recordUniqueKeyRefusal, UNIQUE_KEY_REFUSALS, uniqueKeyBudgetSpent } from './unique-keys.ts';

/**
 * A refusal of an application endpoint: status, a message key as code, field errors as message keys.
 * The answer's message is the code's text in the caller's language (`validation.{code}`); `message`
 * is only the fallback for a code the bundles lack; `rows` a per-row report (an upload).
 */
export class AppRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly fieldErrors?: Record<string, string>,
    options: { message?: string; rows?: unknown[]; detail?: string } = {},
  ) {
    super(options.message ?? code);
    this.rows = options.rows;
    this.detail = options.detail;
  }
  readonly rows: unknown[] | undefined;
  /** Facts the catalogue text lacks (e.g. the missing column names), added after it. */
  readonly detail: string | undefined;
}

/**
 * A feature's refusal in the older argument order `(status, code, message, fieldErrors?, rows?)`: the
 * organisation, issuer and account services throw these.
 */
export class FeatureRequestError extends AppRequestError {
  constructor(
    status: number,
    code: string,
    message: string,
    fieldErrors?: Record<string, string>,
    rows?: unknown[],
  ) {
    super(status, code, fieldErrors, rows ? { message, rows } : { message });
  }
}

export const refuseWith = (status: number, code: string, fieldErrors?: Record<string, string>): never => {
  throw new AppRequestError(status, code, fieldErrors);
};

interface Handled<P, B> {
  caller: Caller;
  request: FastifyRequest<{ Params: P }>;
  reply: FastifyReply;
  body: B;
}

/**
 * One shape for an application endpoint: the caller (401 without a full session), the body or query
 * parsed by a domain schema (400 with field errors as message keys), the work, and an AppRequestError
 * answered as `{ code, message, fieldErrors? }` with the message in the caller's language
 * (`validation.{code}` of the Messages bundle). `undefined` from the work answers 204.
 */
export function appHandler(app: FastifyInstance) {
  const text = (locale: string, key: string, fallback = key) =>
    app.texts.text(resolveLocale(locale), 'Messages', `validation.${key}`) || fallback;

  return <P = Record<string, string>, B = undefined>(
    work: (input: Handled<P, B>) => Promise<unknown>,
    input?: {
      body?: z.ZodType<B>;
      query?: z.ZodType<B>;
      status?: number;
      /** The system-wide unique key the body tries (user ID, company or issuer number): http/unique-keys.ts. */
      uniqueKey?: (body: B) => string;
    },
  ) =>
    async (request: FastifyRequest<{ Params: P }>, reply: FastifyReply) => {
      const caller = await requireCaller(app, request, reply);
      if (!caller) return reply;
      if (input?.uniqueKey) {
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
          return sendError(reply, 429, 'uniqueKey.budgetSpent', text(caller.locale, 'uniqueKey.budgetSpent'));
        }
      }
      let body = undefined as B;
      const schema = input?.body ?? input?.query;
      if (schema) {
        const parsed = schema.safeParse((input?.body ? request.body : request.query) ?? {});
        if (!parsed.success)
          return sendError(
            reply,
            400,
            'form.invalid',
            text(caller.locale, 'form.invalid'),
            toFieldErrors(parsed.error),
          );
        body = parsed.data;
      }
      try {
        const result = await work({ caller, request, reply, body });
        if (reply.sent) return reply;
        if (result === undefined) return reply.code(204).send();
        return reply.code(input?.status ?? 200).send(result);
      } catch (error) {
        if (!(error instanceof AppRequestError)) throw error;
        if (input?.uniqueKey && error.code in UNIQUE_KEY_REFUSALS)
          await recordUniqueKeyRefusal(app, caller, error.code, input.uniqueKey(body), request.ip);
        const message = text(caller.locale, error.code, error.message);
        const detailed = error.detail ? `${message} ${error.detail}` : message;
        if (!error.rows) return sendError(reply, error.status, error.code, detailed, error.fieldErrors);
        return reply
          .code(error.status)
          .header('cache-control', 'no-store')
          .send({ code: error.code, message: detailed, fieldErrors: error.fieldErrors, rows: error.rows });
      }
    };
}

/**
 * The same handler with positional arguments, `(work(caller, request, body), bodySchema?, status?)`,
 * as the organisation, issuer and account routes call it.
 */
export function positionalHandler<P>(app: FastifyInstance) {
  const handle = appHandler(app);
  return <B>(
    work: (caller: Caller, request: FastifyRequest<{ Params: P }>, body: B) => Promise<unknown>,
    schema?: z.ZodType<B>,
    status = 200,
    uniqueKey?: (body: B) => string,
  ) =>
    handle<P, B>(({ caller, request, body }) => work(caller, request, body), {
      ...(schema ? { body: schema } : {}),
      status,
      ...(uniqueKey ? { uniqueKey } : {}),
    });
}
