import type { ApiErrorBody } from '@cardportal/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Sends the one error shape of every 4xx (and the rare 5xx) answer. */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  fieldErrors?: Record<string, string>,
): FastifyReply {
  const body: ApiErrorBody = fieldErrors ? { code, message, fieldErrors } : { code, message };
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(body);
}

/**
 * The error shape of the credential services: the common one plus `errors[0]` / `error[0]`, which the
 * portal reads (spec §7, §8).
 */
export function sendServiceError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  /** More fields of the answer and of its entry (e.g. password.policy's `problems` and `minLength`). */
  detail?: Record<string, unknown>,
): FastifyReply {
  const entry = [{ ...detail, code, message }];
  const body = { ...detail, code, message, errors: entry, error: entry };
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(body);
}

/**
 * A file upload route's error handler: the catalogue's own words for a body over the route's limit
 * (413 "File size limit of 4 megabytes exceeded.") and for a media type no parser takes (415 "Invalid or
 * Unsupported File Format"); anything else goes on to the application's handler.
 */
export function uploadErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413)
    return sendError(reply, 413, 'upload.tooLarge', 'File size limit of 4 megabytes exceeded.');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return sendError(reply, 415, 'upload.unsupportedFormat', 'Invalid or Unsupported File Format');
  throw error;
}
