import { newRoleBodySchema, rolePatchSchema, userRolesBodySchema } from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { appHandler, refuseWith } from '../../http/app-handler.ts';
import { RoleService } from './service.ts';

const listQuery = z.strictObject({
  issuer: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z]{1,20}$/, { error: 'role.issuer.unknown' })
    .optional(),
});
const roleIdOf = (raw: string): number => {
  const id = /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) ? id : refuseWith(404, 'role.notFound');
};

/** Roles and a user's roles (issue 7, docs/api.md "Roles"). */
export async function roleRoutes(app: FastifyInstance): Promise<void> {
  const service = new RoleService(app.db);
  const handle = appHandler(app);

  app.get(
    '/app/api/roles',
    handle(({ caller, body }) => service.list(caller, body.issuer), { query: listQuery }),
  );
  app.post(
    '/app/api/roles',
    handle(({ caller, request, body }) => service.create(caller, body, request.ip), {
      body: newRoleBodySchema,
      status: 201,
    }),
  );
  app.patch<{ Params: { id: string } }>(
    '/app/api/roles/:id',
    handle<{ id: string }, z.infer<typeof rolePatchSchema>>(
      ({ caller, request, body }) => service.update(caller, roleIdOf(request.params.id), body, request.ip),
      { body: rolePatchSchema },
    ),
  );
  app.get<{ Params: { userId: string } }>(
    '/app/api/users/:userId/roles',
    handle<{ userId: string }>(({ caller, request }) => service.ofUser(caller, request.params.userId)),
  );
  app.put<{ Params: { userId: string } }>(
    '/app/api/users/:userId/roles',
    handle<{ userId: string }, z.infer<typeof userRolesBodySchema>>(
      ({ caller, request, body }) =>
        service.setForUser(caller, request.params.userId, body.roleIds, request.ip),
      { body: userRolesBodySchema },
    ),
  );
}
