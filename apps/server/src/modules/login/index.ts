import type { ServerModule } from '../../kernel/module.ts';
import { composeMail } from '../mail/index.ts';
import { loginRoutes } from './routes.ts';
import { LoginService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sign-in (modules/login/service.ts): password, second factors, the e-mailed code. */
    login: LoginService;
  }
}

/** Sign-in: `/heracles/login`, its second factors and the e-mailed one-time code (`app.login`). */
export const loginModule: ServerModule = {
  services: (app) =>
    app.decorate(
      'login',
      new LoginService(
        app.db,
        app.secrets,
        (kind, user, context, args, db) => composeMail(app, kind, user, context, args, db),
        () => app.mailWorker.kick(),
      ),
    ),
  routes: loginRoutes,
};
