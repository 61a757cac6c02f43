import {
  cardholderRegistrationBodySchema,
  companyParamsSchema,
  companyRecordParamsSchema,
  emptyObjectSchema,
  noBodySchema,
  noContentSchema,
  okSchema,
  REST_BASE,
  resolveLocale,
  selfRegistrationBodySchema,
  selfRegistrationSettingsSchema,
  serviceErrorSchema,
} from '@cardportal/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { sendServiceError } from '../../http/errors.ts';
import { answerNoSoonerThan, SECRET_FLOOR_MS } from '../../http/timing.ts';
import { RegistrationService } from './service.ts';

/** `POST /sdportal/rest/registration/cardholder`: the portal's cardholder self-registration form. */
export const CARDHOLDER_REGISTRATION_PATH = `${REST_BASE}registration/cardholder`;

/**
 * Cardholder self-registration (issue 18 item 2, docs/self-registration.md): the portal's public call,
 * and the company's corporate code and card unlock in the application.
 */
export async function registrationRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const service = new RegistrationService(app.db, app);
  const text = (locale: string, key: string) =>
    app.texts.text(resolveLocale(locale), 'Messages', `validation.${key}`) || key;

  app.post(
    CARDHOLDER_REGISTRATION_PATH,
    {
      // Every answer, verified or not, takes at least the secret floor: a known card's failed proof
      // writes (its count, an audit row) and an unknown one does not, and the time must not tell.
      onSend: async (_request: unknown, reply: FastifyReply) => answerNoSoonerThan(reply, SECRET_FLOOR_MS),
      config: {
        rateLimit: { max: 10, timeWindow: '1 minute' },
        invalid: (_error: unknown, request: { body?: unknown }, reply: FastifyReply) => {
          const locale = (request.body as { locale?: unknown } | undefined)?.locale;
          return sendServiceError(
            reply,
            400,
            'request.invalid',
            text(typeof locale === 'string' ? locale : '', 'request.invalid'),
          );
        },
      },
      schema: {
        querystring: emptyObjectSchema,
        body: cardholderRegistrationBodySchema,
        response: { 200: okSchema, '4xx': serviceErrorSchema },
        summary: 'Cardholder self-registration: prove a card, get a user ID and a first password by mail',
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const locale = request.body.locale ?? '';
      try {
        await service.registerCardholder(request.body, request.ip);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return sendServiceError(reply, error.status, error.code, text(locale, error.code), {
          ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
        });
      }
      return { ok: true as const };
    },
  );

  const handle = appHandler(app);
  const base = '/app/api/org/companies/:number/self-registration';
  app.get(
    base,
    handle(({ caller, request }) => service.settings(caller, request.params.number), {
      permission: 'viewSelfRegistration',
      params: companyParamsSchema,
      response: selfRegistrationSettingsSchema,
    }),
  );
  app.put(
    base,
    handle(
      ({ caller, request, body }) => service.setCode(caller, request.params.number, body.code, request.ip),
      {
        permission: 'maintainSelfRegistration',
        params: companyParamsSchema,
        body: selfRegistrationBodySchema,
        response: selfRegistrationSettingsSchema,
      },
    ),
  );
  app.post(
    '/app/api/org/companies/:number/accounts/:id/registration-unlock',
    handle(
      ({ caller, request }) =>
        service.unlockCard(caller, request.params.number, request.params.id, request.ip),
      {
        permission: 'maintainAccounts',
        params: companyRecordParamsSchema,
        body: noBodySchema,
        status: 204,
        response: noContentSchema,
      },
    ),
  );
}
