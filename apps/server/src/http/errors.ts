import type { ApiErrorBody } from '@cardportal/domain';
import type { FastifyReply } from 'fastify';

/** Sends the one error shape of every 4xx (and the rare 5xx) answer. */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  fieldErrors?: Record<string, string>,
): FastifyReply {
  const body: ApiErrorBody = fieldErrors ? { code, message, fieldErrors } : { code, message };
  return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}
