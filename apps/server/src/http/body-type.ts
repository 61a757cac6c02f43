import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.ts';

/** The methods that change state: they carry a body of the route's type and a CSRF token. */
export const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';

declare module 'fastify' {
  /** A route's own body type, when it is neither JSON nor /heracles/login's form (415 otherwise). */
  interface FastifyContextConfig {
    bodyType?: string;
    bodyTypeRefusal?: { code: string; message: string };
  }
}

/**
 * Each call takes one body type (DESIGN §4): JSON, except /heracles/login (form-encoded). A body of
 * another type is refused with 415 before any handler reads it (ASVS V13.1.5, V13.2.5).
 * Callback-style hooks: the safe methods pass through without a promise (public-call speed, issue 6).
 */
export function registerBodyTypes(app: FastifyInstance): void {
  app.addHook('preValidation', (request, reply, done) => {
    if (!UNSAFE_METHODS.has(request.method)) return done();
    // A route may declare another body type (the reporting-structure upload: an .xlsx workbook).
    const declared = request.routeOptions.config;
    const expected =
      declared.bodyType ?? (request.url.split('?')[0] === '/heracles/login' ? FORM : JSON_TYPE);
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    const type = String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (hasBody && type !== expected) {
      const refusal = declared.bodyTypeRefusal;
      sendError(
        reply,
        415,
        refusal?.code ?? 'request.contentType',
        refusal ? `${refusal.message}: Content-Type must be ${expected}` : `Content-Type must be ${expected}`,
      );
      return;
    }
    done();
  });
}
