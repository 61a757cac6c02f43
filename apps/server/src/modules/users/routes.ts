import {
  createUserBodySchema,
  resolveLocale,
  setUserStatusBodySchema,
  toFieldErrors,
  updateUserBodySchema,
  userSearchQuerySchema,
} from '@cardportal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requireCaller } from '../../http/caller.ts';
import { sendError } from '../../http/errors.ts';
import { UserService, UserServiceError } from './service.ts';

/**
 * User maintenance (issue 7, docs/api.md): search, view, create, edit, deactivate/reactivate and unlock,
 * for a full session only. Every answer is JSON; every 4xx is `{ code, message, fieldErrors? }` whose
 * code and field values are message keys (`validation.{key}` in the Messages bundle).
 */
export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const service = new UserService(app, app.db);

  const callerOf = (request: FastifyRequest, reply: FastifyReply) => requireCaller(app, request, reply);

  /** The message of a key in the caller's language (Messages bundle, `validation.{key}`). */
  const text = (locale: string, key: string) =>
    app.texts.text(resolveLocale(locale), 'Messages', `validation.${key}`) || key;

  const refuse = (reply: FastifyReply, locale: string, error: unknown) => {
    if (error instanceof UserServiceError)
      return sendError(reply, error.status, error.code, text(locale, error.code), error.fieldErrors);
    throw error;
  };

  const parse = <S extends z.ZodType>(
    schema: S,
    value: unknown,
    reply: FastifyReply,
    locale: string,
  ): z.output<S> | undefined => {
    const result = schema.safeParse(value ?? {});
    if (result.success) return result.data;
    sendError(reply, 400, 'form.invalid', text(locale, 'form.invalid'), toFieldErrors(result.error));
    return undefined;
  };

  const userIdOf = (request: FastifyRequest) => (request.params as { userId: string }).userId;

  app.get('/app/api/users', async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    const query = parse(userSearchQuerySchema, request.query, reply, caller.locale);
    if (!query) return reply;
    try {
      return await service.search(caller, query);
    } catch (error) {
      return refuse(reply, caller.locale, error);
    }
  });

  app.get('/app/api/users/:userId', async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    try {
      return await service.view(caller, userIdOf(request));
    } catch (error) {
      return refuse(reply, caller.locale, error);
    }
  });

  app.post('/app/api/users', async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    const body = parse(createUserBodySchema, request.body, reply, caller.locale);
    if (!body) return reply;
    try {
      const created = await service.create(caller, body, request.ip);
      return reply.code(201).send(created);
    } catch (error) {
      return refuse(reply, caller.locale, error);
    }
  });

  app.patch('/app/api/users/:userId', async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    const body = parse(updateUserBodySchema, request.body, reply, caller.locale);
    if (!body) return reply;
    try {
      return await service.update(caller, userIdOf(request), body, request.ip);
    } catch (error) {
      return refuse(reply, caller.locale, error);
    }
  });

  app.put('/app/api/users/:userId/status', async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    const body = parse(setUserStatusBodySchema, request.body, reply, caller.locale);
    if (!body) return reply;
    try {
      return await service.setStatus(caller, userIdOf(request), body.status, request.ip);
    } catch (error) {
      return refuse(reply, caller.locale, error);
    }
  });

  app.post('/app/api/users/:userId/unlock', async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    try {
      return await service.unlock(caller, userIdOf(request), request.ip);
    } catch (error) {
      return refuse(reply, caller.locale, error);
    }
  });
}
