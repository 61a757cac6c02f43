import {
  activeBodySchema,
  companyOptionsBodySchema,
  groupNameBodySchema,
  issuerOptionsBodySchema,
  issuerPatchSchema,
  newIssuerBodySchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { positionalHandler } from '../../http/app-handler.ts';
import { IssuerService } from './service.ts';

type Params = { number: string; id?: string };

/**
 * Issuers, issuer groups, company groups and program options (issue 7) under /app/api/org, for a full
 * session; what each user type may do is packages/domain mayOnIssuers, inside its scope
 * (docs/authorization.md). Every answer is no-store.
 */
export async function issuerRoutes(app: FastifyInstance): Promise<void> {
  const service = new IssuerService(app.db);

  const handle = positionalHandler<Params>(app);

  const issuersBase = '/app/api/org/issuers';
  app.get(
    issuersBase,
    handle(async (caller, request) => {
      const query = request.query as { q?: unknown; page?: unknown };
      return service.listIssuers(caller, {
        q: typeof query.q === 'string' ? query.q : undefined,
        page: typeof query.page === 'string' ? query.page : undefined,
      });
    }),
  );
  app.post(
    issuersBase,
    handle(
      (caller, request, body) => service.createIssuer(caller, body, request.ip),
      newIssuerBodySchema,
      200,
      (body) => String(body.number ?? ''),
    ),
  );
  app.get(
    `${issuersBase}/:number`,
    handle((caller, request) => service.getIssuer(caller, request.params.number)),
  );
  app.patch(
    `${issuersBase}/:number`,
    handle(
      (caller, request, body) => service.updateIssuer(caller, request.params.number, body, request.ip),
      issuerPatchSchema,
    ),
  );
  app.put(
    `${issuersBase}/:number/status`,
    handle(
      (caller, request, body) =>
        service.setIssuerActive(caller, request.params.number, body.active, request.ip),
      activeBodySchema,
    ),
  );
  app.delete(
    `${issuersBase}/:number`,
    handle((caller, request) => service.deleteIssuer(caller, request.params.number, request.ip)),
  );

  const groups = `${issuersBase}/:number/company-groups`;
  app.get(
    groups,
    handle((caller, request) => service.listCompanyGroups(caller, request.params.number)),
  );
  app.post(
    groups,
    handle(
      (caller, request, body) => service.createCompanyGroup(caller, request.params.number, body, request.ip),
      groupNameBodySchema,
    ),
  );
  app.patch(
    `${groups}/:id`,
    handle(
      (caller, request, body) =>
        service.renameCompanyGroup(caller, request.params.number, request.params.id ?? '', body, request.ip),
      groupNameBodySchema,
    ),
  );
  app.put(
    `${groups}/:id/status`,
    handle(
      (caller, request, body) =>
        service.setCompanyGroupActive(
          caller,
          request.params.number,
          request.params.id ?? '',
          body.active,
          request.ip,
        ),
      activeBodySchema,
    ),
  );

  app.get(
    `${issuersBase}/:number/program-options`,
    handle((caller, request) => service.issuerOptions(caller, request.params.number)),
  );
  app.put(
    `${issuersBase}/:number/program-options`,
    handle(
      (caller, request, body) => service.setIssuerOptions(caller, request.params.number, body, request.ip),
      issuerOptionsBodySchema,
    ),
  );
  app.get(
    '/app/api/org/companies/:number/program-options',
    handle((caller, request) => service.companyOptions(caller, request.params.number)),
  );
  app.put(
    '/app/api/org/companies/:number/program-options',
    handle(
      (caller, request, body) => service.setCompanyOptions(caller, request.params.number, body, request.ip),
      companyOptionsBodySchema,
    ),
  );

  const issuerGroupsBase = '/app/api/org/issuer-groups';
  app.get(
    issuerGroupsBase,
    handle((caller) => service.listIssuerGroups(caller)),
  );
  app.post(
    issuerGroupsBase,
    handle(
      (caller, request, body) => service.createIssuerGroup(caller, body, request.ip),
      groupNameBodySchema,
    ),
  );
  app.patch(
    `${issuerGroupsBase}/:id`,
    handle(
      (caller, request, body) => service.renameIssuerGroup(caller, request.params.id ?? '', body, request.ip),
      groupNameBodySchema,
    ),
  );
  app.put(
    `${issuerGroupsBase}/:id/status`,
    handle(
      (caller, request, body) =>
        service.setIssuerGroupActive(caller, request.params.id ?? '', body.active, request.ip),
      activeBodySchema,
    ),
  );
}
