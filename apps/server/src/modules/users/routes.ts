import {
  createUserBodySchema,
  noBodySchema,
  setUserStatusBodySchema,
  updateUserBodySchema,
  userBulkBodySchema,
  userBulkResultSchema,
  userDetailSchema,
  userExportQuerySchema,
  userParamsSchema,
  userSearchQuerySchema,
  userSearchResultSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { appHandler } from '../../http/app-handler.ts';
import { csvAnswer, sendCsv } from '../../http/csv.ts';
import { UserService } from './service.ts';

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
    handle(({ caller, query }) => service.search(caller, query), {
      permission: 'viewUsers',
      query: userSearchQuerySchema,
      response: userSearchResultSchema,
    }),
  );
  // Every match of the search as CSV (a sibling path: no user ID holds a dot).
  app.get(
    '/app/api/users.csv',
    handle(async ({ caller, reply, query }) => sendCsv(reply, await service.exportCsv(caller, query)), {
      permission: 'viewUsers',
      query: userExportQuerySchema,
      response: csvAnswer('The matching users as CSV (attachment), formula-injection safe'),
    }),
  );
  app.post(
    '/app/api/users/bulk',
    handle(({ caller, request, body }) => service.bulk(caller, body, request.ip), {
      permission: 'administerUsers',
      body: userBulkBodySchema,
      response: userBulkResultSchema,
    }),
  );
  app.get(
    '/app/api/users/:userId',
    handle(({ caller, request }) => service.view(caller, request.params.userId), {
      permission: 'viewUsers',
      params: userParamsSchema,
      response: userDetailSchema,
    }),
  );
  app.post(
    '/app/api/users',
    handle(({ caller, request, body }) => service.create(caller, body, request.ip), {
      permission: 'administerUsers',
      body: createUserBodySchema,
      status: 201,
      response: userDetailSchema,
      uniqueKey: (body) => body.userId,
    }),
  );
  app.patch(
    '/app/api/users/:userId',
    handle(({ caller, request, body }) => service.update(caller, request.params.userId, body, request.ip), {
      permission: 'administerUsers',
      params: userParamsSchema,
      body: updateUserBodySchema,
      response: userDetailSchema,
    }),
  );
  app.put(
    '/app/api/users/:userId/status',
    handle(
      ({ caller, request, body }) =>
        service.setStatus(caller, request.params.userId, body.status, request.ip),
      {
        permission: 'administerUsers',
        params: userParamsSchema,
        body: setUserStatusBodySchema,
        response: userDetailSchema,
      },
    ),
  );
  app.post(
    '/app/api/users/:userId/unlock',
    handle(({ caller, request }) => service.unlock(caller, request.params.userId, request.ip), {
      permission: 'administerUsers',
      params: userParamsSchema,
      body: noBodySchema,
      response: userDetailSchema,
    }),
  );
}
