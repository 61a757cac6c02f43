import {
  APP_BASE,
  accessAsBodySchema,
  checkAccessAs,
  nextUrlSchema,
  noBodySchema,
  type UserStatus,
  type UserType,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { accessedByOf } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { findVisibleUser, loadCaller, mayModifyVisible } from '../access/index.ts';
import { isFeatureOn } from '../issuers/index.ts';
import { membershipOf } from '../multi-user/index.ts';

/**
 * Access as user (issue 7, docs/multi-user.md): a super user works as a user it administers, in a new
 * session that names it (the application shows a banner), and returns to its own session. The audit
 * trail names the super user as the actor of every change made meanwhile.
 */
export async function accessAsRoutes(app: FastifyInstance): Promise<void> {
  const handle = appHandler(app);

  app.post(
    '/app/api/access-as',
    handle(
      async ({ caller, request, reply, body }) => {
        const session = await app.sessions.get(request);
        if (!session) return refuse('unauthenticated', 'session.required');
        // Who may not access as anyone was told so before any lookup (the route's permission).
        const row = await findVisibleUser(app.db, caller, body.userId);
        if (!row) return refuse('notFound', 'user.notFound');
        const companyId = row.user.companyId;
        const problem = checkAccessAs(
          {
            type: caller.type,
            pk: caller.userPk,
            permissions: caller.permissions,
            acting: caller.accessedBy !== null,
          },
          {
            pk: row.user.id,
            type: row.user.userType as UserType,
            status: row.user.status as UserStatus,
            linked: (await membershipOf(app.db, row.user.id)) !== undefined,
            administered: await mayModifyVisible(app.db, caller, row),
            optionOn: companyId !== null && (await isFeatureOn(app.db, companyId, 'accessAsUser')),
          },
        );
        if (problem)
          refuse(
            problem === 'accessAs.notActive' || problem === 'accessAs.linkedUser' ? 'conflict' : 'forbidden',
            problem,
          );
        await app.sessions.start(request, reply, {
          userPk: row.user.id,
          stage: 'full',
          cobrand: session.cobrand,
          locale: session.locale,
          sso: false,
          data: {
            multiUserChosen: true,
            accessedBy: {
              pk: caller.userPk,
              userId: caller.userId,
              firstName: caller.profile.firstName,
              lastName: caller.profile.lastName,
              signedInAt: session.createdAt.toISOString(),
            },
          },
          createdAt: session.createdAt,
        });
        await auditAdmin(app.db, 'accessAs.started', {
          actor: caller,
          entity: 'user',
          entityId: row.user.displayUserId,
          subjectPk: row.user.id,
          ip: request.ip,
        });
        return { url: APP_BASE };
      },
      { permission: 'accessAsUser', body: accessAsBodySchema, response: nextUrlSchema },
    ),
  );

  /** Back to the super user's own session (a new session id; the sign-in time carries over). */
  app.post(
    '/app/api/access-as/return',
    handle(
      async ({ caller, request, reply }) => {
        const session = await app.sessions.get(request);
        const by = accessedByOf(session?.data);
        if (!session || !by) return refuse('conflict', 'accessAs.notActing');
        const original = await loadCaller(app.db, by.pk);
        if (!original) {
          await app.sessions.end(request, reply);
          return refuse('unauthenticated', 'session.required');
        }
        const signedInAt = new Date(by.signedInAt);
        await app.sessions.start(request, reply, {
          userPk: original.userPk,
          stage: 'full',
          cobrand: session.cobrand,
          locale: session.locale,
          sso: false,
          data: { multiUserChosen: true },
          createdAt: Number.isNaN(signedInAt.getTime()) ? session.createdAt : signedInAt,
        });
        await auditAdmin(app.db, 'accessAs.ended', {
          actor: caller,
          entity: 'user',
          entityId: caller.userId,
          subjectPk: caller.userPk,
          ip: request.ip,
        });
        return { url: APP_BASE };
      },
      { permission: 'signedIn', body: noBodySchema, response: nextUrlSchema },
    ),
  );
}
