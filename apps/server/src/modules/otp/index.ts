import type { ServerModule } from '../../kernel/module.ts';
import { otpRoutes } from './routes.ts';

/** Resending the e-mailed one-time passcode (the sign-in itself is the login module's, `app.login`). */
export const otpModule: ServerModule = { routes: otpRoutes };
