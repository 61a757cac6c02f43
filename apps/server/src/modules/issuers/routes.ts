import {
  activeBodySchema,
  companyGroupListSchema,
  companyGroupSummarySchema,
  companyOptionsBodySchema,
  companyParamsSchema,
  groupNameBodySchema,
  ISSUER_CODE_LIST_NAMES,
  issuerCodeBodySchema,
  issuerCodeListSchema,
  issuerCodeParamsSchema,
  issuerCodePatchSchema,
  issuerDetailSchema,
  issuerExportQuerySchema,
  issuerGroupListSchema,
  issuerGroupSummarySchema,
  issuerListSchema,
  issuerOptionsBodySchema,
  issuerParamsSchema,
  issuerPatchSchema,
  issuerRecordParamsSchema,
  newIssuerBodySchema,
  noContentSchema,
  orgSearchQuerySchema,
  programOptionsViewSchema,
  recordParamsSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { appHandler } from '../../http/app-handler.ts';
import { csvAnswer, sendCsv } from '../../http/csv.ts';
import { IssuerCodeService } from './issuer-codes.ts';
import { IssuerService } from './service.ts';

/**
 * Issuers, issuer groups, company groups and program options (issue 7) under /app/api/org, for a full
 * session; what each user type may do is the action its contract declares (packages/domain authorization.ts), inside its scope
 * (docs/authorization.md). Every answer is no-store.
 */
export async function issuerRoutes(app: FastifyInstance): Promise<void> {
  const service = new IssuerService(app.db);

  const handle = appHandler(app);

  const issuersBase = '/app/api/org/issuers';
  app.get(
    issuersBase,
    handle(({ caller, request }) => service.listIssuers(caller, request.query), {
      permission: 'viewIssuers',
      query: orgSearchQuerySchema,
      response: issuerListSchema,
    }),
  );
  // Every match of the search as CSV (a sibling path: no issuer number holds a dot).
  app.get(
    `${issuersBase}.csv`,
    handle(
      async ({ caller, reply, request }) =>
        sendCsv(reply, await service.exportIssuers(caller, request.query)),
      {
        permission: 'viewIssuers',
        query: issuerExportQuerySchema,
        response: csvAnswer('The matching issuers as CSV (attachment), formula-injection safe'),
      },
    ),
  );
  app.post(
    issuersBase,
    handle(({ caller, request, body }) => service.createIssuer(caller, body, request.ip), {
      permission: 'createIssuer',
      body: newIssuerBodySchema,
      response: issuerDetailSchema,
      uniqueKey: (body) => String(body.number ?? ''),
    }),
  );
  app.get(
    `${issuersBase}/:number`,
    handle(({ caller, request }) => service.getIssuer(caller, request.params.number), {
      permission: 'viewIssuers',
      params: issuerParamsSchema,
      response: issuerDetailSchema,
    }),
  );
  app.patch(
    `${issuersBase}/:number`,
    handle(
      ({ caller, request, body }) => service.updateIssuer(caller, request.params.number, body, request.ip),
      {
        permission: 'modifyIssuer',
        params: issuerParamsSchema,
        body: issuerPatchSchema,
        response: issuerDetailSchema,
      },
    ),
  );
  app.put(
    `${issuersBase}/:number/status`,
    handle(
      ({ caller, request, body }) =>
        service.setIssuerActive(caller, request.params.number, body.active, request.ip),
      {
        permission: 'changeIssuerStatus',
        params: issuerParamsSchema,
        body: activeBodySchema,
        response: issuerDetailSchema,
      },
    ),
  );
  app.delete(
    `${issuersBase}/:number`,
    handle(({ caller, request }) => service.deleteIssuer(caller, request.params.number, request.ip), {
      permission: 'changeIssuerStatus',
      params: issuerParamsSchema,
      response: { 204: noContentSchema },
    }),
  );

  const groups = `${issuersBase}/:number/company-groups`;
  app.get(
    groups,
    handle(({ caller, request }) => service.listCompanyGroups(caller, request.params.number), {
      permission: 'viewCompanyGroups',
      params: issuerParamsSchema,
      response: companyGroupListSchema,
    }),
  );
  app.post(
    groups,
    handle(
      ({ caller, request, body }) =>
        service.createCompanyGroup(caller, request.params.number, body, request.ip),
      {
        permission: 'maintainCompanyGroups',
        params: issuerParamsSchema,
        body: groupNameBodySchema,
        response: companyGroupSummarySchema,
      },
    ),
  );
  app.patch(
    `${groups}/:id`,
    handle(
      ({ caller, request, body }) =>
        service.renameCompanyGroup(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainCompanyGroups',
        params: issuerRecordParamsSchema,
        body: groupNameBodySchema,
        response: companyGroupSummarySchema,
      },
    ),
  );
  app.put(
    `${groups}/:id/status`,
    handle(
      ({ caller, request, body }) =>
        service.setCompanyGroupActive(
          caller,
          request.params.number,
          request.params.id,
          body.active,
          request.ip,
        ),
      {
        permission: 'maintainCompanyGroups',
        params: issuerRecordParamsSchema,
        body: activeBodySchema,
        response: companyGroupSummarySchema,
      },
    ),
  );

  app.get(
    `${issuersBase}/:number/program-options`,
    handle(({ caller, request }) => service.issuerOptions(caller, request.params.number), {
      permission: 'viewIssuerOptions',
      params: issuerParamsSchema,
      response: programOptionsViewSchema,
    }),
  );
  app.put(
    `${issuersBase}/:number/program-options`,
    handle(
      ({ caller, request, body }) =>
        service.setIssuerOptions(caller, request.params.number, body, request.ip),
      {
        permission: 'modifyIssuerOptions',
        params: issuerParamsSchema,
        body: issuerOptionsBodySchema,
        response: programOptionsViewSchema,
      },
    ),
  );
  app.get(
    '/app/api/org/companies/:number/program-options',
    handle(({ caller, request }) => service.companyOptions(caller, request.params.number), {
      permission: 'viewCompanyOptions',
      params: companyParamsSchema,
      response: programOptionsViewSchema,
    }),
  );
  app.put(
    '/app/api/org/companies/:number/program-options',
    handle(
      ({ caller, request, body }) =>
        service.setCompanyOptions(caller, request.params.number, body, request.ip),
      {
        permission: 'modifyCompanyOptions',
        params: companyParamsSchema,
        body: companyOptionsBodySchema,
        response: programOptionsViewSchema,
      },
    ),
  );

  const issuerGroupsBase = '/app/api/org/issuer-groups';
  app.get(
    issuerGroupsBase,
    handle(({ caller }) => service.listIssuerGroups(caller), {
      permission: 'viewIssuerGroups',
      response: issuerGroupListSchema,
    }),
  );
  app.post(
    issuerGroupsBase,
    handle(({ caller, request, body }) => service.createIssuerGroup(caller, body, request.ip), {
      permission: 'maintainIssuerGroups',
      body: groupNameBodySchema,
      response: issuerGroupSummarySchema,
    }),
  );
  app.patch(
    `${issuerGroupsBase}/:id`,
    handle(
      ({ caller, request, body }) => service.renameIssuerGroup(caller, request.params.id, body, request.ip),
      {
        permission: 'maintainIssuerGroups',
        params: recordParamsSchema,
        body: groupNameBodySchema,
        response: issuerGroupSummarySchema,
      },
    ),
  );
  app.put(
    `${issuerGroupsBase}/:id/status`,
    handle(
      ({ caller, request, body }) =>
        service.setIssuerGroupActive(caller, request.params.id, body.active, request.ip),
      {
        permission: 'maintainIssuerGroups',
        params: recordParamsSchema,
        body: activeBodySchema,
        response: issuerGroupSummarySchema,
      },
    ),
  );

  // An issuer's code lists: dispute reasons, account status codes, maintenance reason codes.
  const codes = new IssuerCodeService(app.db);
  for (const list of ISSUER_CODE_LIST_NAMES) {
    const path = `${issuersBase}/:number/${list}`;
    app.get(
      path,
      handle(({ caller, request }) => codes.list(caller, request.params.number, list), {
        permission: 'viewIssuerCodes',
        params: issuerParamsSchema,
        response: issuerCodeListSchema,
      }),
    );
    app.post(
      path,
      handle(
        ({ caller, request, body }) => codes.create(caller, request.params.number, list, body, request.ip),
        {
          permission: 'maintainIssuerCodes',
          params: issuerParamsSchema,
          body: issuerCodeBodySchema,
          response: issuerCodeListSchema,
        },
      ),
    );
    app.put(
      `${path}/:code`,
      handle(
        ({ caller, request, body }) =>
          codes.update(caller, request.params.number, list, request.params.code, body, request.ip),
        {
          permission: 'maintainIssuerCodes',
          params: issuerCodeParamsSchema,
          body: issuerCodePatchSchema,
          response: issuerCodeListSchema,
        },
      ),
    );
    app.delete(
      `${path}/:code`,
      handle(
        ({ caller, request }) =>
          codes.remove(caller, request.params.number, list, request.params.code, request.ip),
        {
          permission: 'maintainIssuerCodes',
          params: issuerCodeParamsSchema,
          response: issuerCodeListSchema,
        },
      ),
    );
  }
}
