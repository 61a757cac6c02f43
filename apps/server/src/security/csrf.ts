import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { UNSAFE_METHODS } from '../http/body-type.ts';
import { sendError } from '../http/errors.ts';
import type { SessionManager } from './sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A SAML assertion consumer service: a cross-site form POST by design (see the hook below). */
    samlAssertionConsumer?: boolean;
  }
}

/**
 * CSRF (DESIGN §5): every state-changing request carries the sec-token issued for its session, and
 * comes from our own origin.
 */
export function registerCsrf(app: FastifyInstance, config: Config, sessions: SessionManager): void {
  const ourOrigin = new URL(config.publicUrl).origin;
  app.addHook('onRequest', (request, reply, done) => {
    if (!UNSAFE_METHODS.has(request.method)) return done();
    // A SAML identity provider's answer arrives as a form POST from its own site (HTTP-POST binding): it
    // carries no token of ours and a foreign Origin by design. It is proven by its signature and the
    // request it answers; no session starts there (docs/sso.md "SAML").
    if (request.routeOptions.config?.samlAssertionConsumer === true) return done();
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== ourOrigin && origin !== `${request.protocol}://${request.host}`) {
      sendError(reply, 403, 'csrf.origin', 'Cross-origin request refused');
      return;
    }
    if (!sessions.checkCsrf(request)) {
      sendError(reply, 403, 'csrf.invalid', 'Missing or invalid CSRF token: reload the page and try again');
      return;
    }
    done();
  });
}
