import {
  newRoleBodySchema,
  recordParamsSchema,
  roleListQuerySchema,
  roleListSchema,
  rolePatchSchema,
  roleSummarySchema,
  userParamsSchema,
  userRolesBodySchema,
  userRolesSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { RoleService } from './service.ts';

const roleIdOf = (raw: string): number => {
  const id = /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) ? id : refuse('notFound', 'role.notFound');
};

/** Roles and a user's roles (issue 7, docs/api.md "Roles"). */
export async function roleRoutes(app: FastifyInstance): Promise<void> {
  const service = new RoleService(app.db);
  const handle = appHandler(app);

  app.get(
    '/app/api/roles',
    handle(({ caller, query }) => service.list(caller, query.issuer), {
      permission: 'viewRoles',
      query: roleListQuerySchema,
      response: roleListSchema,
    }),
  );
  app.post(
    '/app/api/roles',
    handle(({ caller, request, body }) => service.create(caller, body, request.ip), {
      permission: 'defineRoles',
      body: newRoleBodySchema,
      status: 201,
      response: roleSummarySchema,
    }),
  );
  app.patch(
    '/app/api/roles/:id',
    handle(
      ({ caller, request, body }) => service.update(caller, roleIdOf(request.params.id), body, request.ip),
      {
        permission: 'defineRoles',
        params: recordParamsSchema,
        body: rolePatchSchema,
        response: roleSummarySchema,
      },
    ),
  );
  app.get(
    '/app/api/users/:userId/roles',
    handle(({ caller, request }) => service.ofUser(caller, request.params.userId), {
      permission: 'viewRoles',
      params: userParamsSchema,
      response: userRolesSchema,
    }),
  );
  app.put(
    '/app/api/users/:userId/roles',
    handle(
      ({ caller, request, body }) =>
        service.setForUser(caller, request.params.userId, body.roleIds, request.ip),
      {
        permission: 'assignRoles',
        params: userParamsSchema,
        body: userRolesBodySchema,
        response: userRolesSchema,
      },
    ),
  );
}
