import {
  accountGroupBodySchema,
  accountGroupMoveSchema,
  accountStatusBodySchema,
  activeBodySchema,
  cardholderPatchSchema,
} from '@cardportal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { positionalHandler } from '../../http/app-handler.ts';
import { AccountService } from './service.ts';

type Params = { number: string; id: string };
type Query = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * A company's cardholders, card accounts and account groups (issue 7) under
 * /app/api/org/companies/:number, and a cardholder's own cards at /app/api/my/cards. What each type may
 * do is packages/domain mayOnAccounts, inside its scope in SQL (docs/authorization.md). Account numbers
 * leave the server masked only. Every answer is no-store.
 */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const service = new AccountService(app.db);

  const handle = positionalHandler<Params>(app);

  const base = '/app/api/org/companies/:number';
  const query = (request: FastifyRequest) => (request.query ?? {}) as Query;

  app.get(
    `${base}/cardholders`,
    handle((caller, request) => {
      const q = query(request);
      return service.listCardholders(caller, request.params.number, {
        q: text(q.q),
        page: text(q.page),
        status: text(q.status),
      });
    }),
  );
  app.get(
    `${base}/cardholders/:id`,
    handle((caller, request) => service.getCardholder(caller, request.params.number, request.params.id)),
  );
  app.patch(
    `${base}/cardholders/:id`,
    handle(
      (caller, request, body) =>
        service.updateCardholder(caller, request.params.number, request.params.id, body, request.ip),
      cardholderPatchSchema,
    ),
  );
  app.put(
    `${base}/cardholders/:id/status`,
    handle(
      (caller, request, body) =>
        service.setCardholderActive(
          caller,
          request.params.number,
          request.params.id,
          body.active,
          request.ip,
        ),
      activeBodySchema,
    ),
  );

  app.get(
    `${base}/accounts`,
    handle((caller, request) => {
      const q = query(request);
      return service.listAccounts(caller, request.params.number, {
        q: text(q.q),
        page: text(q.page),
        group: text(q.group),
        status: text(q.status),
      });
    }),
  );
  app.get(
    `${base}/accounts/:id`,
    handle((caller, request) => service.getAccount(caller, request.params.number, request.params.id)),
  );
  app.put(
    `${base}/accounts/:id/status`,
    handle(
      (caller, request, body) =>
        service.setAccountStatus(caller, request.params.number, request.params.id, body.status, request.ip),
      accountStatusBodySchema,
    ),
  );
  app.put(
    `${base}/accounts/:id/group`,
    handle(
      (caller, request, body) =>
        service.moveAccount(caller, request.params.number, request.params.id, body.groupId, request.ip),
      accountGroupMoveSchema,
    ),
  );

  app.get(
    `${base}/account-groups`,
    handle((caller, request) => service.listGroups(caller, request.params.number)),
  );
  app.post(
    `${base}/account-groups`,
    handle(
      (caller, request, body) => service.createGroup(caller, request.params.number, body.name, request.ip),
      accountGroupBodySchema,
      201,
    ),
  );
  app.patch(
    `${base}/account-groups/:id`,
    handle(
      (caller, request, body) =>
        service.renameGroup(caller, request.params.number, request.params.id, body.name, request.ip),
      accountGroupBodySchema,
    ),
  );
  app.put(
    `${base}/account-groups/:id/status`,
    handle(
      (caller, request, body) =>
        service.setGroupActive(caller, request.params.number, request.params.id, body.active, request.ip),
      activeBodySchema,
    ),
  );

  app.get(
    '/app/api/my/cards',
    handle((caller) => service.myCards(caller)),
  );
}
