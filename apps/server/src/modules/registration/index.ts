import type { ServerModule } from '../../kernel/module.ts';
import { registrationRoutes } from './routes.ts';

export { CARDHOLDER_REGISTRATION_PATH } from './routes.ts';

/** Cardholder self-registration: the portal's form, the company's corporate code, a card's unlock. */
export const registrationModule: ServerModule = { routes: registrationRoutes };
