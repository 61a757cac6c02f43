import {
  cardApplicationApprovalBodySchema,
  cardApplicationBodySchema,
  cardApplicationListQuerySchema,
  cardApplicationListSchema,
  cardApplicationSchema,
  cardholderRegistrationBodySchema,
  companyApplicationBodySchema,
  companyApprovalBodySchema,
  companyDeclineBodySchema,
  companyInvitationBodySchema,
  companyParamsSchema,
  companyRecordParamsSchema,
  companyRegistrationListQuerySchema,
  companyRegistrationListSchema,
  companyRegistrationSchema,
  emptyObjectSchema,
  issuerParamsSchema,
  issuerRecordParamsSchema,
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
import type { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { sendServiceError } from '../../http/errors.ts';
import { answerNoSoonerThan, SECRET_FLOOR_MS } from '../../http/timing.ts';
import { CardApplicationService } from './applications.ts';
import { CompanyRegistrationService } from './companies.ts';
import { RegistrationService } from './service.ts';

/** `POST /sdportal/rest/registration/cardholder`: the portal's cardholder self-registration form. */
export const CARDHOLDER_REGISTRATION_PATH = `${REST_BASE}registration/cardholder`;
/** `POST /sdportal/rest/registration/company`: the portal's company registration form. */
export const COMPANY_REGISTRATION_PATH = `${REST_BASE}registration/company`;
/** `POST /sdportal/rest/registration/card-application`: the portal's new card account application. */
export const CARD_APPLICATION_PATH = `${REST_BASE}registration/card-application`;

/**
 * Cardholder self-registration (issue 18 item 2, docs/self-registration.md): the portal's public call,
 * and the company's corporate code and card unlock in the application.
 */
export async function registrationRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const service = new RegistrationService(app.db, app);
  const companies = new CompanyRegistrationService(app.db, app);
  const applications = new CardApplicationService(app.db, app);
  const text = (locale: string, key: string) =>
    app.texts.text(resolveLocale(locale), 'Messages', `validation.${key}`) || key;

  /** A public form's route: bounded body, rate-limited, floored in time, refusals as the portal reads them. */
  const publicForm = <B extends z.ZodType>(
    path: string,
    body: B,
    summary: string,
    work: (body: z.infer<B>, ip: string) => Promise<void>,
  ) =>
    app.post(
      path,
      {
        // Every answer, verified or not, takes at least the secret floor: a known card's or code's failed
        // proof writes (its count, an audit row) and an unknown one does not, and the time must not tell.
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
          body,
          response: { 200: okSchema, '4xx': serviceErrorSchema },
          summary,
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const locale = (request.body as { locale?: string }).locale ?? '';
        try {
          await work(request.body as z.infer<B>, request.ip);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return sendServiceError(reply, error.status, error.code, text(locale, error.code), {
            ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
          });
        }
        return { ok: true as const };
      },
    );

  publicForm(
    CARDHOLDER_REGISTRATION_PATH,
    cardholderRegistrationBodySchema,
    'Cardholder self-registration: prove a card, get a user ID and a first password by mail',
    (body, ip) => service.registerCardholder(body, ip),
  );
  publicForm(
    COMPANY_REGISTRATION_PATH,
    companyApplicationBodySchema,
    "Company self-registration: apply with the issuer's corporate code and the company's name",
    (body, ip) => companies.apply(body, ip),
  );
  publicForm(
    CARD_APPLICATION_PATH,
    cardApplicationBodySchema,
    "A new card account application: the company's self-registration code and the applicant",
    (body, ip) => applications.apply(body, ip),
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

  const registrations = '/app/api/org/issuers/:number/company-registrations';
  const view = 'viewCompanyRegistrations' as const;
  const maintain = 'maintainCompanyRegistrations' as const;
  app.get(
    registrations,
    handle(({ caller, request }) => companies.list(caller, request.params.number, request.query), {
      permission: view,
      params: issuerParamsSchema,
      query: companyRegistrationListQuerySchema,
      response: companyRegistrationListSchema,
    }),
  );
  app.post(
    registrations,
    handle(({ caller, request, body }) => companies.invite(caller, request.params.number, body, request.ip), {
      permission: maintain,
      params: issuerParamsSchema,
      body: companyInvitationBodySchema,
      status: 201,
      response: companyRegistrationSchema,
    }),
  );
  app.get(
    `${registrations}/:id`,
    handle(({ caller, request }) => companies.get(caller, request.params.number, request.params.id), {
      permission: view,
      params: issuerRecordParamsSchema,
      response: companyRegistrationSchema,
    }),
  );
  app.delete(
    `${registrations}/:id`,
    handle(
      ({ caller, request }) =>
        companies.withdraw(caller, request.params.number, request.params.id, request.ip),
      { permission: maintain, params: issuerRecordParamsSchema, status: 204, response: noContentSchema },
    ),
  );
  app.post(
    `${registrations}/:id/approve`,
    handle(
      ({ caller, request, body }) =>
        companies.approve(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: maintain,
        params: issuerRecordParamsSchema,
        body: companyApprovalBodySchema,
        response: companyRegistrationSchema,
      },
    ),
  );
  app.post(
    `${registrations}/:id/decline`,
    handle(
      ({ caller, request, body }) =>
        companies.decline(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: maintain,
        params: issuerRecordParamsSchema,
        body: companyDeclineBodySchema,
        response: companyRegistrationSchema,
      },
    ),
  );
  app.post(
    `${registrations}/:id/unlock`,
    handle(
      ({ caller, request }) => companies.unlock(caller, request.params.number, request.params.id, request.ip),
      {
        permission: maintain,
        params: issuerRecordParamsSchema,
        body: noBodySchema,
        response: companyRegistrationSchema,
      },
    ),
  );

  const cardApps = '/app/api/org/companies/:number/card-applications';
  app.get(
    cardApps,
    handle(({ caller, request }) => applications.list(caller, request.params.number, request.query), {
      permission: 'viewCardApplications',
      params: companyParamsSchema,
      query: cardApplicationListQuerySchema,
      response: cardApplicationListSchema,
    }),
  );
  app.get(
    `${cardApps}/:id`,
    handle(({ caller, request }) => applications.get(caller, request.params.number, request.params.id), {
      permission: 'viewCardApplications',
      params: companyRecordParamsSchema,
      response: cardApplicationSchema,
    }),
  );
  app.post(
    `${cardApps}/:id/approve`,
    handle(
      ({ caller, request, body }) =>
        applications.approve(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainCardApplications',
        params: companyRecordParamsSchema,
        body: cardApplicationApprovalBodySchema,
        response: cardApplicationSchema,
      },
    ),
  );
  app.post(
    `${cardApps}/:id/decline`,
    handle(
      ({ caller, request, body }) =>
        applications.decline(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainCardApplications',
        params: companyRecordParamsSchema,
        body: companyDeclineBodySchema,
        response: cardApplicationSchema,
      },
    ),
  );
}
