import type { ServerModule } from '../../kernel/module.ts';
import { cobrandCommands } from './commands.ts';
import { cobrandRoutes } from './routes.ts';
import { CobrandService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Co-brand records and assets, cached (modules/cobrand/service.ts). */
    cobrands: CobrandService;
  }
}

export { importCobrandFile } from './import.ts';
export { listCobrands, saveCobrands } from './repository.ts';
export { CobrandService, type PublicCobrand } from './service.ts';

/** Co-brands: their records, assets and locales, read by the portal and the mails (`app.cobrands`). */
export const cobrandModule: ServerModule = {
  services: (app) => app.decorate('cobrands', new CobrandService(app.db)),
  routes: cobrandRoutes,
  commands: cobrandCommands,
};
