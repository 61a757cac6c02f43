import type { ServerModule } from '../../kernel/module.ts';
import { ssoCommands } from './commands.ts';
import { ssoRoutes } from './routes.ts';
import { SsoService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Single sign-on through OpenID Connect providers (modules/sso, docs/sso.md). */
    sso: SsoService;
  }
}

export { SSO_BINDING_COOKIE } from './routes.ts';
export { ssoPaths } from './service.ts';

/** Single sign-on (issue 18 item 4): the relying party's routes, its providers and their CLI. */
export const ssoModule: ServerModule = {
  services: (app) => app.decorate('sso', new SsoService(app.db, app.secrets, app.config)),
  routes: ssoRoutes,
  commands: ssoCommands,
};
