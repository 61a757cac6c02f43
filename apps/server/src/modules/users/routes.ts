import {
  type CreateUserBody,
  createUserBodySchema,
  type SetUserStatusBody,
  setUserStatusBodySchema,
  type UpdateUserBody,
  type UserSearchQuery,
  updateUserBodySchema,
  userSearchQuerySchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { appHandler } from '../../http/app-handler.ts';
import { UserService } from './service.ts';

type UserParams = { userId: string };

/**
 * User maintenance (issue 7, docs/api.md): search, view, create, edit, deactivate/reactivate and unlock,
 * for a full session only. Every answer is JSON; every 4xx is `{ code, message, fieldErrors? }` whose
 * code and field values are message keys (`validation.{key}` in the Messages bundle).
 */
export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const service = new UserService(app, app.db);
  const handle = appHandler(app);

  app.get(
    '/app/api/users',
    handle<Record<string, string>, UserSearchQuery>(({ caller, body }) => service.search(caller, body), {
      query: userSearchQuerySchema,
    }),
  );
  app.get<{ Params: UserParams }>(
    '/app/api/users/:userId',
    handle<UserParams>(({ caller, request }) => service.view(caller, request.params.userId)),
  );
  app.post(
    '/app/api/users',
    handle<Record<string, string>, CreateUserBody>(
      ({ caller, request, body }) => service.create(caller, body, request.ip),
      { body: createUserBodySchema, status: 201, uniqueKey: (body) => body.userId },
    ),
  );
  app.patch<{ Params: UserParams }>(
    '/app/api/users/:userId',
    handle<UserParams, UpdateUserBody>(
      ({ caller, request, body }) => service.update(caller, request.params.userId, body, request.ip),
      { body: updateUserBodySchema },
    ),
  );
  app.put<{ Params: UserParams }>(
    '/app/api/users/:userId/status',
    handle<UserParams, SetUserStatusBody>(
      ({ caller, request, body }) =>
        service.setStatus(caller, request.params.userId, body.status, request.ip),
      { body: setUserStatusBodySchema },
    ),
  );
  app.post<{ Params: UserParams }>(
    '/app/api/users/:userId/unlock',
    handle<UserParams>(({ caller, request }) => service.unlock(caller, request.params.userId, request.ip)),
  );
}
