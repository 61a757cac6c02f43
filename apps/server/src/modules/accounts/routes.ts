import {
  accountBulkMoveSchema,
  accountBulkResultSchema,
  accountDetailSchema,
  accountExportQuerySchema,
  accountGroupBodySchema,
  accountGroupListSchema,
  accountGroupMoveSchema,
  accountGroupSummarySchema,
  accountListSchema,
  accountSearchQuerySchema,
  accountStatusBodySchema,
  activeBodySchema,
  cardholderDetailSchema,
  cardholderExportQuerySchema,
  cardholderListSchema,
  cardholderPatchSchema,
  cardholderReasonsBodySchema,
  cardholderSearchQuerySchema,
  companyParamsSchema,
  companyRecordParamsSchema,
  myCardsSchema,
  newAccountBodySchema,
  newRealCardBodySchema,
  realCardAliasBodySchema,
  realCardDeleteResultSchema,
  realCardExportQuerySchema,
  realCardListSchema,
  realCardSearchQuerySchema,
  realCardSummarySchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { appHandler } from '../../http/app-handler.ts';
import { csvAnswer, sendCsv } from '../../http/csv.ts';
import { RealCardService } from './real-cards.ts';
import { AccountService } from './service.ts';

/**
 * A company's cardholders, card accounts and account groups (issue 7) under
 * /app/api/org/companies/:number, and a cardholder's own cards at /app/api/my/cards. What each type may
 * do is the action its contract declares (packages/domain authorization.ts), inside its scope in SQL (docs/authorization.md). Account numbers
 * leave the server masked only. Every answer is no-store.
 */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const service = new AccountService(app.db);

  const handle = appHandler(app);
  // Real cards: a company's card accounts without a cardholder, known by alias (real-cards.ts).
  const realCards = new RealCardService(app.db, () => app.secrets.cards);

  const base = '/app/api/org/companies/:number';

  app.get(
    `${base}/cardholders`,
    handle(
      ({ caller, request }) =>
        service.listCardholders(caller, request.params.number, {
          q: request.query.q,
          after: request.query.after,
          before: request.query.before,
          status: request.query.status,
          sort: request.query.sort,
          dir: request.query.dir,
        }),
      {
        permission: 'viewAccounts',
        params: companyParamsSchema,
        query: cardholderSearchQuerySchema,
        response: cardholderListSchema,
      },
    ),
  );
  // Every match of a search as CSV (sibling paths: no record id holds a dot).
  app.get(
    `${base}/cardholders.csv`,
    handle(
      async ({ caller, reply, request }) =>
        sendCsv(reply, await service.exportCardholders(caller, request.params.number, request.query)),
      {
        permission: 'viewAccounts',
        params: companyParamsSchema,
        query: cardholderExportQuerySchema,
        response: csvAnswer("The company's matching cardholders as CSV (attachment), formula-injection safe"),
      },
    ),
  );
  app.get(
    `${base}/accounts.csv`,
    handle(
      async ({ caller, reply, request }) =>
        sendCsv(reply, await service.exportAccounts(caller, request.params.number, request.query)),
      {
        permission: 'viewAccounts',
        params: companyParamsSchema,
        query: accountExportQuerySchema,
        response: csvAnswer(
          "The company's matching card accounts as CSV (attachment), numbers masked, formula-injection safe",
        ),
      },
    ),
  );
  app.get(
    `${base}/real-cards.csv`,
    handle(
      async ({ caller, reply, request }) =>
        sendCsv(reply, await realCards.exportCsv(caller, request.params.number, request.query)),
      {
        permission: 'viewRealCards',
        params: companyParamsSchema,
        query: realCardExportQuerySchema,
        response: csvAnswer(
          "The company's matching real cards as CSV (attachment), numbers masked, formula-injection safe",
        ),
      },
    ),
  );
  app.get(
    `${base}/cardholders/:id`,
    handle(({ caller, request }) => service.getCardholder(caller, request.params.number, request.params.id), {
      permission: 'viewAccounts',
      params: companyRecordParamsSchema,
      response: cardholderDetailSchema,
    }),
  );
  app.patch(
    `${base}/cardholders/:id`,
    handle(
      ({ caller, request, body }) =>
        service.updateCardholder(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccounts',
        params: companyRecordParamsSchema,
        body: cardholderPatchSchema,
        response: cardholderDetailSchema,
      },
    ),
  );
  app.put(
    `${base}/cardholders/:id/status`,
    handle(
      ({ caller, request, body }) =>
        service.setCardholderActive(
          caller,
          request.params.number,
          request.params.id,
          body.active,
          request.ip,
        ),
      {
        permission: 'maintainAccounts',
        params: companyRecordParamsSchema,
        body: activeBodySchema,
        response: cardholderDetailSchema,
      },
    ),
  );

  app.post(
    `${base}/accounts`,
    handle(
      ({ caller, request, body }) =>
        service.issueAccount(caller, request.params.number, body, app.secrets.cards, request.ip),
      {
        permission: 'maintainAccounts',
        params: companyParamsSchema,
        body: newAccountBodySchema,
        response: accountDetailSchema,
      },
    ),
  );
  app.get(
    `${base}/accounts`,
    handle(
      ({ caller, request }) =>
        service.listAccounts(caller, request.params.number, {
          q: request.query.q,
          after: request.query.after,
          before: request.query.before,
          group: request.query.group,
          status: request.query.status,
          sort: request.query.sort,
          dir: request.query.dir,
        }),
      {
        permission: 'viewAccounts',
        params: companyParamsSchema,
        query: accountSearchQuerySchema,
        response: accountListSchema,
      },
    ),
  );
  app.get(
    `${base}/accounts/:id`,
    handle(({ caller, request }) => service.getAccount(caller, request.params.number, request.params.id), {
      permission: 'viewAccounts',
      params: companyRecordParamsSchema,
      response: accountDetailSchema,
    }),
  );
  app.put(
    `${base}/accounts/:id/status`,
    handle(
      ({ caller, request, body }) =>
        service.setAccountStatus(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccounts',
        params: companyRecordParamsSchema,
        body: accountStatusBodySchema,
        response: accountDetailSchema,
      },
    ),
  );
  app.put(
    `${base}/cardholders/:id/reasons`,
    handle(
      ({ caller, request, body }) =>
        service.setCardholderReasons(
          caller,
          request.params.number,
          request.params.id,
          body.codes,
          request.ip,
        ),
      {
        permission: 'maintainAccounts',
        params: companyRecordParamsSchema,
        body: cardholderReasonsBodySchema,
        response: cardholderDetailSchema,
      },
    ),
  );
  app.post(
    `${base}/accounts/bulk-move`,
    handle(({ caller, request, body }) => service.bulkMove(caller, request.params.number, body, request.ip), {
      permission: 'maintainAccounts',
      params: companyParamsSchema,
      body: accountBulkMoveSchema,
      response: accountBulkResultSchema,
    }),
  );
  app.put(
    `${base}/accounts/:id/group`,
    handle(
      ({ caller, request, body }) =>
        service.moveAccount(caller, request.params.number, request.params.id, body.groupId, request.ip),
      {
        permission: 'maintainAccounts',
        params: companyRecordParamsSchema,
        body: accountGroupMoveSchema,
        response: accountDetailSchema,
      },
    ),
  );

  app.get(
    `${base}/account-groups`,
    handle(({ caller, request }) => service.listGroups(caller, request.params.number), {
      permission: 'viewAccountGroups',
      params: companyParamsSchema,
      response: accountGroupListSchema,
    }),
  );
  app.post(
    `${base}/account-groups`,
    handle(
      ({ caller, request, body }) =>
        service.createGroup(caller, request.params.number, body.name, request.ip),
      {
        permission: 'maintainAccountGroups',
        params: companyParamsSchema,
        body: accountGroupBodySchema,
        status: 201,
        response: accountGroupSummarySchema,
      },
    ),
  );
  app.patch(
    `${base}/account-groups/:id`,
    handle(
      ({ caller, request, body }) =>
        service.renameGroup(caller, request.params.number, request.params.id, body.name, request.ip),
      {
        permission: 'maintainAccountGroups',
        params: companyRecordParamsSchema,
        body: accountGroupBodySchema,
        response: accountGroupSummarySchema,
      },
    ),
  );
  app.put(
    `${base}/account-groups/:id/status`,
    handle(
      ({ caller, request, body }) =>
        service.setGroupActive(caller, request.params.number, request.params.id, body.active, request.ip),
      {
        permission: 'maintainAccountGroups',
        params: companyRecordParamsSchema,
        body: activeBodySchema,
        response: accountGroupSummarySchema,
      },
    ),
  );

  app.get(
    `${base}/real-cards`,
    handle(
      ({ caller, request }) =>
        realCards.list(caller, request.params.number, {
          q: request.query.q,
          status: request.query.status,
          after: request.query.after,
          before: request.query.before,
          sort: request.query.sort,
          dir: request.query.dir,
        }),
      {
        permission: 'viewRealCards',
        params: companyParamsSchema,
        query: realCardSearchQuerySchema,
        response: realCardListSchema,
      },
    ),
  );
  app.post(
    `${base}/real-cards`,
    handle(({ caller, request, body }) => realCards.create(caller, request.params.number, body, request.ip), {
      permission: 'maintainRealCards',
      params: companyParamsSchema,
      body: newRealCardBodySchema,
      status: 201,
      response: realCardSummarySchema,
    }),
  );
  app.get(
    `${base}/real-cards/:id`,
    handle(({ caller, request }) => realCards.get(caller, request.params.number, request.params.id), {
      permission: 'viewRealCards',
      params: companyRecordParamsSchema,
      response: realCardSummarySchema,
    }),
  );
  app.patch(
    `${base}/real-cards/:id`,
    handle(
      ({ caller, request, body }) =>
        realCards.rename(caller, request.params.number, request.params.id, body.alias, request.ip),
      {
        permission: 'maintainRealCards',
        params: companyRecordParamsSchema,
        body: realCardAliasBodySchema,
        response: realCardSummarySchema,
      },
    ),
  );
  app.put(
    `${base}/real-cards/:id/status`,
    handle(
      ({ caller, request, body }) =>
        realCards.setActive(caller, request.params.number, request.params.id, body.active, request.ip),
      {
        permission: 'maintainRealCards',
        params: companyRecordParamsSchema,
        body: activeBodySchema,
        response: realCardSummarySchema,
      },
    ),
  );
  app.delete(
    `${base}/real-cards/:id`,
    handle(
      ({ caller, request }) => realCards.delete(caller, request.params.number, request.params.id, request.ip),
      {
        permission: 'maintainRealCards',
        params: companyRecordParamsSchema,
        response: realCardDeleteResultSchema,
      },
    ),
  );

  app.get(
    '/app/api/my/cards',
    handle(({ caller }) => service.myCards(caller), { permission: 'signedIn', response: myCardsSchema }),
  );
}
