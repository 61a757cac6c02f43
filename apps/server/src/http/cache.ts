import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * Sends a cacheable answer with an ETag; answers 304 when the client already has it. HEAD gets the
 * headers only (Fastify strips the body).
 */
export function sendCacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string | Uint8Array,
  options: { etag?: string; contentType: string; maxAge: number },
): FastifyReply {
  const etag = options.etag ?? etagOf(body);
  reply
    .header('etag', etag)
    .header('cache-control', `public, max-age=${options.maxAge}`)
    .type(options.contentType);
  const inm = request.headers['if-none-match'];
  if (typeof inm === 'string' && inm.split(',').some((t) => t.trim() === etag)) {
    return reply.code(304).send();
  }
  return reply.send(typeof body === 'string' ? body : Buffer.from(body));
}
