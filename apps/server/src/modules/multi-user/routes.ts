import {
  APP_BASE,
  chooseUserBodySchema,
  confirmLinkBodySchema,
  linkUsersBodySchema,
  nextUrlSchema,
  noContentSchema,
  userLinkSchema,
  userParamsSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { MultiUserService } from './service.ts';

/** Multi-user (issue 7, docs/multi-user.md, docs/api.md "Multi-user"). */
export async function multiUserRoutes(app: FastifyInstance): Promise<void> {
  const service = new MultiUserService(app.db);
  const handle = appHandler(app);

  app.get(
    '/app/api/users/:userId/link',
    handle(({ caller, request }) => service.linkOf(caller, request.params.userId), {
      permission: 'viewUsers',
      params: userParamsSchema,
      response: userLinkSchema,
    }),
  );
  app.delete(
    '/app/api/users/:userId/link',
    handle(({ caller, request }) => service.unlink(caller, request.params.userId, request.ip), {
      permission: 'linkUsers',
      params: userParamsSchema,
      response: userLinkSchema,
    }),
  );
  app.post(
    '/app/api/multi-user/links',
    handle(({ caller, request, body }) => service.link(caller, body.userIds, request.ip), {
      permission: 'linkUsers',
      body: linkUsersBodySchema,
      status: 201,
      response: userLinkSchema,
    }),
  );
  app.post(
    '/app/api/multi-user/confirm',
    handle(({ caller, request, body }) => service.confirm(caller, body.accept, body.userIds, request.ip), {
      permission: 'ownLinks',
      body: confirmLinkBodySchema,
      response: { 204: noContentSchema },
    }),
  );

  /**
   * After sign-in, the ID to work as. Choosing another ID starts a new session for it (a new id; the
   * absolute lifetime still runs from the sign-in); either way the choice is final for this session.
   */
  app.post(
    '/app/api/multi-user/choose',
    handle(
      async ({ caller, request, reply, body }) => {
        const session = await app.sessions.get(request);
        if (!session) return refuse('unauthenticated', 'session.required');
        if (session.data.multiUserChosen === true) refuse('conflict', 'multiUser.alreadyChosen');
        const target = await service.choice(caller, body.userId);
        if (!target) {
          await app.sessions.setData(session, { multiUserChosen: true });
          return { url: APP_BASE };
        }
        await app.sessions.start(request, reply, {
          userPk: target.pk,
          stage: 'full',
          cobrand: session.cobrand,
          locale: session.locale,
          sso: false,
          data: { multiUserChosen: true, multiUserFrom: caller.userId },
          createdAt: session.createdAt,
        });
        await auditAdmin(app.db, 'multiUser.switched', {
          actor: caller,
          entity: 'user',
          entityId: target.userId,
          subjectPk: target.pk,
          ip: request.ip,
          detail: { from: caller.userId },
        });
        return { url: APP_BASE };
      },
      { permission: 'ownLinks', body: chooseUserBodySchema, response: nextUrlSchema },
    ),
  );
}
